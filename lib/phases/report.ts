// What a run reports of each of its phases (runner/phases/ measures it; the run page, the CLI and compare show it):
// when it really ran and what it did, the consumers' rate and the delivery latency before, during and after it (from
// merged interval histograms: a percentile is never averaged), the run's dead tuples and table and index size at its
// start and end, and the time the run took to get back to the rate it had before. Browser-safe.
import { z } from "zod";
import { Phase } from "./shape";

/** A stretch of the run around a phase: its length, the consumers' rate, the delivery latency and the largest backlog. */
export const PhaseWindow = z.object({
  seconds: z.number(),
  /** The consumers' rate (the operation PhaseReport.rate names), per second over the stretch. */
  perSecond: z.number(),
  /** The delivery latency's percentiles over the stretch, in ms (absent: none was recorded in it). */
  latencyMs: z.object({ p50: z.number(), p99: z.number(), p999: z.number(), max: z.number() }).optional(),
  /** The largest backlog at the end of a second of the stretch (absent: the workload keeps none). */
  backlogMax: z.number().optional(),
});
export type PhaseWindow = z.infer<typeof PhaseWindow>;

/** Something read from the target at the phase's start and at its end. */
const StartEnd = z.object({ start: z.number(), end: z.number() });

export const PhaseReport = z.object({
  phase: Phase,
  /** What it did, in words: "held transaction 8123 open (REPEATABLE READ) on pid 4411". */
  did: z.string(),
  /** When it really began and ended, in seconds from the load's start (null: it never began). */
  startedSec: z.number().nullable(),
  endedSec: z.number().nullable(),
  /** Why it did not run as written (cut short by the run's end, or refused by the target), when it did not. */
  problem: z.string().optional(),
  /** The operation whose rate is compared ("read"), its label and unit. */
  rate: z.object({ operation: z.string(), label: z.string(), unit: z.string() }),
  /** The delivery latency compared ("e2e"), its label; absent when the workload times none. */
  latency: z.object({ name: z.string(), label: z.string() }).optional(),
  /** The whole seconds of the run (as the recorder cut them) up to 10 s before it (null: it began too soon after the
   *  warm-up to have a rate to recover to), during it (null: too short to hold a whole one), and from its end to the
   *  next phase's start or the measured window's end (null: none left). A second across an edge is in neither. */
  before: PhaseWindow.nullable(),
  during: PhaseWindow.nullable(),
  after: PhaseWindow.nullable(),
  /** The run's tables' dead tuples (pg_stat_user_tables.n_dead_tup) at its start and its end. */
  deadTuples: StartEnd.optional(),
  /** The run's tables' size and their indexes' (pg_table_size, pg_indexes_size), in bytes, at its start and end:
   *  absent when a lock held on them kept the reading from being taken (it never waits). */
  tableBytes: StartEnd.optional(),
  indexBytes: StartEnd.optional(),
  /** How long after its end the run was back at the rate before it (RECOVERY), in s; null: not by the window's end. */
  recoverySec: z.number().nullable(),
  /** What "back" meant for this run, in words (the rate and backlog it had to reach, for how long). */
  recoveryRule: z.string(),
});
export type PhaseReport = z.infer<typeof PhaseReport>;

/** When a run counts as recovered after a phase: over this many whole seconds in a row … */
export const RECOVERY = {
  seconds: 3,
  /** … the consumers' rate (over the seconds together: a consumer that fetches in batches is bursty second by second)
   *  at least this share of its rate before the phase … */
  rateShare: 0.9,
  /** … and, where it keeps a backlog, the backlog no more than twice its largest before the phase, or this many
   *  seconds' worth of the rate before it, whichever is more (a backlog of a few items is no backlog). */
  backlogSeconds: 0.1,
} as const;

/** One second after a phase: its length, its rate (per second) and its backlog at its end. */
export interface RecoverySecond {
  /** Its start, in seconds after the phase's end. */
  fromSec: number;
  perSecond: number;
  backlog?: number;
}

/**
 * How long after a phase's end the run was back (RECOVERY): the start of the first RECOVERY.seconds seconds in a row
 * whose rate together reached the floor and whose every backlog was back under its ceiling, in seconds after the
 * phase's end; null when that never came. `after` in order.
 */
export function recoveryOf(after: readonly RecoverySecond[], before: PhaseWindow, asked?: number): number | null {
  const rateFloor = rateToRecover(before, asked) * RECOVERY.rateShare;
  const backlogCeiling = before.backlogMax === undefined ? undefined : backlogCeilingOf(before);
  const n = RECOVERY.seconds;
  for (let i = 0; i + n <= after.length; i++) {
    const run = after.slice(i, i + n);
    const rate = run.reduce((a, s) => a + s.perSecond, 0) / n;
    if (rate >= rateFloor && (backlogCeiling === undefined || run.every((s) => (s.backlog ?? 0) <= backlogCeiling))) return Math.max(0, run[0].fromSec);
  }
  return null;
}

/** The rate a run must get back to: its rate before the phase, but never more than the rate it was asked for (seconds
 *  of catching up after the warm-up can put the rate before a phase above it, where a paced run never goes back). */
const rateToRecover = (before: PhaseWindow, asked: number | undefined) =>
  asked !== undefined && asked > 0 ? Math.min(before.perSecond, asked) : before.perSecond;

/** The largest backlog that still counts as back to the level before a phase. */
const backlogCeilingOf = (before: PhaseWindow) => Math.max(2 * (before.backlogMax ?? 0), before.perSecond * RECOVERY.backlogSeconds);

/** The rule recoveryOf applied, in words, with this run's numbers: "back at ≥ 900 msg/s over 3 s in a row (90% of the
 *  1,000 before it), the backlog at most 120 in each". */
export function recoveryRuleText(before: PhaseWindow | null, unit: string, asked?: number): string {
  if (!before) return "no rate before the phase to recover to (it began within 2 s of the warm-up's end)";
  const n = (x: number) => Math.round(x).toLocaleString("en-US");
  const backlog = before.backlogMax === undefined ? "" : `, the backlog at most ${n(backlogCeilingOf(before))} in each`;
  const target = rateToRecover(before, asked);
  const of = target < before.perSecond ? `the ${n(target)} asked; ${n(before.perSecond)} before it` : `the ${n(before.perSecond)} before it`;
  return `back at ≥ ${n(target * RECOVERY.rateShare)} ${unit}/s over ${RECOVERY.seconds} s in a row (${RECOVERY.rateShare * 100}% of ${of})${backlog}`;
}
