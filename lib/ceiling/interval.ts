// Whether a step's latency met its goal, told apart from noise. A step's p99 is one order statistic of its
// samples: a few hundred of them place the true p99 anywhere among their largest handful, and one second of
// bursts (a checkpoint, another process's spike) can carry every one of them. So each bound of the goal is
// decided only when its evidence is clear:
//
// - met: the upper end of the percentile's one-sided 95% interval (an order statistic chosen by the binomial
//   distribution of the samples under it) is below the limit. Too few samples to bound it above (under about
//   260 for a p99, 2,700 for a p99.9) is never met: the step must run longer;
// - missed: the lower end of its interval is above the limit even with the worst second's samples set aside
//   (as many of them over the limit as that second's own percentiles allow are taken away from the histogram's
//   count over it): a miss carried by one second is a burst, measured longer, not a capacity;
// - otherwise unclear: the step runs longer (runner/ceiling/driver.ts), up to its stated bound.
//
// Browser-safe; the driver reads the histograms (lib/measurement/histogram.ts) and calls goalEvidence.
import type { Histogram } from "hdr-histogram-js";
import type { LatencyStats } from "../measurement/metrics";
import type { SloBound, SloPercentile } from "./slo";

/** One-sided 95%: each decision asks one question (is it below? is it above?). */
export const Z_ONE_SIDED_95 = 1.645;

/** The quantile each goal percentile names. */
export const QUANTILE_OF: Record<SloPercentile, number> = { p50: 0.5, p90: 0.9, p95: 0.95, p99: 0.99, p999: 0.999, max: 1 };

export type GoalDecision = "met" | "missed" | "unclear";

/** What a step's samples say of one bound of its goal. */
export interface BoundEvidence {
  percentile: SloPercentile;
  limitMs: number;
  /** Samples in the step's merged histogram. */
  samples: number;
  /** The percentile's interval, ms: lowMs ≤ true value ≤ highMs at 95% each side; highMs null when too few
   *  samples bound it above. */
  lowMs: number;
  highMs: number | null;
  /** The worst measured second (by this percentile): its samples are set aside before a miss is called clear. */
  worstSecond: { count: number; valueMs: number } | null;
  decision: GoalDecision;
}

/** The 1-based ranks bounding the q-quantile of n samples at one-sided 95% (normal approximation of the
 *  binomial): [low, high]; high > n when the samples cannot bound it above, low < 1 when not below. */
export function quantileRanks(n: number, q: number, z = Z_ONE_SIDED_95): { low: number; high: number } {
  const sd = Math.sqrt(n * q * (1 - q));
  return { low: Math.floor(n * q - z * sd), high: Math.ceil(n * q + z * sd) };
}

/** The fewest samples whose interval for the q-quantile has an upper end (about 260 for p99). */
export function samplesToBound(q: number): number {
  if (q >= 1) return 1;
  let n = 1;
  while (quantileRanks(n, q).high > n) n++;
  return n;
}

/** The histogram's value at a 1-based rank, ms (recorded in µs). */
const valueAtRank = (h: Histogram, rank: number) => h.getValueAtPercentile((100 * rank) / h.totalCount) / 1000;

/** One measured second's figures of the goal's latency: its samples and percentiles (ms). */
export type SecondFigures = Pick<LatencyStats, "count" | SloPercentile>;

/** The most samples of a second that can lie over the limit, by its own percentiles: over its p90 and not its
 *  p50, at most half of them. */
function mostOver(s: SecondFigures, over: (v: number) => boolean): number {
  let q = 0;
  for (const p of ["p50", "p90", "p95", "p99", "p999"] as const) if (!over(s[p])) q = QUANTILE_OF[p];
  return Math.min(s.count, Math.ceil(s.count * (1 - q)) + 1);
}

/** How many samples of the histogram lie over the limit (by rank, searched). */
function countOver(h: Histogram, over: (v: number) => boolean): number {
  const n = h.totalCount;
  let lo = 0; // the largest rank known not over (0: none)
  let hi = n + 1; // the smallest rank known over
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (over(valueAtRank(h, mid))) hi = mid;
    else lo = mid;
  }
  return n - lo;
}

/**
 * Decides one bound of the goal from the step's merged histogram (µs) and its measured seconds' figures of the
 * same latency.
 */
export function boundEvidence(bound: SloBound, h: Histogram, seconds: readonly SecondFigures[]): BoundEvidence {
  const n = h.totalCount;
  const q = QUANTILE_OF[bound.percentile];
  const over = (v: number) => (bound.inclusive ? v > bound.limitMs : v >= bound.limitMs);
  const worst = seconds.length > 1 ? seconds.reduce((a, s) => (s[bound.percentile] > a[bound.percentile] ? s : a)) : null;
  const worstSecond = worst ? { count: worst.count, valueMs: worst[bound.percentile] } : null;
  const base = { percentile: bound.percentile, limitMs: bound.limitMs, samples: n, worstSecond };
  if (n === 0) return { ...base, lowMs: 0, highMs: null, decision: "unclear" };
  if (q >= 1) {
    // The maximum is what was seen: one sample over the limit breaks it, and no more samples can unbreak it.
    const max = valueAtRank(h, n);
    return { ...base, lowMs: max, highMs: max, decision: over(max) ? "missed" : "met" };
  }
  const { low, high } = quantileRanks(n, q);
  const lowMs = low >= 1 ? valueAtRank(h, low) : 0;
  const highMs = high <= n ? valueAtRank(h, high) : null;
  if (highMs !== null && !over(highMs)) return { ...base, lowMs, highMs, decision: "met" };
  // Missed only if the rest, the worst second set aside, still has its interval's lower end over the limit: at
  // least (rest − its lower rank + 1) of its samples over it.
  const rest = worst ? n - worst.count : n;
  const restOver = countOver(h, over) - (worst ? mostOver(worst, over) : 0);
  const restLow = rest > 0 ? quantileRanks(rest, q).low : 0;
  const missed = restLow >= 1 && restOver >= rest - restLow + 1;
  return { ...base, lowMs, highMs, decision: missed ? "missed" : "unclear" };
}

/** The whole goal: missed when any bound clearly is, met when every bound clearly is, else unclear. */
export function goalDecision(evidence: readonly BoundEvidence[]): GoalDecision {
  if (evidence.some((e) => e.decision === "missed")) return "missed";
  return evidence.every((e) => e.decision === "met") ? "met" : "unclear";
}
