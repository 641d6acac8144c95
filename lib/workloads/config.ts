// Workload params: one Zod discriminated union on `kind`, built from the registry (workloads/index.ts), so the
// form, the API, the CLI and the runner parse a config with the same schema and a bad field gets the same
// message everywhere. Each workload's own schema, fields and presets are in workloads/<kind>/definition.ts.
import { z } from "zod";
import { definitionOf, workloadDefinition, workloadDefinitions, type WorkloadConfig as Config, type WorkloadInput as Input } from "../../workloads";
import type { Pacing, PresetDef, WorkloadDefinition } from "../../workloads/types";

export type WorkloadConfig = Config;
export type WorkloadInput = Input;
import type { BackoffMode } from "../../workloads/fields";
import { phasesProblem } from "../phases/fit";
export { BACKOFF_LABELS, BACKOFF_MODES, type BackoffMode } from "../../workloads/fields";
export type WorkloadKind = WorkloadConfig["kind"];

/** "a", "b" or "c". */
const orList = (words: string[]) => (words.length > 1 ? `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}` : words.join(""));

let cached: { defs: readonly WorkloadDefinition[]; schema: z.ZodType<WorkloadConfig> } | null = null;
/** The union of the registered workloads' schemas (rebuilt only when a test registers one). */
function unionSchema(): z.ZodType<WorkloadConfig> {
  const defs = workloadDefinitions();
  if (cached?.defs !== defs) {
    const kinds = orList(defs.map((d) => `"${d.kind}"`));
    const options = defs.map((d) => d.params) as unknown as [z.ZodObject, ...z.ZodObject[]];
    const schema = z.discriminatedUnion("kind", options, {
      error: (iss) => (iss.code === "invalid_union" ? `kind must be ${kinds}` : undefined),
    }) as unknown as z.ZodType<WorkloadConfig>;
    cached = { defs, schema };
  }
  return cached.schema;
}

/**
 * The config schema: a Zod schema (summary schemas nest it) that parses with the union of the workloads
 * registered when it runs, with their own issues and messages.
 */
export const WorkloadConfig = z.unknown().transform((input, ctx) => {
  const r = unionSchema().safeParse(input);
  if (r.success) return r.data;
  for (const issue of r.error.issues) ctx.addIssue(issue as Parameters<typeof ctx.addIssue>[0]);
  return z.NEVER;
}) as unknown as z.ZodType<WorkloadConfig, WorkloadInput>;

/** Connections the engine opens beside a workload's clients: the admin one (set-up, checks) and the telemetry
 *  collector's (runner/telemetry/). Counted whether or not telemetry is on, so a run never meets a limit midway. */
export const ENGINE_CONNECTIONS = 2;

/** Connections a run opens against the target: one per client, as the reference, plus the engine's own, plus one
 *  per part of a run over several processes (its liveness probe when the target stops answering: runner/parts/). */
export function connectionsNeeded(c: WorkloadConfig): number {
  const parts = c.processes ?? 1;
  return definitionOf(c).clients(c) + ENGINE_CONNECTIONS + (parts > 1 ? parts : 0);
}

/** How a run of this config is paced, as its workload declares it (workloads/types.ts Pacing). */
export function pacingOf(c: WorkloadConfig): Pacing {
  return definitionOf(c).pacing(c);
}

/** Bytes of one counted item's payload as the workload declares it (a message's), or null when its items carry
 *  none (rows, requests, workflows) or its workload is no longer registered: then no MiB/s. */
export function payloadBytesOf(c: WorkloadConfig): number | null {
  return workloadDefinition(c.kind)?.payloadBytes?.(c) ?? null;
}

/** The readers' back-off after an empty poll as the workload declares it; undefined for a workload that does not poll. */
export function backoffOf(c: WorkloadConfig): BackoffMode | undefined {
  return workloadDefinition(c.kind)?.backoff?.(c);
}

/** The engine's write throttle in items per second: 0 when the run is not paced by it (or its workload is no
 *  longer registered: a stored run's page still renders). */
export function throttlePerSecond(c: WorkloadConfig): number {
  const p = workloadDefinition(c.kind)?.pacing(c);
  return p?.kind === "throttle" ? (p.targetPerSecond ?? 0) : 0;
}

/** The write throttle as compare states it: its rate, 0 for unthrottled, null for a workload that has none
 *  (or one no longer registered). */
export function throttleFact(c: WorkloadConfig): number | null {
  const p = workloadDefinition(c.kind)?.pacing(c);
  if (p?.kind === "throttle") return p.targetPerSecond ?? 0;
  return p?.throttleable ? 0 : null;
}

export { MAX_DRAIN_SECONDS, type RunTime, runTimeOf } from "../run-time";

/** Runs that may load the target longer than this are confirmed before launch (the form asks). */
export const LONG_RUN_SECONDS = 5 * 60;
/** The measured window offered instead of a preset's long one: the same shape, a quick first look. */
export const SHORT_WINDOW_SECONDS = 60;

/** Field errors as { "writers": "Writers must …" } for forms and 400 responses: every bad field at once. */
export function fieldErrors(err: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of err.issues) {
    // An unknown field's message goes under its own name, so a client sees which key was refused.
    if (i.code === "unrecognized_keys") for (const k of i.keys) out[[...i.path, k].join(".")] ??= `"${k}" ${i.message}`;
    else out[i.path.join(".") || "_"] ??= i.message;
  }
  return out;
}

export function parseConfig(input: unknown): { ok: true; config: WorkloadConfig } | { ok: false; errors: Record<string, string> } {
  const r = WorkloadConfig.safeParse(input);
  if (!r.success) return { ok: false, errors: fieldErrors(r.error) };
  // The run's phases against the rest of its config and its workload (lib/phases/fit.ts), under the phases field.
  const phases = phasesProblem(r.data, definitionOf(r.data));
  return phases ? { ok: false, errors: { phases } } : { ok: true, config: r.data };
}

export type Preset = PresetDef<WorkloadInput>;

/** Every workload's presets: the reference tool's defaults and each published scenario's exact client config. */
export const PRESETS: Preset[] = workloadDefinitions().flatMap((d) => d.presets as Preset[]);

export function presetById(id: string): Preset | undefined {
  for (const d of workloadDefinitions()) {
    const p = d.presets.find((x) => x.id === id);
    if (p) return p as Preset;
  }
  return undefined;
}

export { definitionOf, workloadDefinition, workloadDefinitions };

/**
 * The workloads the reference tool (pg_msg_bench) has: the definitions that name its `-mode` (referenceMode),
 * told apart by what they declare rather than by name: the fan-out one reads per consumer group (a `perGroup`
 * operation), the other is its queue. The importer and the references read the tool's two modes from here.
 */
export function toolWorkloads(): { fanout: WorkloadDefinition; queue: WorkloadDefinition } {
  const tool = workloadDefinitions().filter((d) => d.referenceMode);
  const fanout = tool.find((d) => d.metrics.operations.some((o) => o.perGroup));
  const queue = tool.find((d) => d !== fanout);
  if (!fanout || !queue) throw new Error("the registry lacks the reference tool's two workloads (definitions with a referenceMode)");
  return { fanout, queue };
}

/** A kind of a workload the reference tool has (its stored scenarios and imported outputs are of these). */
export const ToolWorkload = z.custom<WorkloadKind>((v) => typeof v === "string" && !!workloadDefinition(v)?.referenceMode, {
  error: () => `must be a workload the reference tool has (${orList(toolKinds())})`,
});
const toolKinds = () => workloadDefinitions().flatMap((d) => (d.referenceMode ? [`"${d.kind}"`] : []));
