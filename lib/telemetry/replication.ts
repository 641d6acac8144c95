// Replication over a window, one reading at a time in bounded memory (./window.ts WindowAccumulator feeds it):
// each standby's lag (median and largest, in bytes and in time), its sync states, the slots no standby used, the
// run's waits for a synchronous standby (IPC:SyncRep), and the events the readings show, each timed: a standby that
// stops or starts streaming or changes sync state, a replication stall (commits wait for a synchronous standby
// while none that could confirm them streams), a replay falling behind while writes and flushes keep up.
// Browser-safe; the words are ./replication-words.ts, the verdict's rule ./verdict-rules-replication.ts.
import { build, type Histogram } from "hdr-histogram-js";
import type { ReplicationEvent, ReplicationReading, ReplicationWindow, Spread, StandbyFigures, StandbyReading } from "./replication-shape";
import type { TelemetrySample } from "./shape";

export const REPLICATION_THRESHOLDS = {
  /** A reading is part of a replication stall when the run's backends waiting on SyncRep averaged at least this many … */
  stallSyncRepWaits: 0.5,
  /** … while no standby that confirms commits (sync or quorum) was streaming, for at least this many readings in a row. */
  stallReadings: 2,
  /** A standby falls behind replaying in a reading when WAL arrived (its flush position advanced) and it replayed
   *  less than this share of it, or when its replay did not advance with WAL flushed there to replay (a stuck
   *  replay, even once nothing new arrives: commits waiting for it write none), while its write and flush lag
   *  stayed under half its replay gap … */
  replayShare: 0.5,
  /** … for at least this many readings in a row, its replay gap (flushed, not replayed) then at least this many
   *  bytes, or its replay lag in time this many ms, or its replay stuck throughout (one that holds commits up leaves
   *  a small gap, and no new WAL to time its lag by). */
  replayBehindReadings: 3,
  replayBehindMinBytes: 64 * 1024,
  replayBehindMinMs: 1000,
  /** Events kept (the rest counted), and standbys followed: memory stays bounded however often standbys come and go. */
  maxEvents: 50,
  maxStandbys: 32,
} as const;
const T = REPLICATION_THRESHOLDS;

/** The wait event of a backend waiting for a synchronous standby to confirm its commit. */
export const SYNC_REP_WAIT = "IPC:SyncRep";

/** The sync states in which a standby confirms commits (commits wait for it). */
const CONFIRMS = new Set(["sync", "quorum"]);

/** A median and a maximum in bounded memory: a histogram at two significant digits (1% apart), the exact max kept. */
class SpreadAcc {
  private h: Histogram | undefined;
  private max = Number.NEGATIVE_INFINITY;
  constructor(private readonly scale = 1) {}
  add(v: number | null | undefined) {
    if (v === null || v === undefined || !Number.isFinite(v)) return;
    this.h ??= build({ lowestDiscernibleValue: 1, highestTrackableValue: 2, numberOfSignificantValueDigits: 2, autoResize: true, bitBucketSize: "packed" });
    this.h.recordValue(Math.max(0, Math.round(v * this.scale)));
    this.max = Math.max(this.max, v);
  }
  result(): Spread | undefined {
    if (!this.h || this.h.totalCount === 0) return undefined;
    return { p50: Math.min(this.h.getValueAtPercentile(50) / this.scale, this.max), max: this.max };
  }
}

/** A stretch of readings in a row (a stall, a replay falling behind) as it grows. */
interface Stretch {
  fromSec: number;
  toSec: number;
  readings: number;
}

interface ReplayStretch extends Stretch {
  gapStart: number;
  gapEnd: number;
  replayed: number;
  replayLagBytesMax: number;
  replayLagMsMax: number | null;
  writeLagBytesMax: number;
  flushLagBytesMax: number;
  writeLagMsMax: number | null;
  flushLagMsMax: number | null;
}

interface StallStretch extends Stretch {
  waitsSum: number;
  waitsMax: number;
  commitsMin?: number;
}

const maxOrNull = (a: number | null, b: number | null) => (b === null ? a : a === null ? b : Math.max(a, b));

/** One standby's figures and what the last reading showed of it. */
class StandbyAcc {
  syncStates: string[] = [];
  seenSec = 0;
  streamingSec = 0;
  lagTimeNullSec = 0;
  retainedMax: number | undefined;
  readonly lag = {
    replayLagBytes: new SpreadAcc(),
    flushLagBytes: new SpreadAcc(),
    writeLagBytes: new SpreadAcc(),
    replayLagMs: new SpreadAcc(1000),
    flushLagMs: new SpreadAcc(1000),
    writeLagMs: new SpreadAcc(1000),
  };
  /** Its flush and replay positions at the previous reading (bytes from 0/0), while it streamed. */
  prevPos?: { flush: number; replay: number };
  replay?: ReplayStretch;

  constructor(readonly name: string) {}

  add(r: StandbyReading, sec: number) {
    if (!this.syncStates.includes(r.syncState)) this.syncStates.push(r.syncState);
    this.seenSec += sec;
    if (r.state === "streaming") this.streamingSec += sec;
    for (const k of Object.keys(this.lag) as (keyof StandbyAcc["lag"])[]) this.lag[k].add(r[k]);
    if (r.replayLagMs === null) this.lagTimeNullSec += sec;
    if (r.retainedBytes !== null && r.retainedBytes !== undefined) this.retainedMax = Math.max(this.retainedMax ?? 0, r.retainedBytes);
  }

  figures(): StandbyFigures {
    const spreads = Object.fromEntries(
      Object.entries(this.lag).flatMap(([k, acc]) => {
        const s = acc.result();
        return s ? [[k, s]] : [];
      }),
    );
    return {
      name: this.name,
      syncStates: this.syncStates,
      seenSec: this.seenSec,
      streamingSec: this.streamingSec,
      ...spreads,
      lagTimeNullSec: this.lagTimeNullSec,
      ...(this.retainedMax !== undefined ? { retainedBytesMax: this.retainedMax } : {}),
    };
  }
}

/** Whether a standby at a reading replayed less than its share of the WAL that arrived, or nothing of the WAL it had
 *  to replay, its write and flush keeping up. */
function fallingBehind(r: StandbyReading, lsn: number, prev: { flush: number; replay: number }) {
  const flush = lsn - r.flushLagBytes!;
  const replay = lsn - r.replayLagBytes!;
  const arrived = flush - prev.flush;
  const replayed = replay - prev.replay;
  const gap = flush - replay;
  const keptUp = (r.writeLagBytes ?? 0) <= gap / 2 && r.flushLagBytes! <= gap / 2;
  const slow = arrived > 0 && replayed < T.replayShare * arrived;
  const stuck = replayed <= 0 && gap > 0;
  return { pos: { flush, replay }, gap, replayed, falling: (slow || stuck) && keptUp };
}

export class ReplicationAccumulator {
  private seen = false;
  private first = true;
  private names = "";
  private standbys = new Map<string, StandbyAcc>();
  private slots = new Map<string, { type: string; retainedBytesMax: number | null; seenSec: number }>();
  /** Streaming standbys at the previous reading: name → sync state. */
  private prevStreaming = new Map<string, string>();
  private syncRepSum = 0;
  private runSum = 0;
  private syncRepMax = 0;
  private stall?: StallStretch;
  private events: ReplicationEvent[] = [];
  private dropped = 0;

  /** One reading, its interval `fromSec`–`toSec` seconds into the window. */
  add(s: TelemetrySample, fromSec: number, toSec: number) {
    const r = s.replication;
    if (r) this.seen = true;
    if (r) this.names = r.synchronousStandbyNames;
    const sec = toSec - fromSec;
    const ticks = s.ticks ?? 1;
    const waits = ticks > 0 ? (s.runWaits[SYNC_REP_WAIT] ?? 0) / ticks : undefined;
    this.syncRepSum += s.runWaits[SYNC_REP_WAIT] ?? 0;
    this.runSum += s.run.total;
    if (waits !== undefined) this.syncRepMax = Math.max(this.syncRepMax, waits);
    this.addStandbys(r, sec, toSec);
    for (const x of r?.idleSlots ?? []) {
      const had = this.slots.get(x.slot) ?? { type: x.type, retainedBytesMax: null, seenSec: 0 };
      had.retainedBytesMax = maxOrNull(had.retainedBytesMax, x.retainedBytes);
      had.seenSec += sec;
      this.slots.set(x.slot, had);
    }
    this.addStall(r, waits, s.db?.commitsPerSec, fromSec, toSec);
    this.first = false;
  }

  /** Each standby's figures, the changes since the previous reading, and its replay's stretch. */
  private addStandbys(r: ReplicationReading | undefined, sec: number, toSec: number) {
    const now = new Map<string, StandbyReading>((r?.standbys ?? []).map((x) => [x.name, x]));
    for (const [name, syncState] of this.prevStreaming) {
      const x = now.get(name);
      if (x?.state !== "streaming") this.event({ kind: "stopped", standby: name, atSec: toSec, syncState, ...(x ? { state: x.state } : {}) });
      else if (x.syncState !== syncState) this.event({ kind: "sync-state", standby: name, atSec: toSec, from: syncState, to: x.syncState });
    }
    for (const x of now.values())
      if (x.state === "streaming" && !this.prevStreaming.has(x.name) && !this.first)
        this.event({ kind: "started", standby: x.name, atSec: toSec, syncState: x.syncState });
    this.prevStreaming = new Map([...now.values()].filter((x) => x.state === "streaming").map((x) => [x.name, x.syncState]));
    for (const x of now.values()) {
      let acc = this.standbys.get(x.name);
      // Bounded memory: standbys named by pid come back under new names each time they reconnect.
      if (!acc && this.standbys.size >= T.maxStandbys) continue;
      if (!acc) this.standbys.set(x.name, (acc = new StandbyAcc(x.name)));
      acc.add(x, sec);
      this.addReplay(acc, x, r?.lsn ?? null, sec, toSec);
    }
    // A standby not seen in this reading ends whatever stretch it was in.
    for (const acc of this.standbys.values()) if (!now.has(acc.name)) this.endReplay(acc);
  }

  private addReplay(acc: StandbyAcc, x: StandbyReading, lsn: number | null, sec: number, toSec: number) {
    if (x.state !== "streaming" || lsn === null || x.flushLagBytes === null || x.replayLagBytes === null) {
      acc.prevPos = undefined;
      return this.endReplay(acc);
    }
    const prev = acc.prevPos;
    const f = prev ? fallingBehind(x, lsn, prev) : undefined;
    acc.prevPos = f?.pos ?? { flush: lsn - x.flushLagBytes, replay: lsn - x.replayLagBytes };
    if (!f?.falling) return this.endReplay(acc);
    const s = (acc.replay ??= {
      fromSec: toSec - sec,
      toSec,
      readings: 0,
      gapStart: f.gap,
      gapEnd: f.gap,
      replayed: 0,
      replayLagBytesMax: 0,
      replayLagMsMax: null,
      writeLagBytesMax: 0,
      flushLagBytesMax: 0,
      writeLagMsMax: null,
      flushLagMsMax: null,
    });
    s.toSec = toSec;
    s.readings++;
    s.gapEnd = f.gap;
    s.replayed += Math.max(f.replayed, 0);
    s.replayLagBytesMax = Math.max(s.replayLagBytesMax, x.replayLagBytes);
    s.replayLagMsMax = maxOrNull(s.replayLagMsMax, x.replayLagMs);
    s.writeLagBytesMax = Math.max(s.writeLagBytesMax, x.writeLagBytes ?? 0);
    s.flushLagBytesMax = Math.max(s.flushLagBytesMax, x.flushLagBytes);
    s.writeLagMsMax = maxOrNull(s.writeLagMsMax, x.writeLagMs);
    s.flushLagMsMax = maxOrNull(s.flushLagMsMax, x.flushLagMs);
  }

  /** Closes a standby's replay stretch: an event when it was long and deep enough. */
  private endReplay(acc: StandbyAcc) {
    const e = acc.replay && replayEvent(acc.name, acc.replay, false);
    acc.replay = undefined;
    if (e) this.event(e);
  }

  private addStall(r: ReplicationReading | undefined, waits: number | undefined, commits: number | undefined, fromSec: number, toSec: number) {
    const confirming = (r?.standbys ?? []).some((x) => x.state === "streaming" && CONFIRMS.has(x.syncState));
    // A reading whose interval the wait sampler did not read (ticks 0) says nothing of the waits: a stall goes on
    // through it unless a standby confirms commits again.
    if (waits === undefined && !confirming) return;
    if (waits === undefined || waits < T.stallSyncRepWaits || confirming) return this.endStall();
    const s = (this.stall ??= { fromSec, toSec, readings: 0, waitsSum: 0, waitsMax: 0 });
    s.toSec = toSec;
    s.readings++;
    s.waitsSum += waits;
    s.waitsMax = Math.max(s.waitsMax, waits);
    if (commits !== undefined) s.commitsMin = Math.min(s.commitsMin ?? commits, commits);
  }

  private endStall() {
    const e = this.stall && stallEvent(this.stall, this.names, false);
    this.stall = undefined;
    if (e) this.event(e);
  }

  private event(e: ReplicationEvent) {
    if (this.events.length < T.maxEvents) this.events.push(e);
    else this.dropped++;
  }

  /** The window's replication, or undefined when no reading saw any (a single node, or samples from before). */
  result(): ReplicationWindow | undefined {
    if (!this.seen) return undefined;
    // Stretches still open at the window's end count as ongoing (left open: the window may grow).
    const open = [
      ...(this.stall ? [stallEvent(this.stall, this.names, true)] : []),
      ...[...this.standbys.values()].map((a) => a.replay && replayEvent(a.name, a.replay, true)),
    ].filter((e): e is ReplicationEvent => e !== undefined);
    const kept = open.slice(0, Math.max(T.maxEvents - this.events.length, 0));
    const dropped = this.dropped + open.length - kept.length;
    return {
      synchronousStandbyNames: this.names,
      standbys: [...this.standbys.values()].map((a) => a.figures()).sort((a, b) => a.name.localeCompare(b.name)),
      idleSlots: [...this.slots.entries()].map(([slot, x]) => ({ slot, ...x })).sort((a, b) => a.slot.localeCompare(b.slot)),
      syncRepShareOfRun: this.runSum > 0 ? this.syncRepSum / this.runSum : 0,
      syncRepWaitsMax: this.syncRepMax,
      events: [...this.events, ...kept].sort((a, b) => startOf(a) - startOf(b)),
      ...(dropped ? { eventsDropped: dropped } : {}),
    };
  }
}

/** A stall's event, when it lasted enough readings. */
function stallEvent(s: StallStretch, names: string, ongoing: boolean): ReplicationEvent | undefined {
  if (s.readings < T.stallReadings) return undefined;
  return {
    kind: "replication-stall",
    fromSec: s.fromSec,
    toSec: s.toSec,
    seconds: s.toSec - s.fromSec,
    ongoing,
    synchronousStandbyNames: names,
    syncRepWaitsAvg: s.waitsSum / s.readings,
    syncRepWaitsMax: s.waitsMax,
    ...(s.commitsMin !== undefined ? { commitsPerSecMin: s.commitsMin } : {}),
  };
}

/** A replay stretch's event, when it lasted enough readings and left enough WAL unreplayed, or replay far enough behind in time. */
function replayEvent(standby: string, s: ReplayStretch, ongoing: boolean): ReplicationEvent | undefined {
  // Or its replay did not advance at all with WAL to replay: stuck, however little (commits waiting for it write none).
  const deep = s.gapEnd >= T.replayBehindMinBytes || (s.replayLagMsMax ?? 0) >= T.replayBehindMinMs || s.replayed === 0;
  if (s.readings < T.replayBehindReadings || !deep) return undefined;
  const { readings: _, gapStart, gapEnd, replayed, ...figures } = s;
  return {
    kind: "replay-behind",
    standby,
    ...figures,
    seconds: s.toSec - s.fromSec,
    ongoing,
    replayGapStartBytes: gapStart,
    replayGapEndBytes: gapEnd,
    replayedBytes: replayed,
  };
}

/** When an event happened or began, seconds into the window. */
export const startOf = (e: ReplicationEvent) => ("atSec" in e ? e.atSec : e.fromSec);

/** Every replication event of a window of one kind. */
export function eventsOf<K extends ReplicationEvent["kind"]>(w: ReplicationWindow | undefined, kind: K): Extract<ReplicationEvent, { kind: K }>[] {
  return (w?.events ?? []).filter((e): e is Extract<ReplicationEvent, { kind: K }> => e.kind === kind);
}

/** Replication over readings placed on a timeline of one's own (the run page's: seconds since the load started):
 *  each reading at `t`, the end of its interval. */
export function replicationOnTimeline(points: readonly { t: number; telemetry: TelemetrySample }[]): ReplicationWindow | undefined {
  const acc = new ReplicationAccumulator();
  for (const p of points) acc.add(p.telemetry, p.t - p.telemetry.intervalSec, p.t);
  return acc.result();
}
