// The held snapshot (a session outside the run holding the xmin horizon) and the lock behind a stall: causes
// that are not one wait event, each named with its holder (docs/verdict.md, rules 1 and 8). Browser-safe; the
// verdict's rules (./verdict-rules-tables.ts, ./verdict-rules-pace.ts) call them.
import { phaseOfApplication } from "../phases/shape";
import { behindSchedule, consumersBehind, type PaceInput } from "./pace-rules";
import { fact, ge, gt, lt, num, paceOf, THRESHOLDS } from "./verdict-evidence";
import type { Evidence, Finding, VerdictInput } from "./verdict-shape";
import type { TelemetryWindow } from "./window";

const q = (s: string, n = 120) => JSON.stringify(s.length > n ? `${s.slice(0, n)}…` : s);

/** "AccessExclusiveLock on pgbb_x.queue held by pid 4242 ("psql"): "LOCK TABLE …"". */
export function blockerWords(b: NonNullable<TelemetryWindow["lockBlockers"]>[number]): string {
  const held = b.mode ? `${b.mode} on ${b.relation} held by` : `${b.relation}, waited for behind`;
  return `${held} pid ${b.pid}${b.applicationName ? ` (${q(b.applicationName, 60)})` : ""}${b.query ? `: ${q(b.query)}` : ""}`;
}

/**
 * The lock behind the longest stall: of the sessions the wait sampler saw blocking the run's connections, read
 * during the waits, one seen within the stall (a second's slack either side: the window's seconds are the engine's
 * ticks), a holder of the lock before one only ahead in line, then the one seen in the most readings.
 */
export function stallBlocker(w: TelemetryWindow, pace: PaceInput) {
  const st = pace.facts?.stalls[0];
  if (!st || !w.lockBlockers) return undefined;
  const from = st.startSec - 1;
  const to = st.startSec + st.seconds + 1;
  return w.lockBlockers.filter((b) => b.toSec >= from && b.fromSec <= to).sort((a, b) => Number(!!b.mode) - Number(!!a.mode) || b.readings - a.readings)[0];
}

/** The operation the run is short of: the consumers' claim when they fell behind, the paced operation's main one otherwise. */
function slowedOperation(pace: PaceInput | undefined): { what: string; first?: number; last?: number } | undefined {
  const f = pace?.facts;
  if (!pace || !f?.firstThird || !f.lastThird) return undefined;
  if (pace.spec.consumer && consumersBehind(pace).matched)
    return { what: "the consumers' claim", first: f.firstThird.claimP50Ms, last: f.lastThird.claimP50Ms };
  return { what: `the ${pace.spec.label}`, first: f.firstThird.p50Ms, last: f.lastThird.p50Ms };
}

/**
 * held snapshot: a session outside the run (named: pid, application, state, query) held the xmin horizon, so the
 * dead tuples the run leaves stay and every scan steps over them. It matches when its transaction was open
 * xminHeldSec or more, or when one older than the window (and heldSnapshotMinSec) held it heldSnapshotShare of the
 * window while the run fell behind or slowed. It leads (before the other causes, and consumers behind yields to
 * it) when the run fell behind or slowed and either the holder is older than the window, or the operation the run
 * is short of slowed by more than the leading wait's share explains (removing that wait entirely would shorten
 * the operation by its share at most: a slowdown beyond 1 / (1 − share) is not the wait's).
 */
export function heldSnapshot(input: VerdictInput, w: TelemetryWindow | undefined): { finding: Finding; leads: boolean } {
  const h = w?.xminHolder;
  if (!w || !h) {
    // No holder named (a window stored before holders were recorded): the oldest open transaction alone, as before.
    if (w?.oldestXactSecMax === undefined) return { finding: { category: "held-snapshot", matched: false, evidence: [] }, leads: false };
    const e = ge("oldest open transaction (its session not recorded)", w.oldestXactSecMax, THRESHOLDS.xminHeldSec, "s");
    const ev = [e, ...(w.xminAgeXidsMax !== undefined ? [fact("xmin horizon age", w.xminAgeXidsMax, "transactions")] : [])];
    return { finding: { category: "held-snapshot", matched: e.holds === true, evidence: ev }, leads: false };
  }
  const pace = paceOf(input);
  const long = ge("the holder's transaction open", h.xactSec, THRESHOLDS.xminHeldSec, "s");
  const older = ge("its age / the window's length (open before the window began)", h.fromStart ? h.xactSec / w.seconds : 0, 1, "ratio");
  const old = ge("its age (older than the window)", h.xactSec, THRESHOLDS.heldSnapshotMinSec, "s");
  const held = ge("share of the window it held the horizon", w.seconds > 0 ? h.heldSec / w.seconds : 0, THRESHOLDS.heldSnapshotShare, "ratio");
  const behind = consumersBehind(pace).matched || behindSchedule(pace).matched;
  const op = slowedOperation(pace);
  const ratio = op?.first && op.last !== undefined ? op.last / op.first : undefined;
  const f = pace?.facts;
  const rateRatio = f?.firstThird && f.lastThird && f.firstThird.rate > 0 ? f.lastThird.rate / f.firstThird.rate : undefined;
  const slowed = (ratio !== undefined && ratio >= THRESHOLDS.slowLatencyFactor) || (rateRatio !== undefined && rateRatio <= THRESHOLDS.slowRateShare);
  // The leading wait (other than CPU) and the slowdown it could explain.
  const [leadWait, leadShare] = Object.entries(w.runWaitShares).filter(([k]) => k !== "CPU")[0] ?? ["none", 0];
  const beyond = ratio !== undefined && ratio >= THRESHOLDS.slowLatencyFactor && ratio * (1 - leadShare) > 1;
  const ev: Evidence[] = [
    fact(`the holder: pid ${h.pid}${h.applicationName ? ` (${q(h.applicationName, 60)})` : ""}, ${h.state}${h.query ? `: ${q(h.query)}` : ""}`, h.pid, "pid"),
    long,
    older,
    old,
    held,
    ...(h.xminAgeXids !== undefined ? [fact("the horizon's age it held", h.xminAgeXids, "transactions")] : []),
    ...(w.tables
      ? [fact("dead tuples at the window's start", w.tables.deadTuplesStart, "tuples"), fact("dead tuples at its end", w.tables.deadTuplesEnd, "tuples")]
      : []),
    fact("the run fell behind (consumers behind or behind schedule: 1 yes, 0 no)", behind ? 1 : 0, ""),
    ...(ratio !== undefined ? [ge(`${op!.what}'s latency p50, last third / first third`, ratio, THRESHOLDS.slowLatencyFactor, "ratio")] : []),
    ...(rateRatio !== undefined ? [lt("last third's rate / the first third's", rateRatio, THRESHOLDS.slowRateShare, "ratio")] : []),
    ...(ratio !== undefined ? [gt(`that slowdown × (1 − the leading wait's share: ${leadWait})`, ratio * (1 - leadShare), 1, "ratio")] : []),
  ];
  const affected = behind || slowed;
  const olderThanWindow = older.holds === true && old.holds === true && held.holds === true;
  const leads = affected && held.holds === true && old.holds === true && (olderThanWindow || beyond);
  // The run's own hold-xmin or long-reader phase held it (its session is named for it): a cause the run provoked and
  // knows it did, found whatever its length, leading only by the rules above.
  const phase = phaseOfApplication(h.applicationName);
  if (phase) ev.push(fact(`held by the run's own phase ${phase}, for`, h.heldSec, "s"));
  const matched = long.holds === true || leads || phase !== null;
  // Either path suffices: when one holds, the other's unmet thresholds are context.
  if (matched) for (const e of ev) if (e.holds === false) delete e.holds;
  return { finding: { category: "held-snapshot", matched, evidence: ev }, leads };
}

/** The held snapshot's statement: the holder, how long, what it kept and slowed, and what to do. */
export function heldSnapshotWords(w: TelemetryWindow, pace: PaceInput | undefined): string {
  const h = w.xminHolder;
  if (!h) return `held snapshot: a transaction open ${num(w.oldestXactSecMax ?? 0)} s held the xmin horizon (its session was not recorded)`;
  const who = `pid ${h.pid}${h.applicationName ? `, application ${q(h.applicationName, 60)}` : ""}, ${h.state}${h.query ? `, last query ${q(h.query)}` : ""}`;
  const parts = [
    `held snapshot: a transaction open ${num(h.xactSec)} s (${who}) held the xmin horizon for ${num(h.heldSec)} s of the ${num(w.seconds)} s window`,
  ];
  if (w.tables)
    parts.push(`the run's dead tuples, which vacuum cannot remove behind it, went from ${num(w.tables.deadTuplesStart)} to ${num(w.tables.deadTuplesEnd)}`);
  const op = slowedOperation(pace);
  if (op?.first && op.last !== undefined && op.last / op.first >= THRESHOLDS.slowLatencyFactor)
    parts.push(`${op.what}'s p50 rose from ${fmtMs(op.first)} to ${fmtMs(op.last)} (${num(op.last / op.first)}×)`);
  const timeout = h.state.startsWith("idle in transaction")
    ? "idle_in_transaction_session_timeout"
    : "statement_timeout (transaction_timeout on PostgreSQL 17+)";
  // The run's own phase held it, as it was asked to: say so, and what would bound such a session in production.
  const phase = phaseOfApplication(h.applicationName);
  if (phase) return `${parts.join("; ")}: the run's own phase ${phase} held it, as asked; in production, bound such sessions with ${timeout}`;
  return `${parts.join("; ")}: end it (SELECT pg_terminate_backend(${h.pid})), and bound such sessions with ${timeout}`;
}

const fmtMs = (ms: number) => `${ms < 10 ? ms.toFixed(2) : num(ms)} ms`;
