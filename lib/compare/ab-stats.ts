// An A/B of N pairs with its noise: each measure of all requests (p50, p95, average, requests/s) per variant,
// pooled over the variant's runs (percentiles from their merged HDR histograms, never averaged) with the spread
// across runs, and a 95 % t-interval of the modded − baseline difference whose unit is the PAIR (per-second
// samples are correlated and would make any difference look significant). An interval that includes zero is
// "within noise". Beside the deltas: unequal work (a closed loop's request counts) and flagged runs.
// Browser-safe.
import type { PublishedResult } from "../../workloads/types";
import { TOTAL_OP, type Variant } from "../../workloads/yong/fields";
import { latencyOf, throughputOf } from "../measurement/operations";
import { pooledLatency, pooledRate } from "../measurement/pooled";
import type { RunSummary } from "../measurement/summary";
import { fmtChange, fmtLatency } from "../runs/format";
import { runnerLoadOf } from "../measurement/headline";
import { AB_MEASURES, type AbMeasure, type AbSide, fmtFigure, publishedPairFor } from "./ab";
import { MAX_PAIRS, orderText } from "./ab-order";

/** Two-sided 95 % critical values of Student's t, by degrees of freedom (1 … 20). */
const T95 = [
  Number.NaN,
  12.706,
  4.303,
  3.182,
  2.776,
  2.571,
  2.447,
  2.365,
  2.306,
  2.262,
  2.228,
  2.201,
  2.179,
  2.16,
  2.145,
  2.131,
  2.12,
  2.11,
  2.101,
  2.093,
  2.086,
];
/** Beyond the table (only the advice's estimates go there): the normal value with its first correction,
 *  z + (z³ + z) ÷ 4df, within 0.1 % of t at 20 degrees of freedom and closer beyond (t(30) = 2.042 reads 2.039). */
const t95 = (df: number) => T95[df] ?? 1.96 + (1.96 ** 3 + 1.96) / (4 * df);

export interface Interval {
  n: number;
  mean: number;
  /** Sample standard deviation (n − 1). */
  sd: number;
  low: number;
  high: number;
}

/** The 95 % t-interval of the mean of `xs` (e.g. pair differences), or null below two values. */
export function tInterval(xs: number[]): Interval | null {
  const n = xs.length;
  if (n < 2) return null;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1));
  const half = (t95(n - 1) * sd) / Math.sqrt(n);
  return { n, mean, sd, low: mean - half, high: mean + half };
}

/** A distribution-free interval of a median: two of the sorted values, with the confidence they bracket it. */
export interface MedianInterval {
  n: number;
  median: number;
  low: number;
  high: number;
  /** The probability that [low, high] holds the true median, from the binomial: 0.95 or just above, or for fewer than
   *  6 values the most there is ([min, max]: 0.9375 for 5, 0.875 for 4, 0.75 for 3, 0.5 for 2). */
  confidence: number;
}

/** P(X ≤ k) for X ~ Binomial(n, ½). */
function binomialHalfCdf(n: number, k: number): number {
  let term = 0.5 ** n; // C(n, 0) / 2^n
  let sum = 0;
  for (let i = 0; i <= k; i++) {
    sum += term;
    term = (term * (n - i)) / (i + 1);
  }
  return sum;
}

/**
 * The interval of the median of `xs` from its order statistics (no assumption on the spread's shape, which a run's
 * figures across repeats rarely follow: a stall in one run is no normal tail): [x(k), x(n−k+1)] for the largest k
 * whose confidence, 1 − 2·P(Bin(n, ½) ≤ k − 1), is at least 95 %; with fewer than 6 values, [min, max] and the
 * confidence it has. Null below two values.
 */
export function medianInterval(xs: number[]): MedianInterval | null {
  const n = xs.length;
  if (n < 2) return null;
  const sorted = [...xs].sort((a, b) => a - b);
  const median = n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  let k = 1;
  while (k + 1 <= n / 2 && 1 - 2 * binomialHalfCdf(n, k) >= 0.95) k++;
  return { n, median, low: sorted[k - 1], high: sorted[n - k], confidence: 1 - 2 * binomialHalfCdf(n, k - 1) };
}

/** One completed pair: its number and each variant's run. */
export interface AbPairRuns {
  pair: number;
  /** The variant that ran first in this pair. */
  first: Variant;
  runs: Record<Variant, { id: string; summary: RunSummary }>;
}

export interface AbVariantStat {
  /** Pooled over the variant's runs: percentiles and mean from the merged histograms, rate = requests ÷ seconds. */
  pooled: number | null;
  /** Each run's own figure, by pair. */
  perRun: number[];
  min: number | null;
  max: number | null;
}

export interface AbStatRow {
  key: AbMeasure;
  label: string;
  unit: string;
  baseline: AbVariantStat;
  modded: AbVariantStat;
  /** Pooled modded against pooled baseline, %. */
  deltaPct: number | null;
  /** Modded − baseline in each pair, in the measure's unit. */
  pairDiffs: number[];
  /** 95 % t-interval of the mean pair difference (unit), and the same as % of the baseline runs' mean. */
  ci: Interval | null;
  ciPct: { low: number; high: number } | null;
  /** "within noise" when the interval includes zero, "modded lower" / "modded higher" when it excludes it;
   *  null without an interval (fewer than 2 pairs). */
  finding: "within noise" | "modded lower" | "modded higher" | null;
  /** The published pair's figures (one run each). */
  published: AbSide | null;
}

export interface AbStats {
  pairs: number;
  order: string;
  rows: AbStatRow[];
  /** What stands beside the deltas: unequal work, flagged runs, pairs left out, the published pair's caveat. */
  notes: string[];
  /** Per measure whose interval is too wide to resolve its difference: what would resolve it (resolveNeeds). */
  advice: string[];
  /** What the advice's numbers are, said once below it: estimates from the measured spread. Null without advice. */
  adviceBasis: string | null;
  published: Record<Variant, PublishedResult> | null;
}

const requests = (s: RunSummary) => throughputOf(s, TOTAL_OP)?.count ?? null;

/** A run's own figure of all requests. */
export function runFigure(s: RunSummary, key: AbMeasure): number | null {
  if (key === "rate") return throughputOf(s, TOTAL_OP)?.perSecond ?? null;
  const l = latencyOf(s, TOTAL_OP);
  if (!l) return null;
  return key === "avg" ? l.mean : l[key];
}

/** A variant's pooled figure over its runs: merged histograms for latencies (percentiles are never averaged). */
function pooledFigure(ss: RunSummary[], key: AbMeasure): number | null {
  if (key === "rate") return pooledRate(ss, TOTAL_OP);
  const p = pooledLatency(ss, TOTAL_OP);
  return p === null ? null : key === "avg" ? p.mean : p[key];
}

function variantStat(ss: RunSummary[], key: AbMeasure): AbVariantStat {
  const perRun = ss.map((s) => runFigure(s, key)).filter((v): v is number => v !== null);
  return {
    pooled: pooledFigure(ss, key),
    perRun,
    min: perRun.length ? Math.min(...perRun) : null,
    max: perRun.length ? Math.max(...perRun) : null,
  };
}

const pct = (b: number | null, m: number | null) => (b !== null && m !== null && b !== 0 ? ((m - b) / b) * 100 : null);
const meanOf = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

function statRow(pairs: AbPairRuns[], key: AbMeasure, label: string, unit: string, pub: Record<Variant, PublishedResult> | null): AbStatRow {
  const of = (v: Variant) => pairs.map((p) => p.runs[v].summary);
  const baseline = variantStat(of("baseline"), key);
  const modded = variantStat(of("modded"), key);
  const pairDiffs = pairs
    .map((p) => {
      const b = runFigure(p.runs.baseline.summary, key);
      const m = runFigure(p.runs.modded.summary, key);
      return b === null || m === null ? null : m - b;
    })
    .filter((d): d is number => d !== null);
  const ci = pairDiffs.length === pairs.length ? tInterval(pairDiffs) : null;
  const base = baseline.perRun.length ? meanOf(baseline.perRun) : 0;
  const ciPct = ci && base ? { low: (ci.low / base) * 100, high: (ci.high / base) * 100 } : null;
  const finding = ci ? (ci.low <= 0 && ci.high >= 0 ? "within noise" : ci.high < 0 ? "modded lower" : "modded higher") : null;
  const published = pub ? publishedSide(pub, key) : null;
  return { key, label, unit, baseline, modded, deltaPct: pct(baseline.pooled, modded.pooled), pairDiffs, ci, ciPct, finding, published };
}

function publishedSide(pub: Record<Variant, PublishedResult>, key: AbMeasure): AbSide {
  const fig = (p: PublishedResult) => (key === "rate" ? (p.rates?.[TOTAL_OP] ?? null) : (p.latencyMs?.[TOTAL_OP]?.[key] ?? null));
  const b = fig(pub.baseline);
  const m = fig(pub.modded);
  return { baseline: b, modded: m, deltaPct: pct(b, m) };
}

/** Closed loop: each variant ran as fast as it could, so their request counts (the work) differ; said with numbers. */
function workNote(pairs: AbPairRuns[]): string | null {
  const config = pairs[0]?.runs.baseline.summary.config as { load?: string } | undefined;
  if (!config || config.load === "rate") return null;
  const total = (v: Variant) => pairs.reduce((a, p) => a + (requests(p.runs[v].summary) ?? 0), 0);
  const b = total("baseline");
  const m = total("modded");
  const d = pct(b, m) ?? 0;
  const counts = `baseline ran ${b.toLocaleString("en-US")} requests and modded ${m.toLocaleString("en-US")} (${fmtChange(d)}) over equal windows`;
  return Math.abs(d) < 1
    ? `Work (closed loop): ${counts}: equal within 1 %.`
    : `Unequal work (closed loop): ${counts}, so each variant's latencies were measured under a different load.`;
}

/** The verdict's client-bound or host-bound flags, and the runner's own load check, run by run. */
function flaggedNote(pairs: AbPairRuns[]): string | null {
  const flags: string[] = [];
  for (const p of pairs)
    for (const v of ["baseline", "modded"] as const) {
      const s = p.runs[v].summary;
      const why: string[] = [];
      // The headline, or a finding under "also" (a rate-bound or stall headline over a starved runner). One client
      // rule judges both the verdict and the runner-load check: a run is named client-bound once.
      const verdict = s.telemetry?.verdict as { category?: string; also?: string[] } | undefined;
      const head = verdict?.category;
      const has = (c: string) => head === c || !!verdict?.also?.includes(c);
      const beside = (c: string) => (head && head !== c ? ` (beside ${head})` : "");
      // The runner's load by its role (runner-load.ts runnerRole): the limit only when it was at its limit and the
      // rate was missed; starved, or busy while the rate was met, its delay is in the latencies, nothing more.
      const load = s.runnerLoad;
      const role = load ? runnerLoadOf(s).role : "none";
      if (role === "limit") why.push("client-bound");
      else if (role === "caution")
        why.push(`runner's delay up to ${fmtLatency(load!.loopDelayMs.max)} in its latencies${load!.rule ? "" : " (as stored, by the earlier rule)"}`);
      else if (has("client-bound")) why.push(`verdict client-bound${beside("client-bound")}`);
      if (has("host-bound")) why.push(`verdict host-bound${beside("host-bound")}`);
      if (why.length) flags.push(`${p.runs[v].id} (${v}, pair ${p.pair}: ${why.join(", ")})`);
    }
  const all = pairs.length * 2;
  return flags.length ? `Flagged runs, ${flags.length} of ${all} (their latencies carry the runner's or the host's delay): ${flags.join("; ")}.` : null;
}

/** The A/B of completed pairs; `leftOut` names pairs that did not complete both runs. */
export function abStats(pairs: AbPairRuns[], leftOut: number[] = []): AbStats {
  const config = pairs[0]?.runs.baseline.summary.config;
  const pub = config ? publishedPairFor(config as never) : null;
  const rows = AB_MEASURES.map(({ key, label, unit }) => statRow(pairs, key, label, unit, pub));
  const notes = [
    pairs.length < 2 ? "One pair: no interval, so a difference cannot be told from noise; run 3 pairs or more." : null,
    workNote(pairs),
    flaggedNote(pairs),
    leftOut.length ? `Left out: pair ${leftOut.join(", ")} (a run did not complete).` : null,
    pub ? "The published pair is one run each, with no spread: its deltas may be noise too." : null,
  ].filter((n): n is string => n !== null);
  const order = orderText(
    pairs.flatMap((p) =>
      (p.first === "baseline" ? ["baseline", "modded"] : ["modded", "baseline"]).map((variant) => ({ pair: p.pair, variant: variant as Variant })),
    ),
  );
  const window = pairs.length ? meanOf(pairs.flatMap((p) => VARIANT_NAMES.map((v) => p.runs[v].summary.window.measuredSeconds))) : 0;
  const advice = rows.flatMap((r) => {
    const a = r.finding === "within noise" && r.ci ? resolveNeeds(r.ci, window) : null;
    return a ? [adviceText(r, a)] : [];
  });
  const adviceBasis = advice.length
    ? `Estimates from the measured spread of the ${pairs.length} pair differences (${Math.round(window)} s windows): an interval narrows as 1 ÷ √pairs, and as 1 ÷ √window while the noise is sampling noise (a drift between runs only more pairs average out); the next pairs' spread will differ.`
    : null;
  return { pairs: pairs.length, order, rows, notes, advice, adviceBasis, published: pub };
}

const VARIANT_NAMES = ["baseline", "modded"] as const;
/** Beyond this many pairs the advice says the difference is too small for this noise, not a number to run. */
export const MAX_ADVISED_PAIRS = 1000;

/**
 * What would resolve a difference whose 95 % interval includes zero, estimated from the measured spread: the
 * smallest number of pairs whose interval, with the same spread of pair differences (sd), would exclude zero at the
 * same mean difference (half-width t95(n − 1) · sd ÷ √n < |mean|), and, keeping the pairs run, the window length
 * that would do it if the spread shrinks as 1 ÷ √window (as sampling noise does: a run of k times the window
 * averages k times the requests; a drift between runs does not shrink so, and only more pairs average it out).
 * An estimate, not a promise: the next pairs' spread and mean will differ. `pairs` is null beyond MAX_ADVISED_PAIRS;
 * the whole result null when the mean difference is zero (no number of pairs resolves it) or there is no spread.
 */
export function resolveNeeds(ci: Interval, windowSeconds: number): { pairs: number | null; windowSeconds: number | null } | null {
  const d = Math.abs(ci.mean);
  if (!(d > 0) || !(ci.sd > 0) || ci.n < 2) return null;
  let pairs: number | null = null;
  for (let n = ci.n + 1; n <= MAX_ADVISED_PAIRS; n++)
    if ((t95(n - 1) * ci.sd) / Math.sqrt(n) < d) {
      pairs = n;
      break;
    }
  const half = (t95(ci.n - 1) * ci.sd) / Math.sqrt(ci.n);
  const window = windowSeconds > 0 ? Math.ceil(windowSeconds * (half / d) ** 2) : null;
  return { pairs, windowSeconds: window };
}

function adviceText(r: AbStatRow, a: { pairs: number | null; windowSeconds: number | null }): string {
  const n = r.ci!.n;
  const diff = r.ciPct ? ` ${fmtChange((r.ciPct.low + r.ciPct.high) / 2)}` : "";
  const options = [
    a.pairs === null ? `more than ${MAX_ADVISED_PAIRS.toLocaleString("en-US")} pairs` : `${a.pairs.toLocaleString("en-US")} pairs`,
    a.windowSeconds === null ? null : `${n} pairs of ${a.windowSeconds.toLocaleString("en-US")} s windows`,
  ].filter(Boolean);
  const beyond = a.pairs !== null && a.pairs > MAX_PAIRS ? `; one A/B runs at most ${MAX_PAIRS} pairs: run several, or lengthen the windows` : "";
  return `${r.label}: the interval (${fmtInterval(r)}) is too wide to resolve the difference${diff}: run ${options.join(" or ")} (sd of the pair differences ${fmtFigure(r.ci!.sd, r.unit)}${r.unit === "ms" ? "" : ` ${r.unit}`}${beyond}).`;
}

/** A difference's interval as the tables show it: "−12.0 % … +3.1 %" (of the baseline runs' mean). */
export function fmtInterval(r: AbStatRow): string {
  if (!r.ciPct) return "—";
  const f = (v: number) => `${v >= 0 ? "+" : "−"}${Math.abs(v).toFixed(1)} %`;
  return `${f(r.ciPct.low)} … ${f(r.ciPct.high)}`;
}

/** A variant's pooled figure and its spread across runs: "1.90 ms (1.80–2.10)". */
export function fmtPooled(s: AbVariantStat, unit: string): string {
  const spread = s.min !== null && s.max !== null && s.perRun.length > 1 ? ` (${fmtFigure(s.min, unit).replace(/ ms$/, "")}–${fmtFigure(s.max, unit)})` : "";
  return `${fmtFigure(s.pooled, unit)}${spread}`;
}

/** The A/B as text (the CLI): pooled figures with their spread, delta, interval, finding; then the notes. */
export function abStatsText(st: AbStats): string {
  const head = ["all requests", "baseline (runs' range)", "modded (runs' range)", "delta", "95% CI of pair diff", "result"];
  const body = st.rows.map((r) => [
    r.label,
    fmtPooled(r.baseline, r.unit),
    fmtPooled(r.modded, r.unit),
    r.deltaPct === null ? "—" : fmtChange(r.deltaPct),
    fmtInterval(r),
    r.finding ?? "no interval",
  ]);
  const all = [head, ...body];
  const w = head.map((_, c) => Math.max(...all.map((row) => row[c].length)));
  const table = all.map((row) => row.map((cell, c) => (c ? cell.padStart(w[c]) : cell.padEnd(w[c]))).join("  ")).join("\n");
  const pub = st.published
    ? st.rows.map(
        (r) =>
          `  published ${r.label}: ${fmtFigure(r.published?.baseline ?? null, r.unit)} → ${fmtFigure(r.published?.modded ?? null, r.unit)} (${r.published?.deltaPct === null || r.published === null ? "—" : fmtChange(r.published.deltaPct)})`,
      )
    : [];
  return [
    `${st.pairs} pair${st.pairs === 1 ? "" : "s"}, order ${st.order}`,
    table,
    ...st.advice.map((a) => `- ${a}`),
    ...(st.adviceBasis ? [`  ${st.adviceBasis}`] : []),
    ...st.notes.map((n) => `- ${n}`),
    ...pub,
  ].join("\n");
}

/** The group's completed pairs (both runs completed with a summary) in pair order, and the pairs left out. */
export function completedPairs(
  slots: { pair: number; variant: Variant; runId: string }[],
  runOf: (id: string) => { status: string; summary?: RunSummary | null } | null | undefined,
): { pairs: AbPairRuns[]; leftOut: number[] } {
  const pairs: AbPairRuns[] = [];
  const leftOut: number[] = [];
  for (const n of [...new Set(slots.map((s) => s.pair))].sort((a, b) => a - b)) {
    const mine = slots.filter((s) => s.pair === n);
    const runs: Partial<AbPairRuns["runs"]> = {};
    for (const s of mine) {
      const r = runOf(s.runId);
      if (r?.status === "completed" && r.summary) runs[s.variant] = { id: s.runId, summary: r.summary };
    }
    if (runs.baseline && runs.modded) pairs.push({ pair: n, first: mine[0].variant, runs: runs as AbPairRuns["runs"] });
    else leftOut.push(n);
  }
  return { pairs, leftOut };
}
