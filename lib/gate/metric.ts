// A figure of a finished run named as a CI gate names it (`e2e.p99`, `e2e.fromSchedule.p99.9`, `write.perSecond`),
// read from the run's summary: a percentile from the operation's merged histogram of the whole measured window, the
// one the summary's and the page's percentiles are read from (lib/measurement/histogram.ts percentilesOf), so any
// percentile (p99.99 too) is what they would show. Browser-safe.
import { decodeHistogram, mergeEncoded } from "../measurement/histogram";
import type { Histogram } from "../measurement/histogram";
import { LATENCY_KINDS, type LatencyKind } from "../measurement/metrics";
import type { RunSummary } from "../measurement/summary";

/** What of an operation a gate reads: a latency statistic (ms) or one of its counts. */
export type Stat = { kind: "percentile"; p: number } | { kind: "max" | "mean" } | { kind: "perSecond" | "count" | "errors" };

export interface MetricName {
  /** As written: `e2e.fromSchedule.p99`. */
  text: string;
  operation: string;
  /** The latency's kind, for a latency statistic: from send unless written (`e2e.fromSchedule.p99`). */
  latency: LatencyKind;
  stat: Stat;
}

const COUNT_STATS = ["perSecond", "count", "errors"] as const;
const STAT_WORDS = "a percentile (p50, p99, p99.9, p99.99), max, mean, perSecond, count or errors";

/** Whether the statistic is a latency (in ms): a percentile, the max or the mean. */
export const isLatency = (s: Stat): boolean => s.kind === "percentile" || s.kind === "max" || s.kind === "mean";

/** Whether a larger value is worse: latencies and errors; a rate or a count is worse smaller. */
export const higherIsWorse = (s: Stat): boolean => isLatency(s) || s.kind === "errors";

/** Parses `OPERATION[.KIND].STAT`; the metric, or a message naming what is wrong and how to write it. */
export function parseMetric(text: string): MetricName | string {
  const m = /^([A-Za-z][\w-]*)(?:\.(fromSend|fromSchedule|writerLag))?\.(p(\d+(?:\.\d+)?)|max|mean|perSecond|count|errors)$/.exec(text);
  if (!m) {
    const kinds = LATENCY_KINDS.join(", ");
    return `"${text}" is not a metric: write OPERATION.STAT or OPERATION.KIND.STAT, as e2e.p99, e2e.fromSchedule.p99.9 or write.perSecond (STAT is ${STAT_WORDS}; KIND is ${kinds})`;
  }
  const [, operation, kind, statText, pText] = m;
  let stat: Stat;
  if (pText !== undefined) {
    const p = Number(pText);
    if (!(p > 0 && p <= 100)) return `"${text}": a percentile is above 0 and at most 100 (p50, p99.9, p100 for the max), not p${pText}`;
    stat = { kind: "percentile", p };
  } else stat = { kind: statText as "max" | "mean" | "perSecond" | "count" | "errors" };
  if (kind && (COUNT_STATS as readonly string[]).includes(stat.kind))
    return `"${text}": ${stat.kind} is the operation's, not one of its latencies': write ${operation}.${stat.kind}`;
  return { text, operation, latency: (kind as LatencyKind | undefined) ?? "fromSend", stat };
}

/** A figure read from a run, with the unit it is in. */
export interface Figure {
  value: number;
  /** "ms" for a latency, the operation's own unit per second for a rate ("msg/s"), "" for a count. */
  unit: string;
}

const ms = (micros: number) => Math.round(micros) / 1000;

/** The operations a summary has, for a message. */
const operationsOf = (s: RunSummary) => Object.keys(s.operations).join(", ");

/**
 * The metric's figure in the run, or a message naming why it has none (an operation the workload does not have, a
 * latency it did not measure: from schedule needs a paced run). Latencies from the merged histogram of the window,
 * rounded as the summary rounds them; counts and rates as the summary has them. Over several runs of one config
 * (repeats), their pooled figure: latencies from all their histograms merged, a rate as all their items over all
 * their windows' seconds, counts summed; never an average of percentiles.
 */
export function figureOf(runs: RunSummary | readonly RunSummary[], m: MetricName, unitOf: (operation: string) => string): Figure | string {
  const ss = Array.isArray(runs) ? (runs as readonly RunSummary[]) : [runs as RunSummary];
  const first = ss[0];
  const ops = ss.map((s) => s.operations[m.operation]);
  if (ops.some((op) => !op)) return `${m.text}: this ${first.workload} run has no operation "${m.operation}" (it has ${operationsOf(first)})`;
  if (m.stat.kind === "perSecond") {
    const perSecond = ss.length === 1 ? ops[0].perSecond : sum(ops.map((o) => o.count)) / sum(ss.map((s) => s.window.measuredSeconds));
    return { value: perSecond, unit: `${unitOf(m.operation)}/s` };
  }
  if (m.stat.kind === "count" || m.stat.kind === "errors") return { value: sum(ops.map((o) => o[m.stat.kind as "count" | "errors"])), unit: "" };
  const encoded = ss.map((s) => s.histograms[m.operation]?.[m.latency]);
  if (encoded.some((e) => !e)) {
    const why = m.latency === "fromSchedule" ? " (measured from the schedule only in a paced run: give it a rate)" : "";
    const has = Object.keys(first.histograms[m.operation] ?? {}).join(", ") || "none";
    return `${m.text}: this run measured no ${m.operation} latency ${m.latency}${why}; its ${m.operation} latencies: ${has}`;
  }
  const h: Histogram = ss.length === 1 ? decodeHistogram(encoded[0]!) : mergeEncoded(encoded as string[]);
  if (h.totalCount === 0) return `${m.text}: no ${m.operation} latency was recorded in the measured window`;
  const micros = m.stat.kind === "percentile" ? h.getValueAtPercentile(m.stat.p) : m.stat.kind === "max" ? h.getValueAtPercentile(100) : h.mean;
  return { value: ms(micros), unit: "ms" };
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
