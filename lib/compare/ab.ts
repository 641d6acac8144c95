// "Run baseline and modded" as one action (the form's button, POST /api/runs/ab, `bench -- <kind> --variant both`):
// the two variants of a workload with a `variant` field run back to back on the same target with the same load,
// each an ordinary run; then their deltas as Yong's article presented them (p50, p95, average and requests/s of
// all requests), with the published pair beside them when the config is the published one's. Browser-safe.
import type { PublishedResult } from "../../workloads/types";
import { TOTAL_OP, VARIANTS, type Variant } from "../../workloads/yong/fields";
import { latencyOf, throughputOf } from "../measurement/operations";
import type { RunSummary } from "../measurement/summary";
import { fmtChange, fmtLatency } from "../runs/format";
import { workloadDefinition, WorkloadConfig } from "../workloads/config";

/** Whether a workload has baseline and modded variants. */
export const hasVariants = (kind: string): boolean => !!workloadDefinition(kind)?.fields.some((f) => f.name === "variant");

/** The config of each variant: the same load, only `variant` differs. */
export function variantInputs<T extends Record<string, unknown>>(input: T): Record<Variant, T & { variant: Variant }> {
  return { baseline: { ...input, variant: "baseline" }, modded: { ...input, variant: "modded" } };
}

/** Fields that do not change what a published result measured: its window and our CLI's live line. */
const NOT_THE_SHAPE = new Set(["variant", "durationSeconds", "warmupSeconds", "reportIntervalSeconds"]);

/**
 * The published baseline and modded results whose config has this one's shape (every field equal but the
 * variant and the window), or null. The published configs are parsed with the workload's schema, so fields
 * they leave to our defaults compare as those defaults.
 */
export function publishedPairFor(config: Record<string, unknown> & { kind: string }): Record<Variant, PublishedResult> | null {
  const def = workloadDefinition(config.kind);
  const same = (p: PublishedResult) => {
    const parsed = WorkloadConfig.safeParse(p.config);
    if (!parsed.success) return false;
    const pc = parsed.data as Record<string, unknown>;
    // A closed loop's target rate is never used (and an open loop's virtual users neither): not part of the shape.
    const unused = new Set(config.load === "vus" ? ["rate"] : config.load === "rate" ? ["vus", "thinkMs"] : []);
    return Object.keys({ ...pc, ...config }).every((k) => NOT_THE_SHAPE.has(k) || unused.has(k) || pc[k] === config[k]);
  };
  const matches = (def?.published ?? []).filter(same);
  const byVariant = (v: Variant) => matches.find((p) => p.config.variant === v);
  const baseline = byVariant("baseline");
  const modded = byVariant("modded");
  return baseline && modded ? { baseline, modded } : null;
}

export type AbMeasure = "p50" | "p95" | "avg" | "rate";
export const AB_MEASURES: { key: AbMeasure; label: string; unit: string }[] = [
  { key: "p50", label: "p50", unit: "ms" },
  { key: "p95", label: "p95", unit: "ms" },
  { key: "avg", label: "average", unit: "ms" },
  { key: "rate", label: "requests/s", unit: "req/s" },
];

export interface AbSide {
  baseline: number | null;
  modded: number | null;
  /** (modded − baseline) / baseline, in percent; null when either is unknown. */
  deltaPct: number | null;
}
export interface AbRow {
  key: AbMeasure;
  label: string;
  unit: string;
  ours: AbSide;
  published: AbSide | null;
}

const side = (b: number | null, m: number | null): AbSide => ({
  baseline: b,
  modded: m,
  deltaPct: b !== null && m !== null && b !== 0 ? ((m - b) / b) * 100 : null,
});

/** A measured run's figure of all requests (TOTAL_OP): its measured window's percentiles, mean and rate. */
function measured(s: RunSummary, key: AbMeasure): number | null {
  if (key === "rate") return throughputOf(s, TOTAL_OP)?.perSecond ?? null;
  const l = latencyOf(s, TOTAL_OP);
  if (!l) return null;
  return key === "avg" ? l.mean : l[key];
}

function published(p: PublishedResult, key: AbMeasure): number | null {
  if (key === "rate") return p.rates?.[TOTAL_OP] ?? null;
  return p.latencyMs?.[TOTAL_OP]?.[key] ?? null;
}

/** The article's four rows: ours, and the published pair's when there is one. */
export function abRows(b: RunSummary, m: RunSummary, pub: Record<Variant, PublishedResult> | null): AbRow[] {
  return AB_MEASURES.map(({ key, label, unit }) => ({
    key,
    label,
    unit,
    ours: side(measured(b, key), measured(m, key)),
    published: pub ? side(published(pub.baseline, key), published(pub.modded, key)) : null,
  }));
}

/** Modded against baseline: "+5.2 %", "−13.2 %", beyond ±50 % a factor ("×134 the requests/s", "÷18.5"); "—" unknown. */
export function fmtDelta(pct: number | null, of?: string): string {
  return pct === null ? "—" : fmtChange(pct, of);
}

/** A figure as the A/B table shows it, thousands separated: a latency with its unit to about 3 significant
 *  figures ("1.87 ms", "27.5 ms", "192 ms", from a second on "19.2 s"), a rate whole ("1,760"). */
export function fmtFigure(v: number | null, unit: string): string {
  if (v === null) return "—";
  if (unit !== "ms") return Math.round(v).toLocaleString("en-US");
  if (v >= 1000) return fmtLatency(v);
  const digits = v >= 100 ? 0 : v >= 10 ? 1 : 2;
  return `${v.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })} ms`;
}

/** The ids /compare takes for the pair: the baseline run first (the compare baseline), then the published pair. */
export function abCompareIds(baselineRunId: string, moddedRunId: string, pub: Record<Variant, PublishedResult> | null): string[] {
  return [baselineRunId, moddedRunId, ...(pub ? VARIANTS.map((v) => pub[v].id) : [])];
}

/** The /compare link of a pair, with the baseline run as compare's baseline. */
export function abCompareHref(baselineRunId: string, moddedRunId: string, pub: Record<Variant, PublishedResult> | null): string {
  return `/compare?ids=${abCompareIds(baselineRunId, moddedRunId, pub).join(",")}&base=${baselineRunId}`;
}

/** The A/B table as text (the CLI): measure, baseline, modded, delta, and the published pair's. */
export function abText(rows: AbRow[], pub: Record<Variant, PublishedResult> | null): string {
  const head = ["all requests", "baseline", "modded", "delta", ...(pub ? ["published baseline", "published modded", "published delta"] : [])];
  const body = rows.map((r) => [
    r.label,
    fmtFigure(r.ours.baseline, r.unit),
    fmtFigure(r.ours.modded, r.unit),
    fmtDelta(r.ours.deltaPct, r.label),
    ...(r.published ? [fmtFigure(r.published.baseline, r.unit), fmtFigure(r.published.modded, r.unit), fmtDelta(r.published.deltaPct, r.label)] : []),
  ]);
  const all = [head, ...body];
  const w = head.map((_, c) => Math.max(...all.map((row) => (row[c] ?? "").length)));
  return all.map((row) => row.map((cell, c) => (c ? cell.padStart(w[c]) : cell.padEnd(w[c]))).join("  ")).join("\n");
}
