// The ceiling search's plan, pure: which rate to try next given the steps so far, and when to stop.
// Exponential growth from the start rate while steps are sustained; once one is not, bisection between the
// highest sustained rate and the lowest unsustained one until the bracket is narrow enough. A first step
// that is not sustained makes the search descend (divide by the growth factor) until one is. Browser-safe:
// the driver (runner/ceiling/driver.ts) runs the steps, the tests run a simulated server.
//
// Two rules keep the answer honest. A step whose measurement was starved (the runner, not the target, could
// have decided it: lib/ceiling/verdict.ts) is neither sustained nor failed: it is run again at the same rate,
// up to MAX_STARVED_REPEATS times, then the search stops saying so. And the rate found is confirmed by one
// longer run before it is reported: a failed confirmation makes that rate the bracket's high end and the search
// goes on below it, up to MAX_CONFIRMATIONS times.
//
// A step decides only on clear evidence. Its latency goal is judged on the percentile's interval, and a step
// whose interval straddles the goal runs longer before it is judged (runner/ceiling/driver.ts). A miss that its
// run's telemetry does not explain (the server had headroom), or that contradicts a higher rate already
// sustained, is measured once more before it counts: the later measurement of a rate decides it. And when the
// runner cannot drive a higher rate (starved every time), the last sustained rate is still confirmed by a longer
// run, and reported as a confirmed lower bound with what stopped the search.

export interface SearchOptions {
  /** The first step's rate (msg/s). */
  startRate: number;
  /** Never tried above this (msg/s); reaching it while sustained ends the search there. */
  maxRate: number;
  /** Factor between steps while growing (and while descending from an unsustained first step). */
  growth: number;
  /** Stop once (high − low) / low is at most this (0.1: the ceiling is known within 10%). */
  precision: number;
  /** Stop after this many steps whatever the bracket (repeats of starved steps and confirmations not counted). */
  maxSteps: number;
  /** Confirm the rate found by a longer run before reporting it. */
  confirm: boolean;
}

export const SEARCH_DEFAULTS: Omit<SearchOptions, "startRate" | "maxRate"> = { growth: 2, precision: 0.1, maxSteps: 16, confirm: true };
/** A starved step is run again at most this many times; then the search stops ("starved"). */
export const MAX_STARVED_REPEATS = 2;
/** At most this many confirmation runs; then the search reports its bracket unconfirmed. */
export const MAX_CONFIRMATIONS = 3;
/** The throttle counts whole messages per second: no step below 1 msg/s. */
export const MIN_RATE = 1;

/** What the plan needs of a step (lib/ceiling/step.ts CeilingStep is one). */
export interface Tried {
  /** The rate asked for, in the paced unit (msg/s, row/s, req/s, workflow/s: lib/ceiling/rate.ts searchUnit). */
  rate: number;
  sustained: boolean;
  /** The runner was starved while it measured: the step says nothing about the target; run again, never charged
   *  to the target (its verdict's `starved` says why). */
  starved?: boolean;
  /** The longer run confirming the rate found. */
  confirmation?: boolean;
  /** Not sustained on latency alone while its run's telemetry found the server with headroom (rate-bound) or
   *  found nothing: measured once more before it counts. */
  unexplained?: boolean;
  /** The measurement again of an earlier step's rate: it decides that rate in the earlier one's place. */
  remeasure?: boolean;
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
  | "failed"
  /** A step's measurement was starved every time it was run: the runner, not the target, limits this search. */
  | "starved"
  /** Every confirmation run failed: the bracket is reported, no confirmed rate. */
  | "unconfirmed";

export interface Bracket {
  /** The highest sustained rate tried, or null when none was. */
  low: number | null;
  /** The lowest unsustained rate above it, or null when none was tried (max rate reached, or stopped early). */
  high: number | null;
}

/** The steps that say something about the target: starved ones do not, nor a step measured again later. */
const judged = <S extends Tried>(steps: readonly S[]): S[] => {
  const counted = steps.filter((s) => !s.starved);
  return counted.filter((s, i) => s.confirmation || !counted.slice(i + 1).some((t) => t.remeasure && t.rate === s.rate));
};

/**
 * The bracket the steps so far establish. A failed confirmation outweighs the shorter steps: no rate at or
 * above it counts as sustained.
 */
export function bracketOf(steps: readonly Tried[]): Bracket {
  const counted = judged(steps);
  let failedConfirmation = Number.POSITIVE_INFINITY;
  for (const s of counted) if (s.confirmation && !s.sustained) failedConfirmation = Math.min(failedConfirmation, s.rate);
  let low: number | null = null;
  for (const s of counted) if (s.sustained && s.rate < failedConfirmation && (low === null || s.rate > low)) low = s.rate;
  let high: number | null = null;
  for (const s of counted) if (!s.sustained && (low === null || s.rate > low) && (high === null || s.rate < high)) high = s.rate;
  return { low, high };
}

/** The sustained confirmation of the bracket's low end, if it has one. */
export function confirmationOf<S extends Tried>(steps: readonly S[], low: number | null): S | undefined {
  return low === null ? undefined : steps.find((s) => s.confirmation && s.sustained && !s.starved && s.rate === low);
}

/** (high − low) / low, or null while either end is open. */
export function relativeWidth(b: Bracket): number | null {
  return b.low !== null && b.high !== null && b.low > 0 ? (b.high - b.low) / b.low : null;
}

export type Next = { rate: number; confirmation?: boolean; remeasure?: boolean } | { stop: StopReason };

/** The next rate to try (a step, its measurement again, or the confirmation of the rate found), or why to stop. */
export function nextStep(steps: readonly Tried[], o: SearchOptions): Next {
  const last = steps.at(-1);
  if (last?.starved) {
    // Run a starved step again; the same rate starved every time stops the search, once the rate below it is confirmed.
    let tries = 0;
    for (let i = steps.length - 1; i >= 0 && steps[i].starved && steps[i].rate === last.rate; i--) tries++;
    if (tries <= MAX_STARVED_REPEATS)
      return { rate: last.rate, ...(last.confirmation ? { confirmation: true } : {}), ...(last.remeasure ? { remeasure: true } : {}) };
    // The confirmation itself could not be measured: nothing lower is left to confirm it by.
    if (last.confirmation) return { stop: "starved" };
  }
  if (last && !last.starved && !last.sustained && !last.confirmation && !last.remeasure) {
    const { low } = bracketOf(steps.slice(0, -1));
    if (last.unexplained || (low !== null && low > last.rate)) return { rate: last.rate, remeasure: true };
  }
  const plan = starvedOut(steps) ? { stop: "starved" as const } : planStep(steps, o);
  if (!("stop" in plan) || !o.confirm || plan.stop === "none-sustained") return plan;
  // The search would end: confirm its rate first.
  const { low } = bracketOf(steps);
  if (low === null || confirmationOf(steps, low)) return plan;
  const confirmations = judged(steps).filter((s) => s.confirmation).length;
  if (confirmations >= MAX_CONFIRMATIONS) return { stop: "unconfirmed" };
  return { rate: low, confirmation: true };
}

/** Whether some rate was starved on every try (MAX_STARVED_REPEATS runs again): the runner cannot drive it. */
function starvedOut(steps: readonly Tried[]): boolean {
  let run = 0;
  for (let i = 0; i < steps.length; i++) {
    run = steps[i].starved && i > 0 && steps[i - 1].starved && steps[i - 1].rate === steps[i].rate ? run + 1 : steps[i].starved ? 1 : 0;
    if (run > MAX_STARVED_REPEATS) return true;
  }
  return false;
}

/** The plan without confirmations or repeats: growth, descent, bisection. */
function planStep(steps: readonly Tried[], o: SearchOptions): { rate: number } | { stop: StopReason } {
  const maxRate = Math.max(Math.floor(o.maxRate), MIN_RATE);
  if (judged(steps).length === 0) return { rate: Math.min(Math.max(Math.round(o.startRate), MIN_RATE), maxRate) };
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
  if (judged(steps).filter((s) => !s.confirmation).length >= o.maxSteps) return { stop: "max-steps" };
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
  /** The longer run that confirmed the ceiling (absent: not confirmed, or confirmation off). */
  confirmation?: S;
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
  const failedAbove = bracket.high === null ? undefined : judged(steps).find((s) => !s.sustained && s.rate === bracket.high);
  const confirmation = confirmationOf(steps, bracket.low);
  return {
    steps,
    stop,
    ceiling: bracket.low,
    bracket,
    ...(failedAbove ? { failedAbove } : {}),
    ...(confirmation ? { confirmation } : {}),
    ...(error ? { error } : {}),
  };
}

/**
 * Runs the search: `runStep(rate, index, confirmation)` runs one step (or, when `confirmation`, the longer
 * run that confirms the rate found) and says whether it was sustained, or starved. A step runner that
 * throws SearchCancelled (or any error while `signal` is aborted) ends the search as cancelled; any other error
 * ends it as failed. Either way the steps done are in the result.
 */
export async function searchCeiling<S extends Tried>(
  runStep: (rate: number, index: number, confirmation: boolean) => Promise<S>,
  options: SearchOptions,
  signal?: AbortSignal,
): Promise<SearchResult<S>> {
  const steps: S[] = [];
  while (true) {
    if (signal?.aborted) return resultOf(steps, "cancelled");
    const next = nextStep(steps, options);
    if ("stop" in next) return resultOf(steps, next.stop);
    try {
      const step = await runStep(next.rate, steps.length, next.confirmation === true);
      if (next.confirmation) step.confirmation = true;
      if (next.remeasure) step.remeasure = true;
      steps.push(step);
    } catch (err) {
      if (err instanceof SearchCancelled || signal?.aborted) return resultOf(steps, "cancelled");
      return resultOf(steps, "failed", (err as Error).message);
    }
  }
}
