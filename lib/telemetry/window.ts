// A window's telemetry (the measured window of a finished run, or the last seconds of a live one): rates are
// totals over the window's real length (each sample's rate weighted by its interval), shares are of
// backend-samples (one backend seen in one sample counts once). Browser-safe.
import { z } from "zod";
import { ReplicationAccumulator } from "./replication";
import { ReplicationWindow } from "./replication-shape";
import { LockBlocker, type TelemetrySample, XminHolder } from "./shape";

export const TelemetryWindow = z.object({
  seconds: z.number(),
  samples: z.number().int(),
  /** The run's connections, averaged over the readings of the backends. */
  runConnections: z.number(),
  /** Readings of the backends the shares are counted over (several a second with the wait sampler). */
  waitReadings: z.number().int().optional(),
  /** Shares of the run's backend-samples (0–1): on the server (active), waiting on the client (idle / idle in transaction). */
  runActiveShare: z.number(),
  runIdleShare: z.number(),
  runIdleInTxShare: z.number(),
  /** Share of the run's *active* backend-samples by wait ("CPU" = no wait event), 0–1, largest first. */
  runWaitShares: z.record(z.string(), z.number()),
  /** Other backends of the server (not the run's), averaged: all, and active. */
  otherBackends: z.number(),
  otherActive: z.number(),
  otherWaitShares: z.record(z.string(), z.number()),
  lockWaitsAvg: z.number(),
  lockWaitsMax: z.number().int(),
  runLockWaitsAvg: z.number(),
  xminAgeXidsMax: z.number().int().optional(),
  oldestXactSecMax: z.number().optional(),
  /** Who blocked the run's connections on locks, read during the waits, most readings first (at most five), with
   *  when in the window (seconds from its start: the first and the last interval it was seen in). */
  lockBlockers: z.array(LockBlocker.extend({ fromSec: z.number(), toSec: z.number() })).optional(),
  /**
   * The session that held the xmin horizon back longest (the oldest transaction outside the run's connections), as
   * last seen: its transaction's age then, the seconds of the window it was seen holding it, and whether it already
   * did at the window's first sample (opened before the window).
   */
  xminHolder: XminHolder.extend({ heldSec: z.number(), fromStart: z.boolean() }).optional(),
  wal: z
    .object({
      bytesPerSec: z.number(),
      recordsPerSec: z.number().optional(),
      fpiPerSec: z.number().optional(),
      buffersFullPerSec: z.number().optional(),
      writesPerSec: z.number().optional(),
      syncsPerSec: z.number().optional(),
      writeMsPerSec: z.number().optional(),
      syncMsPerSec: z.number().optional(),
    })
    .optional(),
  checkpoints: z
    .object({ timed: z.number().int(), requested: z.number().int(), buffersCheckpoint: z.number().int(), buffersBackend: z.number().int().optional() })
    .optional(),
  db: z
    .object({
      commitsPerSec: z.number(),
      rollbacksPerSec: z.number(),
      insertedPerSec: z.number(),
      updatedPerSec: z.number(),
      deletedPerSec: z.number(),
      blocksReadPerSec: z.number(),
      deadlocks: z.number().int(),
    })
    .optional(),
  tables: z
    .object({
      deadTuplesStart: z.number().int(),
      deadTuplesEnd: z.number().int(),
      deadTuplesMax: z.number().int(),
      liveTuplesEnd: z.number().int(),
      /** Least-squares slope of dead tuples over the window, per second. */
      deadTuplesSlopePerSec: z.number(),
      autovacuumRuns: z.number().int(),
      autoanalyzeRuns: z.number().int(),
      /** The tables' and their indexes' bytes at the window's first and last reading that had them (issue 32's long
       *  runs: how they grew); absent when none had (runs recorded before, or sizes a lock kept from every reading). */
      tableBytesStart: z.number().int().optional(),
      tableBytesEnd: z.number().int().optional(),
      indexBytesStart: z.number().int().optional(),
      indexBytesEnd: z.number().int().optional(),
    })
    .optional(),
  host: z
    .object({
      cpuBusyPct: z.number(),
      iowaitPct: z.number(),
      serverCpuCores: z.number(),
      /** The runner's and every other process's CPU, in cores (averaged like the rest). */
      runnerCpuCores: z.number().optional(),
      otherCpuCores: z.number().optional(),
      /** The busiest other processes over the window, by name, in cores averaged over the window. */
      topOthers: z.array(z.object({ name: z.string(), cores: z.number() })).optional(),
      cores: z.number().int(),
      diskReadBytesPerSec: z.number(),
      diskWriteBytesPerSec: z.number(),
      diskBusyPct: z.number(),
    })
    .optional(),
  client: z
    .object({ cpuPct: z.number(), eventLoopUtilization: z.number(), eventLoopDelayMaxMs: z.number(), runQueueWaitMsPerSec: z.number().optional() })
    .optional(),
  overhead: z.object({ statementsPerSec: z.number(), msPerSample: z.number(), msPerSampleMax: z.number() }),
  /** The standbys' lag, sync states and replication events (./replication.ts); absent when no reading saw replication. */
  replication: ReplicationWindow.optional(),
});
export type TelemetryWindow = z.infer<typeof TelemetryWindow>;

/** Running sums for a least-squares slope: constant memory however long the window. */
class SlopeSums {
  n = 0;
  sx = 0;
  sy = 0;
  sxy = 0;
  sxx = 0;
  add(x: number, y: number) {
    this.n++;
    this.sx += x;
    this.sy += y;
    this.sxy += x * y;
    this.sxx += x * x;
  }
  slope(): number {
    const den = this.n * this.sxx - this.sx * this.sx;
    return this.n >= 2 && den > 0 ? (this.n * this.sxy - this.sx * this.sy) / den : 0;
  }
}

/** Least-squares slope of y over x (0 with fewer than two points). */
export function slope(points: [number, number][]): number {
  const s = new SlopeSums();
  for (const [x, y] of points) s.add(x, y);
  return s.slope();
}

/** Interval-weighted means of a group's per-second fields; a field is kept only when every sample had it. */
class Weighted<K extends string> {
  private sums = new Map<K, number>();
  private seen = new Map<K, number>();
  samples = 0;
  seconds = 0;
  add(o: Partial<Record<K, number>> | undefined, sec: number) {
    if (!o) return;
    this.samples++;
    this.seconds += sec;
    for (const [k, v] of Object.entries(o) as [K, number | undefined][]) {
      if (typeof v !== "number") continue;
      this.sums.set(k, (this.sums.get(k) ?? 0) + v * sec);
      this.seen.set(k, (this.seen.get(k) ?? 0) + 1);
    }
  }
  /** The means, or undefined unless every one of `total` samples had the group. */
  result(total: number): Partial<Record<K, number>> | undefined {
    if (this.samples !== total || this.seconds <= 0) return undefined;
    const out: Partial<Record<K, number>> = {};
    for (const [k, v] of this.sums) if (this.seen.get(k) === total) out[k] = v / this.seconds;
    return out;
  }
}

function shares(counts: Map<string, number>): Record<string, number> {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const entries = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  return Object.fromEntries(entries.map(([k, v]) => [k, total > 0 ? v / total : 0]));
}

const addInto = (into: Map<string, number>, from: Record<string, number>) => {
  for (const [k, v] of Object.entries(from)) into.set(k, (into.get(k) ?? 0) + v);
};
const maxDefined = (a: number | undefined, b: number | undefined) => (b === undefined ? a : a === undefined ? b : Math.max(a, b));

/**
 * Aggregates samples one at a time in constant memory (a 24-hour run has 86,400 of them): wait counts keyed by
 * event (a bounded set), running sums, maxima and least-squares sums.
 */
export class WindowAccumulator {
  private n = 0;
  private ticks = 0;
  private seconds = 0;
  private run = { total: 0, active: 0, idle: 0, idleInTx: 0 };
  private runWaits = new Map<string, number>();
  private otherWaits = new Map<string, number>();
  private otherTotal = 0;
  private otherActive = 0;
  private lockSum = 0;
  private lockMax = 0;
  private runLockSum = 0;
  private xminMax: number | undefined;
  private xactMax: number | undefined;
  /** The window's start (the first sample's interval start), epoch seconds. */
  private start: number | undefined;
  private blockers = new Map<string, LockBlocker & { fromSec: number; toSec: number }>();
  /** Horizon holders by pid (bounded): the last sighting, when its transaction began, seconds seen, seen at the start. */
  private holders = new Map<number, { last: XminHolder; began: number; heldSec: number; fromStart: boolean }>();
  private wal = new Weighted<keyof NonNullable<TelemetryWindow["wal"]> & string>();
  private db = new Weighted<"commitsPerSec" | "rollbacksPerSec" | "insertedPerSec" | "updatedPerSec" | "deletedPerSec" | "blocksReadPerSec">();
  private host = new Weighted<
    "cpuBusyPct" | "iowaitPct" | "serverCpuCores" | "runnerCpuCores" | "otherCpuCores" | "diskReadBytesPerSec" | "diskWriteBytesPerSec" | "diskBusyPct"
  >();
  /** Other processes' CPU-seconds by name (a bounded set: the top three of each sample). */
  private others = new Map<string, number>();
  private client = new Weighted<"cpuPct" | "eventLoopUtilization" | "runQueueWaitMsPerSec">();
  private deadlocks = 0;
  private cores = 0;
  private loopMaxMs = 0;
  private cp = { n: 0, timed: 0, requested: 0, buffersCheckpoint: 0, buffersBackend: 0, backendSeen: 0 };
  private tables = { n: 0, first: 0, last: 0, max: 0, live: 0, av: 0, aa: 0, slope: new SlopeSums() };
  /** The first and last sizes the window's readings had (runner/telemetry/sizes.ts). */
  private sizes: { first?: Sizes; last?: Sizes } = {};
  private t0: number | undefined;
  private statements = 0;
  private overheadMs = 0;
  private overheadMax = 0;
  private replication = new ReplicationAccumulator();

  add(s: TelemetrySample) {
    this.n++;
    this.ticks += s.ticks ?? 1;
    this.seconds += s.intervalSec;
    const sec = s.intervalSec;
    this.run.total += s.run.total;
    this.run.active += s.run.active;
    this.run.idle += s.run.idle;
    this.run.idleInTx += s.run.idleInTx;
    addInto(this.runWaits, s.runWaits);
    addInto(this.otherWaits, s.otherWaits);
    this.otherTotal += s.other.total;
    this.otherActive += s.other.active;
    this.lockSum += s.lockWaits;
    this.lockMax = Math.max(this.lockMax, s.lockWaitsMax ?? Math.round(s.lockWaits));
    this.runLockSum += s.runLockWaits;
    this.xminMax = maxDefined(this.xminMax, s.xminAgeXids);
    this.xactMax = maxDefined(this.xactMax, s.oldestXactSec);
    this.wal.add(s.wal, sec);
    this.db.add(s.db, sec);
    if (s.db) this.deadlocks += s.db.deadlocks;
    this.host.add(s.host, sec);
    if (s.host) this.cores = s.host.cores;
    for (const o of s.host?.topOthers ?? []) this.others.set(o.name, (this.others.get(o.name) ?? 0) + o.cores * sec);
    // Constant memory: short-lived processes with ever-new names would grow the map; keep the busiest.
    if (this.others.size > 50) this.others = new Map([...this.others.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20));
    this.client.add(s.client, sec);
    if (s.client) this.loopMaxMs = Math.max(this.loopMaxMs, s.client.eventLoopDelayMaxMs);
    if (s.checkpoints) {
      const c = s.checkpoints;
      this.cp.n++;
      this.cp.timed += c.timed;
      this.cp.requested += c.requested;
      this.cp.buffersCheckpoint += c.buffersCheckpoint;
      if (c.buffersBackend !== undefined) {
        this.cp.buffersBackend += c.buffersBackend;
        this.cp.backendSeen++;
      }
    }
    const t = Date.parse(s.time) / 1000;
    this.t0 ??= t;
    const first = this.start === undefined;
    this.start ??= t - sec;
    this.addBlockers(s, t - sec - this.start, t - this.start);
    this.replication.add(s, t - sec - this.start, t - this.start);
    this.addHolder(s, t, sec, first);
    if (s.tables) {
      const tb = this.tables;
      if (tb.n === 0) tb.first = s.tables.deadTuples;
      tb.n++;
      tb.last = s.tables.deadTuples;
      tb.max = Math.max(tb.max, s.tables.deadTuples);
      tb.live = s.tables.liveTuples;
      tb.av += s.tables.autovacuumRuns;
      tb.aa += s.tables.autoanalyzeRuns;
      tb.slope.add(t - this.t0, s.tables.deadTuples);
      const { tableBytes, indexBytes } = s.tables;
      if (tableBytes !== undefined && indexBytes !== undefined) {
        this.sizes.first ??= { tableBytes, indexBytes };
        this.sizes.last = { tableBytes, indexBytes };
      }
    }
    this.statements += s.overhead.statements;
    this.overheadMs += s.overhead.ms;
    this.overheadMax = Math.max(this.overheadMax, s.overhead.ms);
  }

  private addBlockers(s: TelemetrySample, from: number, to: number) {
    for (const b of s.lockBlockers ?? []) {
      const key = `${b.pid}|${b.relation}|${b.mode ?? ""}`;
      const had = this.blockers.get(key);
      if (had) {
        had.readings += b.readings;
        had.waiters += b.waiters;
        had.query = b.query;
        had.toSec = to;
      } else this.blockers.set(key, { ...b, fromSec: from, toSec: to });
    }
    // Constant memory: keep the blockers seen in the most readings.
    if (this.blockers.size > 50) this.blockers = new Map([...this.blockers.entries()].sort((a, b) => b[1].readings - a[1].readings).slice(0, 20));
  }

  private addHolder(s: TelemetrySample, t: number, sec: number, first: boolean) {
    const h = s.xminHolder;
    if (!h) return;
    const began = t - h.xactSec;
    const had = this.holders.get(h.pid);
    // The same pid in a later transaction is another holder (its transaction began elsewhen).
    if (had && Math.abs(had.began - began) <= 2) {
      had.last = h;
      had.heldSec += sec;
    } else this.holders.set(h.pid, { last: h, began, heldSec: sec, fromStart: first });
    if (this.holders.size > 50) this.holders = new Map([...this.holders.entries()].sort((a, b) => b[1].last.xactSec - a[1].last.xactSec).slice(0, 20));
  }

  private holder(): { xminHolder?: TelemetryWindow["xminHolder"] } {
    const top = [...this.holders.values()].sort((a, b) => b.last.xactSec - a.last.xactSec)[0];
    return top ? { xminHolder: { ...top.last, heldSec: top.heldSec, fromStart: top.fromStart } } : {};
  }

  private topBlockers(): { lockBlockers?: TelemetryWindow["lockBlockers"] } {
    const top = [...this.blockers.values()].sort((a, b) => b.readings - a.readings).slice(0, 5);
    return top.length ? { lockBlockers: top } : {};
  }

  private topOthers(): { topOthers?: { name: string; cores: number }[] } {
    if (this.others.size === 0 || this.seconds <= 0) return {};
    const top = [...this.others.entries()]
      .map(([name, cpuSec]) => ({ name, cores: cpuSec / this.seconds }))
      .filter((o) => o.cores >= 0.01)
      .sort((a, b) => b.cores - a.cores)
      .slice(0, 3);
    return top.length ? { topOthers: top } : {};
  }

  result(): TelemetryWindow | undefined {
    const n = this.n;
    if (n === 0) return undefined;
    const share = (x: number) => (this.run.total > 0 ? x / this.run.total : 0);
    // Samples whose interval held no wait-sampler reading count none (ticks 0): averaged over the readings taken.
    const perTick = (x: number) => (this.ticks > 0 ? x / this.ticks : 0);
    const wal = this.wal.result(n);
    const db = this.db.result(n);
    const host = this.host.result(n);
    const client = this.client.result(n);
    const tb = this.tables;
    const replication = this.replication.result();
    return {
      seconds: this.seconds,
      samples: n,
      // Backend counts are sums over the readings (several a second): averaged per reading.
      runConnections: perTick(this.run.total),
      waitReadings: this.ticks,
      runActiveShare: share(this.run.active),
      runIdleShare: share(this.run.idle),
      runIdleInTxShare: share(this.run.idleInTx),
      runWaitShares: shares(this.runWaits),
      otherBackends: perTick(this.otherTotal),
      otherActive: perTick(this.otherActive),
      otherWaitShares: shares(this.otherWaits),
      lockWaitsAvg: this.lockSum / n,
      lockWaitsMax: this.lockMax,
      runLockWaitsAvg: this.runLockSum / n,
      ...(this.xminMax !== undefined ? { xminAgeXidsMax: this.xminMax } : {}),
      ...(this.xactMax !== undefined ? { oldestXactSecMax: this.xactMax } : {}),
      ...this.topBlockers(),
      ...this.holder(),
      ...(wal?.bytesPerSec !== undefined ? { wal: { ...wal, bytesPerSec: wal.bytesPerSec } } : {}),
      ...(this.cp.n === n
        ? {
            checkpoints: {
              timed: this.cp.timed,
              requested: this.cp.requested,
              buffersCheckpoint: this.cp.buffersCheckpoint,
              ...(this.cp.backendSeen === n ? { buffersBackend: this.cp.buffersBackend } : {}),
            },
          }
        : {}),
      ...(db ? { db: { ...(db as Required<typeof db>), deadlocks: this.deadlocks } } : {}),
      ...(tb.n === n
        ? {
            tables: {
              deadTuplesStart: tb.first,
              deadTuplesEnd: tb.last,
              deadTuplesMax: tb.max,
              liveTuplesEnd: tb.live,
              deadTuplesSlopePerSec: tb.slope.slope(),
              autovacuumRuns: tb.av,
              autoanalyzeRuns: tb.aa,
              ...sizesOf(this.sizes),
            },
          }
        : {}),
      ...(host ? { host: { ...(host as Required<typeof host>), cores: this.cores, ...this.topOthers() } } : {}),
      ...(client ? { client: { ...(client as Required<typeof client>), eventLoopDelayMaxMs: this.loopMaxMs } } : {}),
      overhead: {
        statementsPerSec: this.seconds > 0 ? this.statements / this.seconds : 0,
        msPerSample: this.overheadMs / n,
        msPerSampleMax: this.overheadMax,
      },
      ...(replication ? { replication } : {}),
    };
  }
}

/** Aggregates of the given samples (in time order), or undefined when there are none. */
export function telemetryWindow(samples: TelemetrySample[]): TelemetryWindow | undefined {
  const acc = new WindowAccumulator();
  for (const s of samples) acc.add(s);
  return acc.result();
}

type Sizes = { tableBytes: number; indexBytes: number };

/** The window's first and last sizes as its tables' fields, when a reading had them. */
function sizesOf({ first, last }: { first?: Sizes; last?: Sizes }) {
  return first && last
    ? { tableBytesStart: first.tableBytes, tableBytesEnd: last.tableBytes, indexBytesStart: first.indexBytes, indexBytesEnd: last.indexBytes }
    : {};
}
