// A run carried by several runner processes ("parts"): the run's summary from its parts' summaries, exactly.
// Counts and totals are added, histograms added per operation and latency kind (then read: never averaged
// percentiles), verification covers every part, and the manifest lists each part. Browser-safe. The rules are in
// docs/measurement.md "Merging a run's parts".
import { z } from "zod";
import type { WorkloadConfig } from "../workloads/config";
import { countedItems, metricModel } from "./operations";
import { LATENCY_KINDS, type Operations } from "./metrics";
import { worstPart, type SummaryPart } from "./part-figures";
import { checkPartsOfOneRun, mergePartOperations, operationsOf, type PartOperation, parseParts } from "./parts";
import { type Histograms, type Manifest, RunSummary } from "./summary";
import type { Verification, VerificationFact } from "./verification";

/** One part's summary, with where and when it ran. */
export const PartSummary = z.object({
  runId: z.string().min(1),
  part: z.number().int().nonnegative(),
  parts: z.number().int().positive(),
  host: z.string().min(1),
  pid: z.number().int().positive(),
  startSkewMs: z.number(),
  clockOffsetMs: z.number(),
  /** A part on another host: how far its clock moved against the coordinator's over the run (ms). */
  clockDriftMs: z.number().optional(),
  summary: RunSummary,
});
export type PartSummary = z.infer<typeof PartSummary>;

/** How the parts' whole-run measures make the run's: items still unread add up; the drain lasted as long as the
 *  longest part's. A measure not named here is refused (its rule must be declared before it can be merged). */
export const TOTAL_MEASURE_RULES: Record<string, "sum" | "max"> = { unreadAtEnd: "sum", drainSeconds: "max" };

/** A summary's operations with their encoded histograms, as the merge adds them; a latency without its histogram
 *  cannot be merged exactly and is refused. */
function withHistograms(p: number, ops: Operations, h: Histograms | undefined, where: string): Record<string, PartOperation> {
  const out: Record<string, PartOperation> = {};
  for (const [name, o] of Object.entries(ops)) {
    const histograms: PartOperation["histograms"] = {};
    for (const kind of LATENCY_KINDS) {
      if (!o.latency[kind]) continue;
      const enc = h?.[name]?.[kind];
      if (!enc) throw new Error(`part ${p}'s ${where}${name} has ${kind} percentiles but no histogram: it cannot be merged exactly (store its histograms)`);
      histograms[kind] = enc;
    }
    const { perSecond: _r, latency: _l, ...counts } = o;
    out[name] = { ...counts, histograms };
  }
  return out;
}

const histogramsOf = (ops: Record<string, PartOperation>): Histograms =>
  Object.fromEntries(Object.entries(ops).flatMap(([n, o]) => (Object.keys(o.histograms).length ? [[n, o.histograms]] : [])));

/**
 * The run's measured window: from the first part's measuring start to the last part's measuring end, on the start
 * barrier's clock (a part's measuring starts its start skew plus its warm-up after the barrier). Its rates are over
 * this length, so a part that started late never makes the run look faster than it was.
 */
export function runWindow(parts: readonly PartSummary[]): { measuredSeconds: number; warmupSeconds: number } {
  const lead = (p: PartSummary) => p.startSkewMs / 1000 + p.summary.window.warmupSeconds;
  const start = Math.min(...parts.map(lead));
  const end = Math.max(...parts.map((p) => lead(p) + p.summary.window.measuredSeconds));
  return { measuredSeconds: end - start, warmupSeconds: Math.max(...parts.map((p) => p.summary.window.warmupSeconds)) };
}

/** Groups merged by name (first-seen order), with their histograms. */
function mergeGroups(parts: readonly PartSummary[], sec: number): RunSummary["groups"] {
  if (!parts.some((p) => p.summary.groups)) return undefined;
  const names = [...new Set(parts.flatMap((p) => (p.summary.groups ?? []).map((g) => g.group)))];
  return names.map((group) => {
    // A summary of one group leaves its histograms out: they are the run's (runner/core/stats.ts windowFigures).
    const mine = parts.flatMap((p) =>
      (p.summary.groups ?? [])
        .filter((g) => g.group === group)
        .map((g) => ({ p: p.part, g, h: g.histograms ?? (p.summary.groups?.length === 1 ? p.summary.histograms : undefined) })),
    );
    const ops = mergePartOperations(mine.map(({ p, g, h }) => ({ part: p, operations: withHistograms(p, g.operations, h, `group ${group}'s `) })));
    const measures: Record<string, number> = {};
    for (const { g } of mine) for (const [k, v] of Object.entries(g.measures ?? {})) measures[k] = (measures[k] ?? 0) + v;
    const histograms = names.length > 1 ? { histograms: histogramsOf(ops) } : {};
    return { group, operations: operationsOf(ops, sec), ...(Object.keys(measures).length ? { measures } : {}), ...histograms };
  });
}

/** Whole-run totals: counts added, measures by TOTAL_MEASURE_RULES. */
function mergeTotals(parts: readonly PartSummary[]): RunSummary["totals"] {
  if (!parts.some((p) => p.summary.totals)) return undefined;
  const operations: Record<string, number> = {};
  const measures: Record<string, number> = {};
  for (const p of parts) {
    for (const [k, v] of Object.entries(p.summary.totals?.operations ?? {})) operations[k] = (operations[k] ?? 0) + v;
    for (const [k, v] of Object.entries(p.summary.totals?.measures ?? {})) {
      const rule = TOTAL_MEASURE_RULES[k];
      if (!rule) throw new Error(`part ${p.part}'s total "${k}" has no declared rule to merge it by: add it to TOTAL_MEASURE_RULES (sum or max)`);
      measures[k] = rule === "sum" ? (measures[k] ?? 0) + v : Math.max(measures[k] ?? -Infinity, v);
    }
  }
  return { operations, measures };
}

/** Every part's verification: ok only if each part's is, items checked added, facts by name (counts added, yes/no
 *  facts yes only if yes in every part), each problem prefixed with its part. */
export function mergeVerifications(list: readonly { part: number; v: Verification }[]): Verification {
  const unit = list[0].v.unit;
  const facts = new Map<string, VerificationFact>();
  for (const { part, v } of list) {
    if (v.unit !== unit) throw new Error(`part ${part} verified ${v.unit}s, part ${list[0].part} ${unit}s: parts of one run check the same unit`);
    for (const f of v.facts) {
      const seen = facts.get(f.name);
      if (!seen) facts.set(f.name, { ...f });
      else if (typeof seen.value !== typeof f.value)
        throw new Error(`part ${part}'s fact "${f.name}" is a ${typeof f.value}, another part's a ${typeof seen.value}: they cannot be merged`);
      else
        facts.set(f.name, {
          name: f.name,
          value: typeof f.value === "number" ? (seen.value as number) + f.value : (seen.value as boolean) && f.value,
          ok: seen.ok && f.ok,
        });
    }
  }
  return {
    ok: list.every(({ v }) => v.ok),
    checked: list.reduce((n, { v }) => n + v.checked, 0),
    unit,
    problems: list.flatMap(({ part, v }) => v.problems.map((p) => `part ${part}: ${p}`)),
    facts: [...facts.values()],
  };
}

/** The run's manifest: part 0's (server, product), every host named, the run's span, the CPU of all parts. */
function mergeManifest(parts: readonly PartSummary[], operations: Operations, kind: string, processes: ReturnType<typeof partsOf>): Manifest {
  const m = parts[0].summary.manifest;
  const cores = new Map<string, number>();
  for (const p of parts) if (!cores.has(p.host)) cores.set(p.host, p.summary.manifest.runnerCores);
  const iso = (pick: (x: Manifest) => string, f: (...n: number[]) => number) =>
    new Date(f(...parts.map((p) => Date.parse(pick(p.summary.manifest))))).toISOString();
  const cpuSeconds = parts.reduce((n, p) => n + p.summary.manifest.runnerCpuSeconds, 0);
  const counted = countedItems(metricModel(kind));
  const items = counted?.operations.reduce((n, name) => n + (operations[name]?.count ?? 0), 0) ?? 0;
  const { runnerCpuMsPer1000: _, ...rest } = m;
  return {
    ...rest,
    runnerHost: [...cores.keys()].join(", "),
    runnerCores: [...cores.values()].reduce((a, b) => a + b, 0),
    targetOnRunnerMachine: parts.some((p) => p.summary.manifest.targetOnRunnerMachine),
    startedAt: iso((x) => x.startedAt, Math.min),
    endedAt: iso((x) => x.endedAt, Math.max),
    runnerCpuSeconds: Math.round(cpuSeconds * 1000) / 1000,
    ...(counted && items > 0 ? { runnerCpuMsPer1000: { ms: Math.round(((cpuSeconds * 1e6) / items) * 1000) / 1000, ...counted } } : {}),
    parts: processes.parts,
    worstPart: processes.worst,
  };
}

/** Each part's line of the manifest, and the worst-loaded part (client-bound first, then its CPU wait, delay, CPU). */
function partsOf(parts: readonly PartSummary[]): { parts: SummaryPart[]; worst: number | null } {
  const list = parts.map((p) => ({
    part: p.part,
    host: p.host,
    pid: p.pid,
    startSkewMs: p.startSkewMs,
    clockOffsetMs: p.clockOffsetMs,
    ...(p.clockDriftMs !== undefined ? { clockDriftMs: p.clockDriftMs } : {}),
    startedAt: p.summary.manifest.startedAt,
    endedAt: p.summary.manifest.endedAt,
    measuredSeconds: p.summary.window.measuredSeconds,
    perSecond: Object.fromEntries(Object.entries(p.summary.operations).map(([n, o]) => [n, o.perSecond])),
    runnerCpuSeconds: p.summary.manifest.runnerCpuSeconds,
    ...(p.summary.runnerLoad ? { runnerLoad: p.summary.runnerLoad } : {}),
  }));
  const ranks = parts.flatMap(({ part, summary: { runnerLoad: l } }) =>
    l ? [{ part, bound: l.clientBound, runQueueWaitMsPerSec: l.runQueueWaitMsPerSec, delayMs: l.exposedDelayMs, cpuCores: l.cpuCores }] : [],
  );
  return { parts: list, worst: worstPart(ranks) };
}

/** Notes every part made stay as they are; a note of some parts only is prefixed with its part. */
function mergeNotes(parts: readonly PartSummary[]): string[] {
  const all = parts.map((p) => new Set(p.summary.notes ?? []));
  const everywhere = [...all[0]].filter((n) => all.every((s) => s.has(n)));
  const some = parts.flatMap((p) => (p.summary.notes ?? []).filter((n) => !everywhere.includes(n)).map((n) => `part ${p.part}: ${n}`));
  return [...everywhere, ...some];
}

/** The run's config: the one every part ran, or `config` when parts ran shares of it. */
function configOf(parts: readonly PartSummary[], config: WorkloadConfig | undefined): WorkloadConfig {
  if (config) return config;
  const first = JSON.stringify(parts[0].summary.config);
  const other = parts.find((p) => JSON.stringify(p.summary.config) !== first);
  if (other) throw new Error(`part ${other.part} ran another config than part ${parts[0].part}: give the run's config to merge parts that ran shares of it`);
  return parts[0].summary.config;
}

/**
 * The run's summary from every part's summary (see runWindow for the window). Throws, naming the part, on parts
 * of different runs or workloads, a missing or duplicated part, a latency without its histogram, or a bad shape.
 */
export function mergeSummaries(raw: readonly unknown[], opts: { config?: WorkloadConfig } = {}): RunSummary {
  const parts = parseParts(PartSummary, raw, "summary").sort((a, b) => a.part - b.part);
  checkPartsOfOneRun(parts);
  const kind = parts[0].summary.workload;
  const odd = parts.find((p) => p.summary.workload !== kind);
  if (odd) throw new Error(`part ${odd.part} ran ${odd.summary.workload}, part ${parts[0].part} ${kind}: parts of one run run one workload`);
  const window = runWindow(parts);
  const ops = mergePartOperations(parts.map((p) => ({ part: p.part, operations: withHistograms(p.part, p.summary.operations, p.summary.histograms, "") })));
  const operations = operationsOf(ops, window.measuredSeconds);
  const groups = mergeGroups(parts, window.measuredSeconds);
  const totals = mergeTotals(parts);
  const processes = partsOf(parts);
  const runnerLoad = parts.find((p) => p.part === processes.worst)?.summary.runnerLoad;
  const telemetry = parts.find((p) => p.summary.telemetry)?.summary.telemetry;
  const notes = mergeNotes(parts);
  const summary: RunSummary = {
    schemaVersion: 2,
    workload: kind,
    config: configOf(parts, opts.config),
    manifest: mergeManifest(parts, operations, kind, processes),
    window,
    operations,
    ...(groups ? { groups } : {}),
    verification: mergeVerifications(parts.map((p) => ({ part: p.part, v: p.summary.verification }))),
    ...(totals ? { totals } : {}),
    ...(runnerLoad ? { runnerLoad } : {}),
    ...(telemetry ? { telemetry } : {}),
    ...(notes.length ? { notes } : {}),
    histograms: histogramsOf(ops),
  };
  const parsed = RunSummary.safeParse(summary);
  if (!parsed.success) throw new Error(`internal error: the merged summary does not match its schema: ${parsed.error.issues[0]?.message}`);
  return summary;
}
