// A bundle: finished runs carried from one instance of the product to another as one JSON file (issue 33), a run's
// or a comparison's. Versioned: `format` names what the file is, `formatVersion` its shape, `product` who wrote it.
// Each run holds its stored row (config, outcome, summary with its histograms), every sample and its parts' records,
// so the importing instance shows it as the exporting one did. Browser-safe (the import page may check a file).
import { z } from "zod";
import { FINAL_STATUSES, Phase } from "../measurement/metrics";
import { Sample } from "../measurement/sample";
import { RunSummary } from "../measurement/summary";
import { ImportedSummary } from "../imports/summary";
import { LabelsInput } from "../runs/labels";
import { WorkloadConfig, workloadDefinitions } from "../workloads/config";

export const BUNDLE_FORMAT = "pg-broker-bench/bundle";
/** The shape this version writes and reads; a newer one is refused, naming both. */
export const BUNDLE_VERSION = 1;
/** The most runs one bundle may carry (a comparison's; the compare page takes far fewer). */
export const MAX_BUNDLE_RUNS = 50;

const isoDate = z.iso.datetime({ offset: true, error: "must be a date-time like 2026-11-29T03:25:51.000Z" });

/** A run part's record: where it ran and how its clock stood (lib/measurement/part-figures.ts keeps its figures in the summary). */
export const BundlePart = z.object({
  part: z.number().int().min(0),
  parts: z.number().int().min(1),
  status: z.enum(["open", "claimed", "ready", "running", "done", "failed"]),
  host: z.string().nullable(),
  pid: z.number().int().nullable(),
  startSkewMs: z.number().nullable(),
  targetOffsetMs: z.number().nullable(),
  targetUncertaintyMs: z.number().nullable(),
  targetOffsetEndMs: z.number().nullable(),
  clockOffsetMs: z.number().nullable(),
  clockUncertaintyMs: z.number().nullable(),
  error: z.string().nullable(),
});
export type BundlePart = z.infer<typeof BundlePart>;

export const BundleRun = z.object({
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/, "must be a run id like r_0123456789ab"),
  workload: z.string().refine((k) => workloadDefinitions().some((d) => d.kind === k), {
    error: (i) =>
      `workload "${String(i.input)}" is not one this instance runs (${workloadDefinitions()
        .map((d) => d.kind)
        .join(", ")})`,
  }),
  config: WorkloadConfig,
  targetLabel: z.string().max(500),
  // Only finished runs travel: a queued or running one has no outcome to show.
  status: z.enum(FINAL_STATUSES as unknown as [string, ...string[]], { error: `must be a finished run's status (${FINAL_STATUSES.join(", ")})` }),
  phase: Phase.nullable(),
  /** Where it was made at the exporting instance (app, cli, or itself imported). */
  source: z.enum(["app", "cli", "import"]),
  createdAt: isoDate,
  startedAt: isoDate.nullable(),
  finishedAt: isoDate.nullable(),
  error: z.string().nullable(),
  /** What a person called the run (lib/runs/labels.ts), checked as the app checks them; absent in older bundles. */
  name: LabelsInput.shape.name.optional(),
  notes: LabelsInput.shape.notes.optional(),
  tags: LabelsInput.shape.tags.optional(),
  summary: RunSummary.nullable(),
  samples: z.array(Sample).max(1_000_000),
  parts: z.array(BundlePart),
});
export type BundleRun = z.infer<typeof BundleRun>;

/** An imported output of the reference tool a comparison compared (lib/imports/): its text as kept and its parse. */
export const BundleImport = z.object({
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/, "must be an import id like imp_0123456789ab"),
  label: z.string().max(120),
  workload: z.string(),
  rawText: z
    .string()
    .max(5 * 1024 * 1024)
    .refine((v) => !v.includes("\u0000"), "contains a NUL character, which the store cannot hold"),
  parsed: ImportedSummary,
  createdAt: isoDate,
});
export type BundleImport = z.infer<typeof BundleImport>;

export const Bundle = z
  .object({
    format: z.literal(BUNDLE_FORMAT),
    formatVersion: z.literal(BUNDLE_VERSION),
    product: z.object({ name: z.literal("pg-broker-bench"), version: z.string() }),
    exportedAt: isoDate,
    kind: z.enum(["run", "comparison"]),
    runs: z.array(BundleRun).max(MAX_BUNDLE_RUNS, `holds more than ${MAX_BUNDLE_RUNS} runs`),
    /** A comparison's imported outputs of the reference tool (absent in a run's bundle). */
    imports: z.array(BundleImport).max(MAX_BUNDLE_RUNS, `holds more than ${MAX_BUNDLE_RUNS} imports`).optional(),
    /** A comparison's: every item it compared by key (runs, imports and references) and its baseline. */
    comparison: z.object({ ids: z.array(z.string()), base: z.string().nullable() }).optional(),
  })
  .refine((b) => b.runs.length + (b.imports?.length ?? 0) > 0, { path: ["runs"], message: "holds no run (and no import)" });
export type Bundle = z.infer<typeof Bundle>;

/** The bundle in `raw`, or what is wrong with it in words: a foreign file, a newer format, the first bad field by its path. */
export function parseBundle(raw: unknown): { ok: true; bundle: Bundle } | { ok: false; error: string } {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return { ok: false, error: "the file is not a bundle: a bundle is a JSON object" };
  const o = raw as Record<string, unknown>;
  if (o.format !== BUNDLE_FORMAT)
    return {
      ok: false,
      error: `the file is not a pg-broker-bench bundle: its "format" is ${o.format === undefined ? "missing" : JSON.stringify(o.format)}, a bundle's is "${BUNDLE_FORMAT}" (export one from a run's or a comparison's page)`,
    };
  if (o.formatVersion !== BUNDLE_VERSION)
    return {
      ok: false,
      error: `the bundle is of format version ${JSON.stringify(o.formatVersion)}${typeof o.formatVersion === "number" && o.formatVersion > BUNDLE_VERSION ? ", written by a newer version" : ""}; this instance reads version ${BUNDLE_VERSION}`,
    };
  const r = Bundle.safeParse(raw);
  if (r.success) return { ok: true, bundle: r.data };
  const issue = r.error.issues[0];
  const at = issue.path.length ? issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("") : "";
  const runId = issue.path[0] === "runs" && typeof issue.path[1] === "number" ? (o.runs as { id?: unknown }[])[issue.path[1]]?.id : undefined;
  return { ok: false, error: `the bundle is malformed: ${at.replace(/^\./, "")}${runId ? ` (run ${JSON.stringify(runId)})` : ""} ${issue.message}` };
}
