// Long runs (issue 32): "a two-minute run is never enough: run until autovacuum has come round several times". A
// run with `untilAutovacuums` ends its measured window once the run's tables have had that many autovacuum runs
// (summed over its tables, as the telemetry reads pg_stat_user_tables.autovacuum_count: runner/telemetry/reading.ts)
// and `minDurationSeconds` has passed; its `durationSeconds` is then the cap. The engine asks longRunEnded every
// 50 ms of the window (runner/local-load.ts) and the summary says why the window ended (longRunNote). Browser-safe.

/** The long-run preset's window: at least 15 minutes, until 3 autovacuum runs of the run's tables, at most 60. */
export const LONG_RUN = { minDurationSeconds: 15 * 60, untilAutovacuums: 3, durationSeconds: 60 * 60 } as const;

/** The fields of a config that make it a long run. */
export interface LongRunFields {
  durationSeconds: number;
  untilAutovacuums?: number;
  minDurationSeconds?: number;
}

/** A long run's end: N autovacuum runs after at least `minSeconds`; null for a window that runs its duration. */
export interface LongRun {
  untilAutovacuums: number;
  minSeconds: number;
  capSeconds: number;
}

export function longRunOf(c: LongRunFields): LongRun | null {
  if (c.untilAutovacuums === undefined) return null;
  return { untilAutovacuums: c.untilAutovacuums, minSeconds: c.minDurationSeconds ?? 0, capSeconds: c.durationSeconds };
}

/** Whether the window ends now: enough autovacuum runs, and the minimum passed (the cap is the window's own end). */
export const longRunEnded = (l: LongRun, elapsedSeconds: number, autovacuums: number): boolean =>
  autovacuums >= l.untilAutovacuums && elapsedSeconds >= l.minSeconds;

/** Why a config's long-run fields cannot be (a minimum without its count): the field and the message, or null. */
export function longRunConfigProblem(c: Omit<LongRunFields, "durationSeconds">): { path: string; message: string } | null {
  if (c.minDurationSeconds !== undefined && c.untilAutovacuums === undefined)
    return {
      path: "minDurationSeconds",
      message: "Minimum duration only applies with Until autovacuums (the measured duration is otherwise the window): set both, or leave it out",
    };
  // A minimum beyond the cap is not refused: the window then ends at the cap, as the note says (the form's short
  // window of a long preset is such a run: the same shape, 60 s).
  return null;
}

/** Why the engine cannot run this long run: it needs the telemetry, which counts the autovacuum runs; or null. */
export function longRunRunProblem(c: LongRunFields, telemetry: boolean): string | null {
  if (c.untilAutovacuums === undefined || telemetry) return null;
  return "a long run (until autovacuums) needs the server telemetry, which counts the autovacuum runs: run it with telemetry on";
}

/** Why a long run cannot be split over runner processes (lib/workloads/parts.ts partsProblem: the form, the API and
 *  the engine ask it): its window ends on the one process's telemetry. */
export function longRunPartsProblem(c: LongRunFields & { processes?: number }): string | null {
  if (c.untilAutovacuums === undefined || (c.processes ?? 1) <= 1) return null;
  return `a long run (until autovacuums) runs in one process, whose telemetry ends the window: set processes to 1 (it is ${c.processes})`;
}

/** "45 s" under two minutes, "16.4 min" from there. */
const minutes = (sec: number) =>
  sec < 120 ? `${Math.round(sec).toLocaleString("en-US")} s` : `${(sec / 60).toLocaleString("en-US", { maximumFractionDigits: 1 })} min`;
const runs = (n: number) => `${n.toLocaleString("en-US")} autovacuum ${n === 1 ? "run" : "runs"}`;

/**
 * The summary's note on why a long run's window ended: the autovacuum runs reached (after how long), the cap
 * reached with fewer, or the workload's own end (a drain that finished) before either.
 */
export function longRunNote(l: LongRun, o: { elapsedSeconds: number; autovacuums: number }): string {
  const bounds = `at least ${minutes(l.minSeconds)}, at most ${minutes(l.capSeconds)}`;
  const asked = `${l.untilAutovacuums.toLocaleString("en-US")} asked`;
  const had = `${runs(o.autovacuums)} of the run's tables`;
  if (longRunEnded(l, o.elapsedSeconds, o.autovacuums))
    return `long run: the measured window ended after ${minutes(o.elapsedSeconds)}, once the run's tables had ${runs(o.autovacuums)} (${asked}; ${bounds})`;
  if (o.elapsedSeconds < l.capSeconds - 1)
    return `long run: the workload finished its window after ${minutes(o.elapsedSeconds)}, with ${had} (${asked}; ${bounds})`;
  // At the cap: too few runs, or (a minimum beyond the cap: the form's short window of a long preset) enough of them.
  return o.autovacuums < l.untilAutovacuums
    ? `long run: the ${minutes(l.capSeconds)} cap was reached with only ${had} (${asked})`
    : `long run: the ${minutes(l.capSeconds)} cap was reached before the ${minutes(l.minSeconds)} minimum, with ${had} (${asked})`;
}

/** A long run's knob in words, beside the workload's own ("3,600 s measured" is then its cap): "until 3 autovacuum
 *  runs, at least 15 min"; none for a window that runs its duration. */
export function longRunWords(c: LongRunFields): string[] {
  const l = longRunOf(c);
  if (!l) return [];
  return [`until ${runs(l.untilAutovacuums)}${l.minSeconds > 0 ? `, at least ${minutes(l.minSeconds)}` : ""} (the duration its cap)`];
}

/** The long-run preset of a workload: its `config` (a moderate rate: an hour of unthrottled writes could fill a
 *  disk) at the long-run window. */
export function longRunPreset<K extends string, C extends Record<string, unknown>>(kind: K, title: string, what: string, config: C) {
  return {
    id: `${kind}-long-run`,
    label: `${title}: long run (until 3 autovacuums)`,
    description: `${what}; measured for at least 15 min and until autovacuum has run 3 times on the run's tables, at most 60 min.`,
    config: { kind, ...config, ...LONG_RUN },
  };
}
