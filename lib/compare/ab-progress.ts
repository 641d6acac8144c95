// How far an A/B set has got and how long it has left, from its runs as the page polls them: runs done of total,
// the time each finished run took (its own start and finish), the running run's elapsed time, and each run's
// planned load (warm-up + measured window, lib/run-time.ts). What a run takes beyond its planned load
// (setting up the target, the drain, verifying) is measured on the finished runs and added to the runs still to
// come; before any has finished it is unknown, and the time left is a lower bound, said so. Browser-safe.
import { runTimeOf } from "../run-time";

const FINAL = new Set(["completed", "failed", "cancelled", "interrupted"]);

/** What the progress needs of a run (a RunView has it). */
export interface AbProgressRun {
  status: string;
  startedAt: string | null;
  finishedAt: string | null;
  config: { warmupSeconds: number; durationSeconds: number } | null;
}

export interface AbProgress {
  /** Runs that have ended (any final status), of all the set's runs. */
  done: number;
  total: number;
  /** Seconds spent: finished runs' own durations and the running run's elapsed time. */
  spentSeconds: number;
  /** Seconds left: the running run's planned remainder and every queued run's planned load, each with the measured
   *  overhead; null when nothing is left to run. */
  leftSeconds: number | null;
  /** No run has finished yet, so what a run takes beyond its load is not known: the time left is at least this. */
  leftIsLowerBound: boolean;
  /** Measured mean of (duration − planned load) over the completed runs; null before one has completed. */
  overheadSeconds: number | null;
  /** spent ÷ (spent + left), 0 … 1. */
  fraction: number;
}

const seconds = (from: string, to: number) => Math.max(0, (to - Date.parse(from)) / 1000);

/** The set's progress at `now` (ms since the epoch) from its runs; a deleted run (null) counts as ended. */
export function abProgress(runs: (AbProgressRun | null)[], now: number): AbProgress {
  const planned = (r: AbProgressRun) => (r.config ? runTimeOf(r.config).load : 0);
  const took = (r: AbProgressRun) => (r.startedAt && r.finishedAt ? seconds(r.startedAt, Date.parse(r.finishedAt)) : 0);
  const completed = runs.filter((r): r is AbProgressRun => r?.status === "completed" && !!r.startedAt && !!r.finishedAt);
  const overheadSeconds = completed.length ? Math.max(0, completed.reduce((a, r) => a + took(r) - planned(r), 0) / completed.length) : null;
  const overhead = overheadSeconds ?? 0;
  let spent = 0;
  let left = 0;
  let pending = 0;
  for (const r of runs) {
    if (!r || FINAL.has(r.status)) spent += r ? took(r) : 0;
    else if (r.status === "running" && r.startedAt) {
      const elapsed = seconds(r.startedAt, now);
      spent += elapsed;
      // A run past its expected length (a slow set-up, a long drain) has at least a moment left, never a negative.
      left += Math.max(1, planned(r) + overhead - elapsed);
      pending++;
    } else {
      left += planned(r) + overhead;
      pending++;
    }
  }
  const done = runs.length - pending;
  return {
    done,
    total: runs.length,
    spentSeconds: spent,
    leftSeconds: pending ? left : null,
    leftIsLowerBound: pending > 0 && overheadSeconds === null,
    overheadSeconds,
    fraction: pending ? (spent + left > 0 ? spent / (spent + left) : 0) : 1,
  };
}
