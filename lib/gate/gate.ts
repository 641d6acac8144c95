// CI gates on a finished run (issue 33), as k6's thresholds and Bencher's boundaries: `e2e.p99<50ms` holds or fails
// on the run's own figures (./metric.ts: any percentile from the merged histogram of the whole window), and
// `--baseline … --max-regression 10%` fails a figure that moved the wrong way by more than the bound from a stored run
// or an exported summary. What failed is said one line each, as written, with its goal or baseline and its value.
// Browser-safe: the CLI (runner/gate-cli.ts) reads files and the store.
import { workloadDefinition } from "../workloads/config";
import type { RunSummary } from "../measurement/summary";
import { type MedianInterval, medianInterval } from "../compare/ab-stats";
import { type Figure, figureOf, higherIsWorse, isLatency, type MetricName, parseMetric } from "./metric";

/** The exit status of a run whose gates failed (k6's for thresholds crossed): told apart from a run that failed (1)
 *  and from a command line that was refused (2). */
export const GATE_FAILED_EXIT = 99;

/** --max-regression when not given. */
export const DEFAULT_MAX_REGRESSION_PCT = 10;

const COMPARATORS = ["<=", ">=", "<", ">"] as const;
type Comparator = (typeof COMPARATORS)[number];

export interface Gate {
  /** As written, spaces taken out: `e2e.p99<50ms`. */
  text: string;
  metric: MetricName;
  comparator: Comparator;
  /** The goal in the figure's unit: ms for a latency, per second for a rate, a count. */
  goal: number;
}

/** A latency goal's unit, into milliseconds. */
const TO_MS: Record<string, number> = { ms: 1, s: 1000, us: 0.001, µs: 0.001 };

/** Parses `METRIC<GOAL` (`e2e.p99<50ms`, `write.perSecond>4000`, `read.errors<=0`); the gate, or a message naming what
 *  is wrong in it and how to write it. A latency's goal takes its unit (ms, s, us); a rate's may end in /s. */
export function parseGate(written: string): Gate | string {
  const text = written.replace(/\s+/g, "");
  const m = /^(.+?)(<=|>=|<|>)(.*)$/.exec(text);
  if (!m) return `gate "${written}" has no comparison: write METRIC<GOAL or METRIC>GOAL, as e2e.p99<50ms or write.perSecond>4000`;
  const [, metricText, comparator, goalText] = m;
  const metric = parseMetric(metricText);
  if (typeof metric === "string") return `gate "${written}": ${metric}`;
  const g = /^(\d+(?:\.\d+)?(?:e\d+)?)([a-zµ/]*)$/i.exec(goalText);
  if (!g) return `gate "${written}": the goal "${goalText}" is not a number${isLatency(metric.stat) ? " with its unit (50ms, 0.5s, 800us)" : ""}`;
  const [, numberText, unit] = g;
  let goal = Number(numberText);
  if (isLatency(metric.stat)) {
    if (!unit) return `gate "${written}": give the latency's unit, as ${numberText}ms or ${numberText}s`;
    if (!(unit in TO_MS)) return `gate "${written}": "${unit}" is not a unit of time: use ms, s or us`;
    goal *= TO_MS[unit];
  } else if (unit && !(metric.stat.kind === "perSecond" && unit === "/s"))
    return `gate "${written}": ${metric.stat.kind} is a ${metric.stat.kind === "perSecond" ? "rate, written as a number (4000 or 4000/s)" : "count, written as a number"}, not with "${unit}"`;
  return { text, metric, comparator: comparator as Comparator, goal };
}

/** The operation's unit as its workload declares it ("msg", "job", "row"). */
export function unitOf(summary: RunSummary): (operation: string) => string {
  const ops = workloadDefinition(summary.workload)?.metrics.operations ?? [];
  return (operation) => ops.find((o) => o.name === operation)?.unit ?? "item";
}

const holds = (value: number, c: Comparator, goal: number) =>
  c === "<" ? value < goal : c === "<=" ? value <= goal : c === ">" ? value > goal : value >= goal;

/** A figure as the gate's lines print it: "73.4 ms", "4,012.3 msg/s", "0". */
export function figureText(value: number, unit: string): string {
  const digits = unit === "" ? 0 : unit === "ms" ? (value >= 100 ? 1 : 3) : 1;
  const n = value.toLocaleString("en-US", { maximumFractionDigits: digits });
  return unit ? `${n} ${unit}` : n;
}

export interface GateResult {
  gate: string;
  /** The goal as a sentence's words: "< 50 ms". */
  goal: string;
  /** Null when the run has no such figure (`problem` says why): the gate fails. */
  value: number | null;
  unit: string;
  passed: boolean;
  problem?: string;
}

/** Checks each gate on the run (on repeats of one config, their pooled figure): a gate whose figure the run does not
 *  have fails, saying why. */
export function checkGates(runs: RunSummary | readonly RunSummary[], gates: readonly Gate[]): GateResult[] {
  const units = unitOf(runsOf(runs)[0]);
  return gates.map((g) => {
    const f = figureOf(runs, g.metric, units);
    const unit = typeof f === "string" ? (isLatency(g.metric.stat) ? "ms" : "") : f.unit;
    const goal = `${g.comparator} ${figureText(g.goal, unit)}`;
    if (typeof f === "string") return { gate: g.text, goal, value: null, unit, passed: false, problem: f };
    return { gate: g.text, goal, value: f.value, unit, passed: holds(f.value, g.comparator, g.goal) };
  });
}

/** One line per failed gate: as written, its goal and its value (or why it has none). */
export function gateFailureLine(r: GateResult): string {
  return r.value === null ? `gate failed: ${r.gate}: ${r.problem}` : `gate failed: ${r.gate}: goal ${r.goal}, value ${figureText(r.value, r.unit)}`;
}

/** A maximum regression as written (`10%`, `2.5%`): the fraction of the baseline a figure may move the wrong way. */
export function parseMaxRegression(written: string): number | string {
  const m = /^(\d+(?:\.\d+)?)%$/.exec(written.trim());
  if (!m) return `--max-regression "${written}" is not a percentage: write it as 10% (how far a figure may move the wrong way from the baseline)`;
  const pct = Number(m[1]);
  if (!(pct > 0 && pct < 1000)) return `--max-regression ${written}: give a percentage above 0% and below 1000%`;
  return pct;
}

/** The figures compared with a baseline when no gate names them: each operation's rate where the workload counts it as
 *  one (a write's, a read's; not a claim's polls, whose number follows how often the queue was empty), and its
 *  latencies' p50 and p99 from send (and from the schedule where both runs were paced). */
export function defaultRegressionMetrics(summary: RunSummary, baseline: RunSummary): MetricName[] {
  const out: MetricName[] = [];
  const rated = new Set((workloadDefinition(summary.workload)?.metrics.operations ?? []).filter((o) => o.rate).map((o) => o.name));
  for (const op of Object.keys(summary.operations)) {
    if (!baseline.operations[op]) continue;
    if (rated.has(op)) out.push(parseMetric(`${op}.perSecond`) as MetricName);
    for (const kind of ["fromSend", "fromSchedule"] as const)
      if (summary.histograms[op]?.[kind] && baseline.histograms[op]?.[kind])
        for (const p of ["p50", "p99"]) out.push(parseMetric(kind === "fromSend" ? `${op}.${p}` : `${op}.${kind}.${p}`) as MetricName);
  }
  return out;
}

export interface Regression {
  metric: string;
  baseline: number;
  /** The run's figure; over repeats, the median of their own figures. */
  value: number;
  unit: string;
  /** How far it moved the wrong way, in % of the baseline (negative: it improved). */
  worsePct: number;
  /** Over repeats: the interval of their median (the measured noise). Null for one run. */
  interval: MedianInterval | null;
  /** Over repeats: the baseline lies inside that interval, so the change is within the noise measured. */
  withinNoise: boolean;
  passed: boolean;
}

const runsOf = (runs: RunSummary | readonly RunSummary[]): readonly RunSummary[] => (Array.isArray(runs) ? runs : [runs as RunSummary]);

/**
 * Each metric of the run against the same of the baseline: failed when it moved the wrong way (a latency or an
 * error count up, a rate or a count down) by more than `maxPct` % of the baseline. Over repeats of one config the
 * run's figure is the median of the repeats' own, and a change beyond the bound fails only when it is also beyond
 * the noise they measured: the baseline outside the interval of their median (lib/compare/ab-stats.ts
 * medianInterval). A metric either side lacks, or whose baseline is 0 (no ratio), is listed in `skipped` with why.
 */
export function checkRegressions(
  runs: RunSummary | readonly RunSummary[],
  baseline: RunSummary,
  metrics: readonly MetricName[],
  maxPct: number,
): { regressions: Regression[]; skipped: string[] } {
  const regressions: Regression[] = [];
  const skipped: string[] = [];
  const ss = runsOf(runs);
  const units = unitOf(ss[0]);
  for (const m of metrics) {
    const per = ss.map((s) => figureOf(s, m, units));
    const base = figureOf(baseline, m, unitOf(baseline));
    const missing = per.find((f) => typeof f === "string");
    if (missing !== undefined || typeof base === "string") {
      skipped.push(missing !== undefined ? (missing as string) : `${m.text} in the baseline: ${(base as string).replace(/^[^:]*: /, "")}`);
      continue;
    }
    if (base.value === 0) {
      skipped.push(`${m.text}: the baseline's is 0, so no change can be a percentage of it`);
      continue;
    }
    const values = (per as Figure[]).map((f) => f.value);
    const interval = medianInterval(values);
    const value = interval?.median ?? values[0];
    const moved = ((value - base.value) / base.value) * 100;
    const worsePct = higherIsWorse(m.stat) ? moved : -moved;
    const withinNoise = interval !== null && base.value >= interval.low && base.value <= interval.high;
    regressions.push({
      metric: m.text,
      baseline: base.value,
      value,
      unit: (per[0] as Figure).unit,
      worsePct,
      interval,
      withinNoise,
      passed: worsePct <= maxPct || withinNoise,
    });
  }
  return { regressions, skipped };
}

/** One line per regression beyond the bound: the metric, its baseline value (whose), its value, how far. */
export function regressionLine(r: Regression, baselineName: string, maxPct: number): string {
  const sign = r.worsePct >= 0 ? "worse" : "better";
  const value = r.interval
    ? `median of ${r.interval.n} repeats ${figureText(r.value, r.unit)} (${intervalText(r.interval, r.unit)}, the baseline outside it)`
    : `value ${figureText(r.value, r.unit)}`;
  return `regression: ${r.metric}: baseline ${figureText(r.baseline, r.unit)} (${baselineName}), ${value}, ${Math.abs(r.worsePct).toFixed(1)}% ${sign} (bound ${maxPct}%)`;
}

/** "190.2–201.3 msg/s at 94%": a median's interval with its confidence. */
export const intervalText = (i: MedianInterval, unit: string): string =>
  `${figureText(i.low, unit).replace(` ${unit}`, "")}–${figureText(i.high, unit)} at ${Math.floor(i.confidence * 1000) / 10}%`;

export type { Figure };
