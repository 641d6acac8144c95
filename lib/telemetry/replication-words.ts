// Replication in words, for every view (the CLI's lines, the run page, the verdict): each event of a window
// (./replication.ts), each standby's lag, and what a missing lag time means. Browser-safe.
import { fmtLatency } from "../runs/numbers";
import type { ReplicationEvent, ReplicationWindow, Spread, StandbyFigures } from "./replication-shape";

const dec = (x: number, d = 1) => x.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: 0 });

/** Bytes as people read them: "812 B", "64 KiB", "1.5 MiB", "2.1 GiB". */
export function bytesText(b: number): string {
  const a = Math.abs(b);
  if (a >= 1024 ** 3) return `${dec(b / 1024 ** 3)} GiB`;
  if (a >= 1024 ** 2) return `${dec(b / 1024 ** 2)} MiB`;
  if (a >= 1024) return `${dec(b / 1024)} KiB`;
  return `${Math.round(b).toLocaleString("en-US")} B`;
}

/** What a missing lag time is: pg_stat_replication gives none once a standby has caught up and no WAL is sent. */
export const LAG_TIME_NULL =
  "no lag time: the standby had replayed everything and no WAL was being sent (pg_stat_replication's write_lag, flush_lag and replay_lag are NULL then), not a lag of 0 measured";

const sec = (s: number) => `${dec(s)} s`;
const span = (e: { fromSec: number; toSec: number; seconds: number; ongoing: boolean }) =>
  `for ${sec(e.seconds)}, ${dec(e.fromSec)}–${dec(e.toSec)} s${e.ongoing ? " (still so at the window's end)" : ""}`;

/** A sync state as a role: "the synchronous standby", "a potential synchronous standby", "asynchronous". */
export function syncRole(state: string): string {
  if (state === "sync") return "the synchronous standby";
  if (state === "potential") return "a potential synchronous standby";
  if (state === "quorum") return "a quorum standby";
  return state === "async" ? "asynchronous" : state;
}

/** "FIRST 1 (pg2, pg3)", or what an empty setting means. */
const namesText = (names: string) => names || "the synchronous standbys (synchronous_standby_names is empty now)";

function stallWords(e: Extract<ReplicationEvent, { kind: "replication-stall" }>): string {
  const commits = e.commitsPerSecMin !== undefined ? `, commits down to ${dec(e.commitsPerSecMin)}/s` : "";
  return `commits waited for a synchronous standby ${span(e)}: none of ${namesText(e.synchronousStandbyNames)} was streaming (the run's connections waiting on SyncRep: ${dec(e.syncRepWaitsAvg)} on average, up to ${dec(e.syncRepWaitsMax)}${commits})`;
}

function replayWords(e: Extract<ReplicationEvent, { kind: "replay-behind" }>): string {
  const replayed = e.replayedBytes === 0 ? "its replay did not advance" : `it replayed only ${bytesText(e.replayedBytes)}`;
  const time = e.replayLagMsMax !== null ? `, replay_lag up to ${fmtLatency(e.replayLagMsMax)}` : "";
  const flushTime = e.flushLagMsMax !== null ? `, flush_lag up to ${fmtLatency(e.flushLagMsMax)}` : "";
  const gap =
    e.replayGapEndBytes > e.replayGapStartBytes
      ? `WAL flushed there and not replayed grew from ${bytesText(e.replayGapStartBytes)} to ${bytesText(e.replayGapEndBytes)}`
      : `${bytesText(e.replayGapEndBytes)} of WAL flushed there stayed unreplayed`;
  return `${e.standby} fell behind replaying ${span(e)}: ${gap} (${replayed}${time}), while its writes and flushes kept up (their lag at most ${bytesText(Math.max(e.writeLagBytesMax, e.flushLagBytesMax))}${flushTime})`;
}

/** One event in words, timed in seconds into the window. */
export function eventWords(e: ReplicationEvent): string {
  switch (e.kind) {
    case "stopped":
      return `${e.standby} stopped streaming at ${sec(e.atSec)}${e.state ? ` (${e.state})` : ""}; it was ${syncRole(e.syncState)}`;
    case "started":
      return `${e.standby} started streaming at ${sec(e.atSec)}, as ${syncRole(e.syncState)}`;
    case "sync-state":
      return `${e.standby} became ${syncRole(e.to)} at ${sec(e.atSec)} (was ${syncRole(e.from)})`;
    case "replication-stall":
      return stallWords(e);
    case "replay-behind":
      return replayWords(e);
  }
}

/** "p50 1.2 KiB, max 3.4 MiB" of a spread, or "not measured". */
const spreadText = (s: Spread | undefined, f: (x: number) => string) => (s ? `p50 ${f(s.p50)}, max ${f(s.max)}` : "not measured");

/** One standby over the window: its sync states, replay and flush lag, the WAL its slot kept. */
export function standbyLine(s: StandbyFigures, seconds: number): string {
  const states = s.syncStates.join(" → ");
  const nullTime = s.lagTimeNullSec > 0 ? ` (no lag time in ${sec(s.lagTimeNullSec)} of it: caught up and idle)` : "";
  const streamed = s.streamingSec < s.seenSec - 0.5 || s.seenSec < seconds - 0.5 ? `; streaming ${sec(s.streamingSec)} of the ${sec(seconds)} window` : "";
  const slot = s.retainedBytesMax !== undefined ? `; its slot kept up to ${bytesText(s.retainedBytesMax)} of WAL` : "";
  return `standby ${s.name} (${states}): replay lag ${spreadText(s.replayLagBytes, bytesText)}; in time ${spreadText(s.replayLagMs, fmtLatency)}${nullTime}; flush lag ${spreadText(s.flushLagBytes, bytesText)}, in time ${spreadText(s.flushLagMs, fmtLatency)}${streamed}${slot}`;
}

/** Replication over a window, one line each: the setting and the waits, each standby, idle slots, each event. */
export function replicationLines(r: ReplicationWindow, seconds: number): string[] {
  return [
    `replication: synchronous_standby_names ${r.synchronousStandbyNames ? `'${r.synchronousStandbyNames}'` : "empty (commits wait for no standby)"}; the run's connections waited for a standby (SyncRep) ${dec(100 * r.syncRepShareOfRun, 0)}% of their time, up to ${dec(r.syncRepWaitsMax)} at once`,
    ...r.standbys.map((s) => standbyLine(s, seconds)),
    ...r.idleSlots.map(
      (s) =>
        `slot ${s.slot} (${s.type}) with no standby connected kept ${s.retainedBytesMax === null ? "an unknown amount" : `up to ${bytesText(s.retainedBytesMax)}`} of WAL`,
    ),
    ...r.events.map((e) => `replication event: ${eventWords(e)}`),
    ...(r.eventsDropped ? [`replication events: ${r.eventsDropped} more not kept`] : []),
  ];
}
