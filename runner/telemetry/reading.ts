// One telemetry reading, apart from its collector (./collector.ts): the statements it sends (in one round trip),
// the backends it counts from pg_stat_activity, and the rates of the server's cumulative counters between two
// readings. Pure functions of what the server answered.
import type { BackendCounts, CheckpointCounts, TelemetrySample, WaitCounts, XminHolder } from "../../lib/telemetry/shape";
import { replicationColumn } from "./replication";
import { lockWaitsIn, type WaitTally } from "./waits";

export /** Raw cumulative counters of one reading; rates are differences of two. */
interface Counters {
  wal?: Record<string, number | null>;
  cp?: Record<string, number | null>;
  db?: Record<string, number | null>;
  tables?: { av: number; aa: number };
}

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
const n = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export /** What the server version and the role can see, decided once. */
interface Capabilities {
  version: number;
  monitor: boolean;
  walTiming: boolean;
}

function walSql(c: Capabilities): string {
  if (c.version >= 180000)
    return `SELECT w.wal_records AS records, w.wal_fpi AS fpi, w.wal_bytes AS bytes, w.wal_buffers_full AS buffers_full,
      io.writes, io.syncs, io.write_time, io.sync_time
      FROM pg_stat_wal w, (SELECT sum(writes) AS writes, sum(fsyncs) AS syncs, sum(write_time) AS write_time, sum(fsync_time) AS sync_time
                           FROM pg_stat_io WHERE object = 'wal') io`;
  if (c.version >= 140000)
    return `SELECT wal_records AS records, wal_fpi AS fpi, wal_bytes AS bytes, wal_buffers_full AS buffers_full,
      wal_write AS writes, wal_sync AS syncs, wal_write_time AS write_time, wal_sync_time AS sync_time FROM pg_stat_wal`;
  return `SELECT pg_wal_lsn_diff(CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_lsn() END, '0/0') AS bytes`;
}

function checkpointSql(c: Capabilities): string {
  if (c.version >= 170000)
    return `SELECT c.num_timed AS timed, c.num_requested AS requested, c.write_time, c.sync_time, c.buffers_written AS buf_cp,
      b.buffers_clean AS buf_clean,
      (SELECT sum(writes) FROM pg_stat_io WHERE backend_type = 'client backend' AND object = 'relation') AS buf_backend
      FROM pg_stat_checkpointer c, pg_stat_bgwriter b`;
  return `SELECT checkpoints_timed AS timed, checkpoints_req AS requested, checkpoint_write_time AS write_time,
    checkpoint_sync_time AS sync_time, buffers_checkpoint AS buf_cp, buffers_clean AS buf_clean, buffers_backend AS buf_backend
    FROM pg_stat_bgwriter`;
}

/** The statements of one reading, in the order their results are read: activity, locks (with replication:
 *  ./replication.ts), WAL, checkpoints, the database's counters, and the run's tables' when the run has a schema. */
export function readingSql(caps: Capabilities, pids: readonly number[], schema: string | undefined): string[] {
  const pidArray = `'{${pids.join(",")}}'::int[]`;
  return [
    `SELECT pid, pid = ANY(${pidArray}) AS run, state, wait_event_type AS wt, wait_event AS we, backend_type AS bt,
       age(backend_xmin) AS xmin_age, EXTRACT(epoch FROM clock_timestamp() - xact_start) AS xact_sec,
       greatest(age(backend_xid), age(backend_xmin)) AS horizon_age, application_name AS app, left(query, 300) AS query,
       datname = current_database() AS same_db
     FROM pg_stat_activity WHERE pid <> pg_backend_pid()`,
    `SELECT (SELECT max(age(transaction)) FROM pg_prepared_xacts) AS prepared_age,
       (SELECT max(greatest(age(xmin), age(catalog_xmin))) FROM pg_replication_slots) AS slot_age,
       count(*) FILTER (WHERE NOT granted) AS lock_waits,
       count(*) FILTER (WHERE NOT granted AND pid = ANY(${pidArray})) AS run_lock_waits,
       ${replicationColumn(caps.version)} AS replication
     FROM pg_locks`,
    walSql(caps),
    checkpointSql(caps),
    `SELECT xact_commit, xact_rollback, tup_inserted, tup_updated, tup_deleted, blks_read, blks_hit, deadlocks
     FROM pg_stat_database WHERE datname = current_database()`,
    ...(schema
      ? [
          `SELECT coalesce(sum(n_live_tup), 0) AS live, coalesce(sum(n_dead_tup), 0) AS dead,
             coalesce(sum(autovacuum_count), 0) AS av, coalesce(sum(autoanalyze_count), 0) AS aa
           FROM pg_stat_user_tables WHERE schemaname = ${lit(schema)}`,
        ]
      : []),
  ];
}

/** The backends of one pg_stat_activity reading: the run's and everyone else's states and waits, the xmin horizon. */
export interface Backends {
  run: BackendCounts;
  other: BackendCounts;
  runWaits: WaitCounts;
  otherWaits: WaitCounts;
  xminAge?: number;
  oldestXact?: number;
  /** Who holds the horizon back, outside the run. */
  holder?: XminHolder;
  serverPids: number[];
}

/** Counts the backends of a pg_stat_activity reading; `ours` are the collector's own sessions (left out of holders). */
export function countBackends(activity: Record<string, unknown>[], ours: Set<number | undefined>): Backends {
  const b: Backends = {
    run: { total: 0, active: 0, idle: 0, idleInTx: 0 },
    other: { total: 0, active: 0, idle: 0, idleInTx: 0 },
    runWaits: {},
    otherWaits: {},
    serverPids: [],
  };
  for (const a of activity) {
    b.serverPids.push(Number(a.pid));
    if (a.xmin_age !== null) b.xminAge = Math.max(b.xminAge ?? 0, Number(a.xmin_age));
    // A vacuum's transaction does not hold the horizon back (PROC_IN_VACUUM): leave autovacuum out.
    if (a.xact_sec !== null && a.bt !== "autovacuum worker") b.oldestXact = Math.max(b.oldestXact ?? 0, Number(a.xact_sec));
    const isRun = a.run === "t" || a.run === true;
    // Who holds the horizon back, outside the run: the oldest transaction with a snapshot or a transaction id, in the
    // run's database (another database's snapshots do not hold back the removal of its tables' dead rows).
    const sameDb = a.same_db === undefined || a.same_db === true || a.same_db === "t";
    if (!isRun && sameDb && !ours.has(Number(a.pid)) && a.bt !== "autovacuum worker" && a.horizon_age !== null && a.xact_sec !== null)
      if (!b.holder || Number(a.xact_sec) > b.holder.xactSec)
        b.holder = {
          pid: Number(a.pid),
          applicationName: String(a.app ?? ""),
          state: String(a.state ?? a.bt ?? ""),
          query: String(a.query ?? ""),
          xactSec: Number(a.xact_sec),
          xminAgeXids: Number(a.horizon_age),
        };
    // Background processes have no state; sessions hidden from a role without pg_monitor neither.
    if (a.state === null) continue;
    const counts = isRun ? b.run : b.other;
    const waits = isRun ? b.runWaits : b.otherWaits;
    counts.total++;
    if (a.state === "active") {
      counts.active++;
      const key = a.wt === null ? "CPU" : `${a.wt}:${a.we}`;
      waits[key] = (waits[key] ?? 0) + 1;
    } else if (String(a.state).startsWith("idle in transaction")) counts.idleInTx++;
    else counts.idle++;
  }
  return b;
}

/** Ungranted locks: the wait sampler's readings (several a second) when it runs; pg_locks at this reading otherwise. */
export function lockWaitsOf(
  tally: WaitTally | undefined,
  locks: Record<string, unknown>,
): Pick<TelemetrySample, "lockWaits" | "runLockWaits" | "lockWaitsMax" | "lockBlockers"> {
  if (!tally) return { lockWaits: Number(locks.lock_waits), runLockWaits: Number(locks.run_lock_waits) };
  return {
    lockWaits: tally.ticks > 0 ? (lockWaitsIn(tally.runWaits) + lockWaitsIn(tally.otherWaits)) / tally.ticks : 0,
    runLockWaits: tally.ticks > 0 ? lockWaitsIn(tally.runWaits) / tally.ticks : 0,
    ...(tally.lockMax !== undefined ? { lockWaitsMax: tally.lockMax } : {}),
    ...(tally.blockers.length ? { lockBlockers: tally.blockers } : {}),
  };
}

type Row = Record<string, number | null> | undefined;

/** The counters' rates over `sec` seconds (WAL, checkpoints, the database, the run's tables), each only where both
 *  readings have it. `tables` is the run's tables' row of this reading. */
export function counterRates(
  counters: Counters,
  prev: Counters,
  sec: number,
  caps: Capabilities,
  tables: Record<string, unknown> | undefined,
): Pick<TelemetrySample, "wal" | "checkpoints" | "db" | "tables"> {
  const rate = (now: Row, before: Row, key: string) => {
    const a = now?.[key];
    const b = before?.[key];
    if (a === null || a === undefined || b === null || b === undefined) return undefined;
    // A stats reset makes a counter go back: count nothing for that interval rather than a negative rate.
    return Math.max(a - b, 0) / sec;
  };
  const count = (now: Row, before: Row, key: string) => {
    const r = rate(now, before, key);
    return r === undefined ? undefined : Math.round(r * sec);
  };
  const walBytes = rate(counters.wal, prev.wal, "bytes");
  return {
    ...(walBytes !== undefined
      ? {
          wal: prune({
            bytesPerSec: walBytes,
            recordsPerSec: rate(counters.wal, prev.wal, "records"),
            fpiPerSec: rate(counters.wal, prev.wal, "fpi"),
            buffersFullPerSec: rate(counters.wal, prev.wal, "buffers_full"),
            writesPerSec: rate(counters.wal, prev.wal, "writes"),
            syncsPerSec: rate(counters.wal, prev.wal, "syncs"),
            // Times are counted only with track_wal_io_timing on; otherwise they read 0 and would lie.
            ...(caps.walTiming ? { writeMsPerSec: rate(counters.wal, prev.wal, "write_time"), syncMsPerSec: rate(counters.wal, prev.wal, "sync_time") } : {}),
          }) as { bytesPerSec: number },
        }
      : {}),
    ...(prev.cp
      ? {
          checkpoints: prune({
            timed: count(counters.cp, prev.cp, "timed") ?? 0,
            requested: count(counters.cp, prev.cp, "requested") ?? 0,
            buffersCheckpoint: count(counters.cp, prev.cp, "buf_cp") ?? 0,
            buffersClean: count(counters.cp, prev.cp, "buf_clean") ?? 0,
            buffersBackend: count(counters.cp, prev.cp, "buf_backend"),
            writeMs: (rate(counters.cp, prev.cp, "write_time") ?? 0) * sec,
            syncMs: (rate(counters.cp, prev.cp, "sync_time") ?? 0) * sec,
          }) as CheckpointCounts,
        }
      : {}),
    ...(prev.db && counters.db
      ? {
          db: {
            commitsPerSec: rate(counters.db, prev.db, "xact_commit") ?? 0,
            rollbacksPerSec: rate(counters.db, prev.db, "xact_rollback") ?? 0,
            insertedPerSec: rate(counters.db, prev.db, "tup_inserted") ?? 0,
            updatedPerSec: rate(counters.db, prev.db, "tup_updated") ?? 0,
            deletedPerSec: rate(counters.db, prev.db, "tup_deleted") ?? 0,
            blocksReadPerSec: rate(counters.db, prev.db, "blks_read") ?? 0,
            blocksHitPerSec: rate(counters.db, prev.db, "blks_hit") ?? 0,
            deadlocks: count(counters.db, prev.db, "deadlocks") ?? 0,
          },
        }
      : {}),
    ...(tables && prev.tables
      ? {
          tables: {
            liveTuples: Number(tables.live),
            deadTuples: Number(tables.dead),
            autovacuumRuns: Math.max(counters.tables!.av - prev.tables.av, 0),
            autoanalyzeRuns: Math.max(counters.tables!.aa - prev.tables.aa, 0),
          },
        }
      : {}),
  };
}

export function numeric(row: Record<string, unknown> | undefined): Record<string, number | null> | undefined {
  if (!row) return undefined;
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, n(v)]));
}

/** Drops undefined fields (a server that does not expose one leaves it out rather than 0). */
function prune<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
