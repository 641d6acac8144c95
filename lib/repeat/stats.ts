// A configuration run N times as one set (`--repeat N`, issue 33): each figure with its spread across the repeats and
// the interval of its median, the noise a single run cannot show. The figures are the gates' (lib/gate/metric.ts:
// each counted operation's rate, each latency's p50 and p99), each repeat's own and pooled over all of them
// (histograms merged, never percentiles averaged); the interval is the A/B's machinery's (lib/compare/ab-stats.ts
// medianInterval: from the order statistics, no shape assumed). Browser-safe.
import { type MedianInterval, medianInterval } from "../compare/ab-stats";
import { defaultRegressionMetrics, figureText, intervalText, unitOf } from "../gate/gate";
import { figureOf } from "../gate/metric";
import type { RunSummary } from "../measurement/summary";

/** Most repeats one command may ask: a set is run back to back, and 20 gives a 95 % interval of the median. */
export const MAX_REPEATS = 20;

export interface RepeatRow {
  /** As a gate names it: `write.perSecond`, `e2e.fromSchedule.p99`. */
  metric: string;
  unit: string;
  /** Over all repeats: latencies from their merged histograms, rates as all items over all seconds. */
  pooled: number;
  /** Each repeat's own figure, in the order run. */
  perRun: number[];
  min: number;
  max: number;
  /** The median and its interval; null for one repeat. */
  interval: MedianInterval | null;
  /** (max − min) as % of the median: how far apart the repeats landed. */
  spreadPct: number | null;
}

/** Each figure of the repeats (the metrics every run of the set has). */
export function repeatRows(runs: readonly RunSummary[]): RepeatRow[] {
  if (!runs.length) return [];
  const units = unitOf(runs[0]);
  return defaultRegressionMetrics(runs[0], runs[0]).flatMap((m) => {
    const pooled = figureOf(runs, m, units);
    const per = runs.map((s) => figureOf(s, m, units));
    if (typeof pooled === "string" || per.some((f) => typeof f === "string")) return [];
    const perRun = per.map((f) => (f as { value: number }).value);
    const interval = medianInterval(perRun);
    const [min, max] = [Math.min(...perRun), Math.max(...perRun)];
    const median = interval?.median ?? perRun[0];
    return [{ metric: m.text, unit: pooled.unit, pooled: pooled.value, perRun, min, max, interval, spreadPct: median ? ((max - min) / median) * 100 : null }];
  });
}

/** The set's table, for the CLI: per figure its pooled value, its median and interval, and its spread. */
export function repeatText(runs: readonly RunSummary[], rows: readonly RepeatRow[]): string {
  const head = ["figure", "pooled", "median (interval)", "min–max", "spread"];
  const body = rows.map((r) => [
    r.metric,
    figureText(r.pooled, r.unit),
    r.interval ? `${figureText(r.interval.median, r.unit)} (${intervalText(r.interval, r.unit)})` : "–",
    `${figureText(r.min, r.unit).replace(` ${r.unit}`, "")}–${figureText(r.max, r.unit)}`,
    r.spreadPct === null ? "–" : `${r.spreadPct.toFixed(1)}%`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join("  ");
  const n = runs.length;
  return [
    `${n} repeats of one config; pooled: every repeat's histograms merged (rates: all items over all seconds); the interval`,
    `is the median's from the repeats' own figures (no shape assumed), at the confidence shown${n < 6 ? ` (${n} repeats cannot reach 95 %: 6 can)` : ""}.`,
    "",
    line(head),
    ...body.map(line),
  ].join("\n");
}
