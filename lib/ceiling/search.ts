// The ceiling search's plan, pure: which rate to try next given the steps so far, and when to stop.
// Exponential growth from the start rate while steps are sustained; once one is not, bisection between the
// highest sustained rate and the lowest unsustained one until the bracket is narrow enough. A first step
// that is not sustained makes the search descend (divide by the growth factor) until one is. Browser-safe:
// the driver (runner/ceiling/driver.ts) runs the steps, the tests run a simulated server.

export interface SearchOptions {
  /** The first step's rate (msg/s). */
  startRate: number;
  /** Never tried above this (msg/s); reaching it while sustained ends the search there. */
  maxRate: number;
  /** Factor between steps while growing (and while descending from an unsustained first step). */
  growth: number;
  /** Stop once (high − low) / low is at most this (0.1: the ceiling is known within 10%). */
  precision: number;
  /** Stop after this many steps whatever the bracket. */
  maxSteps: number;
}

export const SEARCH_DEFAULTS: Omit<SearchOptions, "startRate" | "maxRate"> = { growth: 2, precision: 0.1, maxSteps: 16 };
/** The throttle counts whole messages per second: no step below 1 msg/s. */
export const MIN_RATE = 1;

/** What the plan needs of a step. */
export interface Tried {
  rate: number;
  sustained: boolean;
}

/** Why a search ended. */
export type StopReason =
  /** The bracket is as narrow as asked (or one message per second wide). */
  | "converged"
  /** A step at the maximum rate was sustained: the ceiling is at least that. */
  | "max-rate"
  /** The step budget ran out before the bracket narrowed. */
  | "max-steps"
  /** Not even the minimum rate was sustained. */
  | "none-sustained"
  | "cancelled"
  /** A step's run failed (the target went away, a connection limit): no verdict is possible. */
  | "failed";

export interface Bracket {
  /** The highest sustained rate tried, or null when none was. */
  low: number | null;
  /** The lowest unsustained rate above it, or null when none was tried (max rate reached, or stopped early). */
  high: number | null;
}

/** The bracket the steps so far establish. */
export function bracketOf(steps: readonly Tried[]): Bracket {
  let low: number | null = null;
  for (const s of steps) if (s.sustained && (low === null || s.rate > low)) low = s.rate;
  let high: number | null = null;
  for (const s of steps) if (!s.sustained && (low === null || s.rate > low) && (high === null || s.rate < high)) high = s.rate;
  return { low, high };
}

/** (high − low) / low, or null while either end is open. */
export function relativeWidth(b: Bracket): number | null {
  return b.low !== null && b.high !== null && b.low > 0 ? (b.high - b.low) / b.low : null;
}

/** The next rate to try, or why to stop. */
export function nextStep(steps: readonly Tried[], o: SearchOptions): { rate: number } | { stop: StopReason } {
  const maxRate = Math.max(Math.floor(o.maxRate), MIN_RATE);
  if (steps.length === 0) return { rate: Math.min(Math.max(Math.round(o.startRate), MIN_RATE), maxRate) };
  const { low, high } = bracketOf(steps);
  let rate: number;
  if (high === null) {
    // Only sustained steps: grow, up to the maximum.
    if (low! >= maxRate) return { stop: "max-rate" };
    rate = Math.min(Math.max(Math.round(low! * o.growth), low! + 1), maxRate);
  } else if (low === null) {
    // Only unsustained steps: descend until one is sustained.
    if (high <= MIN_RATE) return { stop: "none-sustained" };
    rate = Math.max(Math.min(Math.round(high / o.growth), high - 1), MIN_RATE);
  } else {
    if (high - low <= 1 || (high - low) / low <= o.precision) return { stop: "converged" };
    rate = Math.round((low + high) / 2);
  }
  if (steps.length >= o.maxSteps) return { stop: "max-steps" };
  return { rate };
}

export interface SearchResult<S extends Tried> {
  steps: S[];
  stop: StopReason;
  /** The highest sustained rate: the ceiling (null when no step was sustained). */
  ceiling: number | null;
  bracket: Bracket;
  /** The step at the bracket's high end: the one that says why the rate above the ceiling is not sustained. */
  failedAbove?: S;
  /** Set when stop is "failed": the step's run error. */
  error?: string;
}

/** Thrown by a step runner when the search was cancelled: the steps done are kept. */
export class SearchCancelled extends Error {
  constructor() {
    super("the ceiling search was cancelled");
    this.name = "SearchCancelled";
  }
}

/** The result the steps so far give, stopped for `stop`. */
export function resultOf<S extends Tried>(steps: S[], stop: StopReason, error?: string): SearchResult<S> {
  const bracket = bracketOf(steps);
  const failedAbove = bracket.high === null ? undefined : steps.find((s) => !s.sustained && s.rate === bracket.high);
  return { steps, stop, ceiling: bracket.low, bracket, ...(failedAbove ? { failedAbove } : {}), ...(error ? { error } : {}) };
}

/**
 * Runs the search: `runStep(rate, index)` runs one step and says whether it was sustained. A step runner that
 * throws SearchCancelled (or any error while `signal` is aborted) ends the search as cancelled; any other error
 * ends it as failed. Either way the steps done are in the result.
 */
export async function searchCeiling<S extends Tried>(
  runStep: (rate: number, index: number) => Promise<S>,
  options: SearchOptions,
  signal?: AbortSignal,
): Promise<SearchResult<S>> {
  const steps: S[] = [];
  while (true) {
    if (signal?.aborted) return resultOf(steps, "cancelled");
    const next = nextStep(steps, options);
    if ("stop" in next) return resultOf(steps, next.stop);
    try {
      steps.push(await runStep(next.rate, steps.length));
    } catch (err) {
      if (err instanceof SearchCancelled || signal?.aborted) return resultOf(steps, "cancelled");
      return resultOf(steps, "failed", (err as Error).message);
    }
  }
}
