// What the server was doing, one sample per second beside the client's samples (browser-safe shapes).
// Written by the runner's telemetry collector (runner/telemetry/collector.ts) on a connection of its own;
// aggregated over a window by ./window.ts; read by the verdict (./verdict.ts). Every field the target may not
// expose (an older server, a role without pg_monitor, a remote host) is optional, and TelemetryInfo says why
// it is missing.
import { z } from "zod";
import { ReplicationReading } from "./replication-shape";

/** Backends counted by state in one sample. `idleInTx` is "idle in transaction" (waiting on the client mid-transaction). */
export const BackendCounts = z.object({
  total: z.number().int(),
  active: z.number().int(),
  idle: z.number().int(),
  idleInTx: z.number().int(),
});
export type BackendCounts = z.infer<typeof BackendCounts>;

/**
 * Active backends by what they wait on, keyed "Type:Event" (pg_stat_activity.wait_event_type/wait_event, e.g.
 * "LWLock:WALWrite", "Lock:transactionid"); an active backend with no wait event is on CPU (or in code that
 * reports no wait) and counts under "CPU". Idle backends are in BackendCounts, not here.
 */
export const WaitCounts = z.record(z.string(), z.number().int());
export type WaitCounts = z.infer<typeof WaitCounts>;

/** WAL generated and written in the interval, per second. Write/sync figures exist only where the server exposes them. */
export const WalRates = z.object({
  bytesPerSec: z.number(),
  /** PostgreSQL 14+ (pg_stat_wal). */
  recordsPerSec: z.number().optional(),
  fpiPerSec: z.number().optional(),
  buffersFullPerSec: z.number().optional(),
  /** PostgreSQL 14–17: pg_stat_wal; 18+: pg_stat_io (object 'wal'). */
  writesPerSec: z.number().optional(),
  syncsPerSec: z.number().optional(),
  /** Milliseconds spent writing/syncing WAL per second of wall time, only with track_wal_io_timing = on. */
  writeMsPerSec: z.number().optional(),
  syncMsPerSec: z.number().optional(),
});
export type WalRates = z.infer<typeof WalRates>;

/** Checkpoints and buffer writes in the interval (counts, not rates: checkpoints are rare events). */
export const CheckpointCounts = z.object({
  timed: z.number().int(),
  requested: z.number().int(),
  buffersCheckpoint: z.number().int(),
  buffersClean: z.number().int(),
  /** Buffers written by client backends themselves (a sign shared_buffers or the bgwriter does not keep up). */
  buffersBackend: z.number().int().optional(),
  writeMs: z.number(),
  syncMs: z.number(),
});
export type CheckpointCounts = z.infer<typeof CheckpointCounts>;

/** The target database's own counters (pg_stat_database), per second. */
export const DatabaseRates = z.object({
  commitsPerSec: z.number(),
  rollbacksPerSec: z.number(),
  insertedPerSec: z.number(),
  updatedPerSec: z.number(),
  deletedPerSec: z.number(),
  blocksReadPerSec: z.number(),
  blocksHitPerSec: z.number(),
  deadlocks: z.number().int(),
});
export type DatabaseRates = z.infer<typeof DatabaseRates>;

/** The run's own tables (pg_stat_user_tables in the run's schema): levels at the sample, runs in the interval. */
export const TableStats = z.object({
  liveTuples: z.number().int(),
  deadTuples: z.number().int(),
  /** The tables' size (heap, TOAST, free space and visibility maps: pg_table_size) and their indexes' (pg_indexes_size),
   *  in bytes, as last read before the sample without waiting on a lock (runner/telemetry/sizes.ts: a reading a lock
   *  refused keeps the one before). Absent in runs recorded before issue 32. */
  tableBytes: z.number().int().optional(),
  indexBytes: z.number().int().optional(),
  autovacuumRuns: z.number().int(),
  autoanalyzeRuns: z.number().int(),
});
export type TableStats = z.infer<typeof TableStats>;

/** The server host seen through /proc, when the target runs on the runner's machine. */
export const HostRates = z.object({
  /** Busy share of all the host's CPUs (every process, not only Postgres), 0–100. */
  cpuBusyPct: z.number(),
  iowaitPct: z.number(),
  /** CPU the target's processes used, in cores (1 = one core fully busy). */
  serverCpuCores: z.number(),
  /** CPU the runner's processes used (every thread; a run over several processes: the coordinator and its parts), in cores. */
  runnerCpuCores: z.number().optional(),
  /** CPU every other process used (the host's busy time less the target's and the runner's), in cores. */
  otherCpuCores: z.number().optional(),
  /** The busiest other processes in the interval, by name (at most five names; processes of one name add up). */
  topOthers: z.array(z.object({ name: z.string(), processes: z.number().int(), cores: z.number() })).optional(),
  cores: z.number().int(),
  diskReadBytesPerSec: z.number(),
  diskWriteBytesPerSec: z.number(),
  /** The busiest disk's share of the interval with I/O in flight, 0–100. */
  diskBusyPct: z.number(),
});
export type HostRates = z.infer<typeof HostRates>;

/** The runner process itself (the client side). */
export const ClientRates = z.object({
  /** Runner process CPU (user + system) in % of one core. */
  cpuPct: z.number(),
  /** Share of the interval the event loop was busy (performance.eventLoopUtilization), 0–1. */
  eventLoopUtilization: z.number(),
  /** Longest event-loop delay seen in the interval, ms. */
  eventLoopDelayMaxMs: z.number(),
  /** Time the runner's threads were runnable but not running (waiting for a CPU), ms per second (Linux schedstat). */
  runQueueWaitMsPerSec: z.number().optional(),
});
export type ClientRates = z.infer<typeof ClientRates>;

/** Where the backends' states and waits were read: sampled by the runner, or the pg_wait_sampling extension's profile. */
export const WaitSource = z.object({
  kind: z.enum(["pg_stat_activity", "pg_wait_sampling"]),
  /** Readings per second (per backend for pg_wait_sampling). */
  hz: z.number(),
  note: z.string(),
});
export type WaitSource = z.infer<typeof WaitSource>;

/** A session that blocked the run's connections on a heavyweight lock, as read during the wait. */
export const LockBlocker = z.object({
  /** The locked relation ("schema.table"), or the lock's object ("transaction 1234", "object"). */
  relation: z.string(),
  /** The mode the holder held it in ("AccessExclusiveLock"); absent when the holder itself only waited in line. */
  mode: z.string().optional(),
  pid: z.number().int(),
  applicationName: z.string(),
  query: z.string(),
  /** Readings in which it blocked at least one of the run's connections, and the run's connections it blocked, summed over them. */
  readings: z.number().int(),
  waiters: z.number().int(),
});
export type LockBlocker = z.infer<typeof LockBlocker>;

/** The session whose transaction holds the xmin horizon back (dead tuples newer than it cannot be removed). */
export const XminHolder = z.object({
  pid: z.number().int(),
  applicationName: z.string(),
  state: z.string(),
  query: z.string(),
  /** How long its transaction had been open, seconds, and the horizon's age it holds, in transactions. */
  xactSec: z.number(),
  xminAgeXids: z.number().int().optional(),
});
export type XminHolder = z.infer<typeof XminHolder>;

export const TelemetrySample = z.object({
  /** Wall-clock time of the reading (ISO). */
  time: z.string(),
  /** Real length of the interval the rates cover, seconds. */
  intervalSec: z.number(),
  /**
   * How many readings of the backends run/other/runWaits/otherWaits add up (the wait sampler's, several a second);
   * absent: one reading (samples stored before the sampler).
   */
  ticks: z.number().int().optional(),
  /** The run's own connections (the runner's backends) and every other backend of the server, summed over `ticks` readings. */
  run: BackendCounts,
  runWaits: WaitCounts,
  other: BackendCounts,
  otherWaits: WaitCounts,
  /**
   * Ungranted locks: backends waiting on a heavyweight lock (each waits on one), anyone's and the run's
   * connections'. With the wait sampler, the average over its readings of the interval (several a second) and the
   * most in one reading (`lockWaitsMax`); without it (samples stored before), pg_locks read once at the tick.
   */
  lockWaits: z.number(),
  runLockWaits: z.number(),
  lockWaitsMax: z.number().int().optional(),
  /**
   * Who the run's connections waited on while they waited on a lock, read during the wait (the wait sampler, from
   * pg_blocking_pids, pg_locks and pg_class): the lock's relation (or object), the mode the holder held, the
   * holder's pid, application name and query, and in how many readings of the interval it blocked the run.
   */
  lockBlockers: z.array(LockBlocker).optional(),
  /**
   * The session holding the xmin horizon back, outside the run's connections (autovacuum and the telemetry left
   * out): the one with the oldest transaction among those with a backend_xmin or a transaction id.
   */
  xminHolder: XminHolder.optional(),
  /** Age in transactions of the oldest snapshot holding the xmin horizon back (backends, prepared transactions, slots). */
  xminAgeXids: z.number().int().optional(),
  /** How long the oldest open transaction has been open, seconds. */
  oldestXactSec: z.number().optional(),
  wal: WalRates.optional(),
  checkpoints: CheckpointCounts.optional(),
  db: DatabaseRates.optional(),
  tables: TableStats.optional(),
  host: HostRates.optional(),
  client: ClientRates.optional(),
  /** Each standby streaming from the target and the slots none uses (./replication-shape.ts); absent on a target
   *  with neither and no synchronous_standby_names, on a role that cannot see them, and in samples stored before. */
  replication: ReplicationReading.optional(),
  /** The collector's own cost for this sample: statements run and time from send to parsed answer. */
  overhead: z.object({ statements: z.number().int(), ms: z.number() }),
});
export type TelemetrySample = z.infer<typeof TelemetrySample>;

/**
 * A sample's backend counts as the average reading of its interval: the counts are sums over `ticks`
 * readings (several a second with the wait sampler), so charts and CSV columns divide them back. Null when the
 * interval held no reading (ticks 0: the sampler, slowed by its budget, read at none of its instants): a gap,
 * not zero connections. Older samples without `ticks` are one reading.
 */
export function perReading(s: TelemetrySample): Pick<TelemetrySample, "run" | "other" | "runWaits" | "otherWaits"> | null {
  if (s.ticks === 0) return null;
  const n = s.ticks && s.ticks > 0 ? s.ticks : 1;
  const counts = (c: BackendCounts): BackendCounts => ({ total: c.total / n, active: c.active / n, idle: c.idle / n, idleInTx: c.idleInTx / n });
  const waits = (w: WaitCounts): WaitCounts => Object.fromEntries(Object.entries(w).map(([k, v]) => [k, v / n]));
  return { run: counts(s.run), other: counts(s.other), runWaits: waits(s.runWaits), otherWaits: waits(s.otherWaits) };
}

/** What the collector could see, once per run. */
export const TelemetryInfo = z.object({
  serverVersionNum: z.number().int(),
  /** True when the role is superuser or a member of pg_monitor (pg_read_all_stats): it sees every backend. */
  monitor: z.boolean(),
  /** Whether host CPU and I/O are measured, and if not why (a remote target). */
  host: z.object({ available: z.boolean(), reason: z.string() }),
  /** Where the backends' states and waits came from (absent: one pg_stat_activity reading a second, before the sampler). */
  waits: WaitSource.optional(),
  /** Everything not measured, each naming why and what would make it measurable. */
  missing: z.array(z.string()),
  /**
   * synchronous_commit as a new session of the run's role and database starts with it (the server's, the database's
   * or the role's setting, or the target URL's options): whether commits wait for standbys. Absent before it was kept.
   */
  synchronousCommit: z.string().optional(),
});
export type TelemetryInfo = z.infer<typeof TelemetryInfo>;
