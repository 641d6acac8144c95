// The verdict rule on synchronous replication: the run's commits waited for a synchronous standby to confirm them
// (the run's active backends on IPC:SyncRep), or a replication stall held them (./replication.ts: none of the
// standbys that confirm commits was streaming). It sits in the server rules' tier: the largest wait share wins, so
// a server whose WAL flush or CPU waits more is named before it.
import { fmtLatency } from "../runs/numbers";
import { eventsOf, SYNC_REP_WAIT } from "./replication";
import { eventWords, syncRole } from "./replication-words";
import type { ReplicationEvent } from "./replication-shape";
import type { PaceInput } from "./pace-rules";
import { fact, ge, pct, THRESHOLDS } from "./verdict-evidence";
import type { RuleCategory, RuleContext, VerdictRule } from "./verdict-rule";
import type { Evidence, Finding } from "./verdict-shape";
import type { TelemetryWindow } from "./window";

type Stall = Extract<ReplicationEvent, { kind: "replication-stall" }>;

/** The window's longest replication stall. */
export const longestStall = (w: TelemetryWindow | undefined): Stall | undefined =>
  eventsOf(w?.replication, "replication-stall").sort((a, b) => b.seconds - a.seconds)[0];

/**
 * The replication stall behind the run's longest stall (./pace-rules.ts): one that overlaps it, a second's slack
 * either side (the window's seconds are the engine's ticks), as stallBlocker (./held-snapshot.ts) finds a lock.
 */
export function stallReplication(w: TelemetryWindow | undefined, pace: PaceInput | undefined): Stall | undefined {
  const st = pace?.facts?.stalls[0];
  if (!st) return undefined;
  return eventsOf(w?.replication, "replication-stall").find((e) => e.toSec >= st.startSec - 1 && e.fromSec <= st.startSec + st.seconds + 1);
}

const syncRepShare = (w: TelemetryWindow) => w.runWaitShares[SYNC_REP_WAIT] ?? 0;

/** The standbys that confirmed commits (sync or quorum at some reading). */
const confirming = (w: TelemetryWindow) => (w.replication?.standbys ?? []).filter((s) => s.syncStates.some((x) => x === "sync" || x === "quorum"));

/** A commit waits for its standby's write (remote_write), flush (on) or replay (remote_apply): each one's lag in time. */
const LAGS = [
  ["write", "writeLagMs"],
  ["flush", "flushLagMs"],
  ["replay", "replayLagMs"],
] as const;

function confirmingLags(w: TelemetryWindow): Evidence[] {
  return confirming(w).flatMap((s) =>
    LAGS.flatMap(([what, key]) => (s[key] ? [fact(`${s.name} (${s.syncStates.join(" → ")}) ${what} lag in time, p50`, s[key].p50, "ms")] : [])),
  );
}

/** "pg2 was the synchronous standby (lag in time, p50: write 0.03 ms, flush 0.06 ms, replay 5.31 ms)". */
function confirmingWords(w: TelemetryWindow): string[] {
  return confirming(w).map((s) => {
    const lags = LAGS.flatMap(([what, key]) => (s[key] ? [`${what} ${fmtLatency(s[key].p50)}`] : []));
    const role = s.syncStates.includes("sync") ? syncRole("sync") : syncRole("quorum");
    return `${s.name} was ${role}${lags.length ? ` (lag in time, p50: ${lags.join(", ")})` : ""}`;
  });
}

function replicationBound({ w }: RuleContext): Finding {
  if (!w) return { category: "replication-bound", matched: false, evidence: [] };
  const stall = longestStall(w);
  const active = ge("share of time the run's connections were active", w.runActiveShare, THRESHOLDS.serverActiveShare, "ratio");
  const waits = ge(`share of active waits on ${SYNC_REP_WAIT} (a commit waiting for a synchronous standby)`, syncRepShare(w), THRESHOLDS.syncRepShare, "ratio");
  const ev: Evidence[] = [
    active,
    waits,
    ...(stall ? [fact(`a replication stall, the longest: ${eventWords(stall)}`, stall.seconds, "s")] : []),
    ...(w.replication
      ? [
          fact("share of the run's connections' time waiting on SyncRep (active or idle)", w.replication.syncRepShareOfRun, "ratio"),
          fact("standbys seen", w.replication.standbys.length, "standbys"),
        ]
      : []),
    ...confirmingLags(w),
  ];
  const waited = active.holds === true && waits.holds === true;
  // A stall is the strongest evidence: it suffices alone, and the shares are then context.
  if (stall && !waited) for (const e of [active, waits]) delete e.holds;
  return { category: "replication-bound", matched: waited || stall !== undefined, evidence: ev };
}

/** Its statement: how much of the run waited for a standby, on which setting, and the stall when there was one. */
function replicationWords({ w }: RuleContext): string {
  const r = w!.replication;
  const names = r?.synchronousStandbyNames ? ` (synchronous_standby_names '${r.synchronousStandbyNames}')` : "";
  const standbys = confirmingWords(w!);
  const stall = longestStall(w);
  return `replication-bound: ${pct(syncRepShare(w!))} of the run's active backends waited for a synchronous standby to confirm their commits (${SYNC_REP_WAIT})${names}${standbys.length ? `; ${standbys.join("; ")}` : ""}${stall ? `; ${eventWords(stall)}` : ""}`;
}

export const REPLICATION_RULES = {
  "replication-bound": {
    label: "replication-bound (synchronous standby)",
    tier: 3,
    cause: true,
    missedRate: "as-limit",
    judge: replicationBound,
    strength: ({ w }) => Math.max(syncRepShare(w!), longestStall(w) ? 1 : 0),
    words: replicationWords,
  },
} satisfies Partial<Record<RuleCategory, VerdictRule>>;
