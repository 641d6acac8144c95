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

const syncRepShare = (w: TelemetryWindow) => w.runWaitShares[SYNC_REP_WAIT] ?? 0;

type Replay = Extract<ReplicationEvent, { kind: "replay-behind" }>;

/**
 * Replays that held commits up: a standby that confirms commits fell behind replaying while the run's commits waited
 * for a synchronous standby (SyncRep at least its threshold: synchronous_commit remote_apply waits for the replay).
 */
function heldReplays(w: TelemetryWindow | undefined): Replay[] {
  if (!w || syncRepShare(w) < THRESHOLDS.syncRepShare) return [];
  const names = new Set(confirming(w).map((s) => s.name));
  return eventsOf(w.replication, "replay-behind").filter((e) => names.has(e.standby));
}

/** "commits waited for a synchronous standby to replay them (…) while pg2 fell behind replaying …". */
const heldReplayWords = (e: Replay) =>
  `commits waited for a synchronous standby to replay them (${SYNC_REP_WAIT}, as synchronous_commit remote_apply makes them) while ${eventWords(e)}`;

/**
 * What replication held the run's longest stall (./pace-rules.ts) up, in words: a replication stall within it, or
 * a replay that held commits up (heldReplays) within it; a second's slack either side (the window's seconds are the
 * engine's ticks), as stallBlocker (./held-snapshot.ts) finds a lock.
 */
export function stallReplication(w: TelemetryWindow | undefined, pace: PaceInput | undefined): { words: string; seconds: number } | undefined {
  const st = pace?.facts?.stalls[0];
  if (!st) return undefined;
  const within = (e: { fromSec: number; toSec: number }) => e.toSec >= st.startSec - 1 && e.fromSec <= st.startSec + st.seconds + 1;
  const stall = eventsOf(w?.replication, "replication-stall").find(within);
  if (stall) return { words: eventWords(stall), seconds: stall.seconds };
  const replay = heldReplays(w).find(within);
  return replay ? { words: heldReplayWords(replay), seconds: replay.seconds } : undefined;
}

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
  const replay = stall ? undefined : heldReplays(w).sort((a, b) => b.seconds - a.seconds)[0];
  const event = stall ? eventWords(stall) : replay ? heldReplayWords(replay) : undefined;
  return `replication-bound: ${pct(syncRepShare(w!))} of the run's active backends waited for a synchronous standby to confirm their commits (${SYNC_REP_WAIT})${names}${standbys.length ? `; ${standbys.join("; ")}` : ""}${event ? `; ${event}` : ""}`;
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
