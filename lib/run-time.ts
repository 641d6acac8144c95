// The one home of a run's length (browser-safe, imports nothing, so workload definitions may use it): warm-up,
// measured window and the longest drain, and their sums. Setup and verification come on top; they depend on
// the target, so no figure is claimed for them.

/** Longest drain after the measured window (writers stopped, readers catch up); runner/engine.ts uses it. */
export const MAX_DRAIN_SECONDS = 10;

export interface RunTime {
  /** Load before the measured window, left out of the results. */
  warmup: number;
  /** The measured window the results cover. */
  measured: number;
  /** The longest the drain may take. */
  drainMax: number;
  /** Warm-up + measured window: the time the load runs on its schedule. */
  load: number;
  /** Warm-up + measured window + the longest drain: the time a run loads its target, at most. */
  total: number;
}

/** A config's run time in seconds (every workload has warmupSeconds and durationSeconds). */
export function runTimeOf(c: { warmupSeconds: number; durationSeconds: number }): RunTime {
  const load = c.warmupSeconds + c.durationSeconds;
  return { warmup: c.warmupSeconds, measured: c.durationSeconds, drainMax: MAX_DRAIN_SECONDS, load, total: load + MAX_DRAIN_SECONDS };
}
