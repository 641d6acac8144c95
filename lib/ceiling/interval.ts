// Whether a step's latency met its goal, told apart from noise. A step's p99 is one order statistic of its
// samples: a few hundred of them place the true p99 anywhere among their largest handful, and one second of
// bursts (a checkpoint, another process's spike) can carry every one of them. So each bound of the goal is
// decided only when its evidence is clear:
//
// - met: the upper end of the percentile's one-sided 95% interval (an order statistic chosen by the binomial
//   distribution of the samples under it) is below the limit. Too few samples to bound it above (under about
//   260 for a p99, 2,700 for a p99.9) is never met: the step must run longer;
// - missed: the lower end of its interval is above the limit even with the worst second's samples set aside
//   (removing samples can only lower an order statistic, so the full histogram's lower end at the rank the rest
//   would have bounds theirs from below): a miss carried by one second is a burst, re-measured, not a capacity;
// - otherwise unclear: the step runs longer (runner/ceiling/driver.ts), up to its stated bound.
//
// Browser-safe; the driver reads the histograms (lib/measurement/histogram.ts) and calls goalEvidence.
import type { Histogram } from "hdr-histogram-js";
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

/**
 * Decides one bound of the goal from the step's merged histogram (µs) and its measured seconds' figures for the
 * same percentile (their sample counts and values, ms).
 */
export function boundEvidence(bound: SloBound, h: Histogram, seconds: readonly { count: number; valueMs: number }[]): BoundEvidence {
  const n = h.totalCount;
  const q = QUANTILE_OF[bound.percentile];
  const over = (v: number) => (bound.inclusive ? v > bound.limitMs : v >= bound.limitMs);
  const worst = seconds.length > 1 ? seconds.reduce((a, s) => (s.valueMs > a.valueMs ? s : a)) : null;
  const worstSecond = worst ? { count: worst.count, valueMs: worst.valueMs } : null;
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
  // Set aside the worst second: the rest's lower end is at least the full histogram's value at the rank the
  // rest's own interval would take.
  const rest = worst ? n - worst.count : n;
  const restLow = rest > 0 ? quantileRanks(rest, q).low : 0;
  const missed = restLow >= 1 && over(valueAtRank(h, restLow));
  return { ...base, lowMs, highMs, decision: missed ? "missed" : "unclear" };
}

/** The whole goal: missed when any bound clearly is, met when every bound clearly is, else unclear. */
export function goalDecision(evidence: readonly BoundEvidence[]): GoalDecision {
  if (evidence.some((e) => e.decision === "missed")) return "missed";
  return evidence.every((e) => e.decision === "met") ? "met" : "unclear";
}
