// A finished run's replication as its summary holds it (RunSummary.telemetry.window.replication, written by
// lib/telemetry/replication.ts over the measured window): each standby's lag and sync states, the waits for a
// synchronous standby, and the replication events, for whoever reads summaries (the synchronous commit ladder,
// compare, the CLI's --json readers). Summaries stored before replication was recorded, or of a single node, have none.
import type { ReplicationEvent, StandbyFigures } from "../telemetry/replication-shape";
import { SYNC_REP_WAIT } from "../telemetry/replication";
import type { RunSummary } from "./summary";

export interface RunReplication {
  /** synchronous_standby_names as last read ("" when commits waited for no standby). */
  synchronousStandbyNames: string;
  /** synchronous_commit as a new session of the run's role started with it (absent in runs stored before it was kept). */
  synchronousCommit?: string;
  /** Per standby: its sync states seen, replay/flush/write lag in bytes and ms (p50 and max over the seconds measured). */
  standbys: StandbyFigures[];
  /** Share of the run's active backend readings waiting on SyncRep, and of all of them (active or idle), 0–1. */
  syncRepShareOfActive: number;
  syncRepShareOfRun: number;
  /** Standbys stopping, starting or changing sync state; replication stalls; replays falling behind: in seconds into the measured window. */
  events: ReplicationEvent[];
}

/** The run's replication over its measured window, or undefined when it recorded none. */
export function replicationOf(s: Pick<RunSummary, "telemetry">): RunReplication | undefined {
  const w = s.telemetry?.window;
  const r = w?.replication;
  if (!w || !r) return undefined;
  return {
    synchronousStandbyNames: r.synchronousStandbyNames,
    ...(s.telemetry?.info.synchronousCommit ? { synchronousCommit: s.telemetry.info.synchronousCommit } : {}),
    standbys: r.standbys,
    syncRepShareOfActive: w.runWaitShares[SYNC_REP_WAIT] ?? 0,
    syncRepShareOfRun: r.syncRepShareOfRun,
    events: r.events,
  };
}
