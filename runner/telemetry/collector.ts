// The telemetry collector: once a second, on a connection of its own, what the target was doing (wait events
// of the run's backends and everyone else's, WAL, checkpoints, the database's and the run's tables' counters,
// the xmin horizon, lock waits), the host's CPU and disks when the target is on this machine, and the
// runner's own CPU and event loop. One round trip per sample (six statements in one simple query); its own
// cost is in every sample (overhead). Memory is bounded: the last `keep` samples, and a constant-size
// accumulator per window (lib/telemetry/window.ts).
import type pg from "pg";
import { explainPgError } from "../../lib/targets/pgurl";
import type { BackendCounts, CheckpointCounts, TelemetryInfo, TelemetrySample, WaitCounts, XminHolder } from "../../lib/telemetry/shape";
import { closeClient, openClient, type TargetClient } from "../core/pg/pgclient";
import { clock, Stopper } from "../core/timing";
import { ClientProbe } from "./client";
import { HostProbe, processCpuSeconds, processName } from "./host";
import { lockWaitsIn, WaitSampler, type WaitTally } from "./waits";

export interface CollectorOptions {
  /** The run's schema name (unquoted), for its tables' dead tuples and vacuum counts. */
  schema?: string;
  /** The run's own backend pids, read at every sample (connections may open after the collector starts). */
  runPids?: () => readonly number[];
  /** The runner's processes besides this one (a run's parts): the host's CPU counts them as the runner's. */
  runnerPids?: () => readonly number[];
  /** Sampling period (default 1,000 ms); 0: no timer, the caller takes each reading with sampleNow() (the engine, on its own ticks). */
  intervalMs?: number;
  /** Samples kept in memory for the live view (default 600: ten minutes). */
  keep?: number;
  /** Measure the runner process (CPU, event loop) too (default true). */
  client?: boolean;
  /**
   * Count the backends' states and waits with the wait sampler (runner/telemetry/waits.ts: its own connection
   * and timer, ~10 Hz, or pg_wait_sampling) rather than the one reading a sample takes (default true).
   */
  waits?: boolean | { periodMs?: number; extension?: boolean };
  log?: (line: string) => void;
  /** Told of the connection as it opens (the engine's liveness watch destroys it if the target stops answering). */
  track?: (tc: TargetClient) => void;
}

/** Raw cumulative counters of one reading; rates are differences of two. */
interface Counters {
  wal?: Record<string, number | null>;
  cp?: Record<string, number | null>;
  db?: Record<string, number | null>;
  tables?: { av: number; aa: number };
}

const LOOPBACK = new Set(["127.0.0.1", "::1"]);
const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
const n = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** What the server version and the role can see, decided once. */
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

/** What a role without pg_monitor, an older server or a remote host leaves unmeasured, each with its remedy. */
export function missingFor(c: Capabilities, role: string, host: TelemetryInfo["host"]): string[] {
  const out: string[] = [];
  if (!c.monitor)
    out.push(
      `the role ${role} is not a member of pg_monitor: other roles' sessions show no state or wait event (pg_stat_activity hides them), so "everyone else" counts only ${role}'s own other sessions, and other roles' transactions holding the xmin horizon are not seen. Grant it with: GRANT pg_monitor TO ${role};`,
    );
  if (c.version < 140000)
    out.push(
      `WAL records, full-page images, buffers full, writes and syncs: pg_stat_wal is PostgreSQL 14+ (this server is ${Math.floor(c.version / 10000)}); only WAL bytes are measured, from the WAL position`,
    );
  else if (!c.walTiming)
    out.push(
      "WAL write and sync time: track_wal_io_timing is off on the server (a superuser can turn it on: ALTER SYSTEM SET track_wal_io_timing = on; SELECT pg_reload_conf();); WAL writes and syncs are still counted",
    );
  if (!host.available) out.push(`server host CPU and I/O: ${host.reason}`);
  return out;
}

export class TelemetryCollector {
  private conn: TargetClient;
  private caps: Capabilities;
  private opts: CollectorOptions;
  private prev: Counters = {};
  private prevAt = 0;
  private ring: TelemetrySample[] = [];
  private stopper = new Stopper();
  private loop: Promise<void> = Promise.resolve();
  private inFlight: Promise<unknown> | undefined;
  private host?: HostProbe;
  private clientProbe?: ClientProbe;
  private waits?: WaitSampler;
  /** Set when the connection was lost or a sample failed for good: sampling stopped, the reason is in info.missing. */
  failed?: string;
  readonly info: TelemetryInfo;

  private constructor(conn: TargetClient, caps: Capabilities, info: TelemetryInfo, opts: CollectorOptions, host?: HostProbe) {
    this.conn = conn;
    this.caps = caps;
    this.info = info;
    this.opts = opts;
    this.host = host;
    if (opts.client !== false) this.clientProbe = new ClientProbe();
  }

  /** Connects, decides what it can see, takes the baseline reading and starts sampling. */
  static async start(url: string, opts: CollectorOptions = {}): Promise<TelemetryCollector> {
    // Telemetry never fails a run: the connection is watched for liveness only, never reported as lost.
    const watch = opts.track ? { track: opts.track, onLost: () => undefined, closing: () => true } : undefined;
    const conn = await openClient(url, "telemetry", true, 8000, watch);
    try {
      // Telemetry must never hold the run up: short timeouts, and nothing it waits on for long.
      await conn.client.query("SET statement_timeout = '2s'; SET lock_timeout = '1s'");
      const r = await conn.client.query(
        `SELECT current_setting('server_version_num')::int AS version, current_user AS role,
           (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) OR pg_has_role(current_user, 'pg_read_all_stats', 'USAGE') AS monitor,
           coalesce(current_setting('track_wal_io_timing', true), 'off') AS wal_timing,
           host(inet_server_addr()) AS addr, pg_backend_pid() AS pid`,
      );
      const row = r.rows[0];
      const caps: Capabilities = { version: Number(row.version), monitor: row.monitor === "t" || row.monitor === true, walTiming: row.wal_timing === "on" };
      // The target is on this machine when reached over loopback or a Unix socket and our own backend is a
      // postgres process in this machine's /proc (a container's pids would not be).
      const addr: string | null = row.addr;
      const localAddr = addr === null || LOOPBACK.has(addr);
      const ownBackend = processName(Number(row.pid));
      const local = localAddr && HostProbe.supported() && ownBackend === "postgres";
      const host: TelemetryInfo["host"] = local
        ? { available: true, reason: "the target runs on this machine: /proc" }
        : {
            available: false,
            reason: !localAddr
              ? `the target is reached at ${addr}, not on this machine: its CPU and disks are not visible from the runner`
              : !HostProbe.supported()
                ? "this runner has no /proc (not Linux)"
                : "the target's processes are not visible in this machine's /proc (a container or another pid namespace)",
          };
      const info: TelemetryInfo = { serverVersionNum: caps.version, monitor: caps.monitor, host, missing: missingFor(caps, String(row.role), host) };
      const c = new TelemetryCollector(conn, caps, info, opts, local ? new HostProbe(opts.runnerPids) : undefined);
      conn.client.on("error", (err) => c.fail(`the telemetry connection was lost: ${explainPgError(err)}`));
      await c.startWaits(url);
      await c.sample(false);
      if ((opts.intervalMs ?? 1000) > 0) c.loop = c.run();
      return c;
    } catch (err) {
      await closeClient(conn.client);
      throw err;
    }
  }

  /** The collector's own backend on the target (its CPU is the telemetry's server-side cost). */
  get backendPid(): number {
    return this.conn.pid;
  }

  /** The wait sampler's backend, when it runs (its CPU is part of the telemetry's cost). */
  get waitsBackendPid(): number | undefined {
    return this.waits?.backendPid;
  }

  /** Starts the wait sampler; without it (refused, or turned off) each sample's own reading counts the backends. */
  private async startWaits(url: string) {
    const w = this.opts.waits ?? true;
    const once = { kind: "pg_stat_activity" as const, hz: 1000 / (this.opts.intervalMs || 1000), note: "one pg_stat_activity reading per sample" };
    if (w === false) {
      this.info.waits = once;
      return;
    }
    try {
      this.waits = await WaitSampler.start(url, {
        runPids: () => this.opts.runPids?.() ?? [],
        ...(typeof w === "object" ? w : {}),
        track: this.opts.track,
        log: this.opts.log,
      });
      this.info.waits = this.waits.source;
    } catch (err) {
      this.info.waits = once;
      this.info.missing.push(
        `the wait sampler could not connect (${explainPgError(err)}): the backends' states and waits were read once per sample, which sees the run's connections idle more often than they are`,
      );
    }
  }

  /** The samples kept (the last `keep`), oldest first. */
  samples(): readonly TelemetrySample[] {
    return this.ring;
  }

  /**
   * Takes a reading now (rates since the previous one), or resolves undefined at once when one is still in
   * flight (a slow target: readings never queue up) or sampling has stopped. Never rejects: a failed reading
   * stops sampling and says why (failed, info.missing).
   */
  sampleNow(): Promise<TelemetrySample | undefined> {
    if (this.stopper.stopped || this.inFlight) return Promise.resolve(undefined);
    const p = this.sample(true).catch((err) => {
      this.fail(`a sample failed: ${explainPgError(err)}`);
      return undefined;
    });
    this.inFlight = p.finally(() => (this.inFlight = undefined));
    return p;
  }

  /** Stops sampling and closes the connection. */
  async stop(): Promise<void> {
    this.stopper.stop();
    this.clientProbe?.stop();
    await this.waits?.stop();
    // Closed first, bounded: a reading in flight on a target that stopped answering then fails instead of
    // holding the stop (and the run's end) for ever.
    await closeClient(this.conn.client);
    await this.loop;
    await this.inFlight;
  }

  private waitsCpuSec?: number;

  /** Keeps the wait sampler under its share of the target's CPU (a local target: its backend's CPU is in /proc). */
  private budgetWaits(readings: number, serverCores: number, sec: number) {
    const pid = this.waits?.backendPid;
    if (pid === undefined || this.waits?.source.kind !== "pg_stat_activity") return;
    const now = processCpuSeconds(pid);
    const before = this.waitsCpuSec;
    this.waitsCpuSec = now;
    if (now === undefined || before === undefined || readings <= 0) return;
    const perReading = Math.max(now - before, 0) / readings;
    // The target's CPU less the sampler's own.
    if (sec > 0) this.waits.budget(perReading, serverCores - Math.max(now - before, 0) / sec);
  }

  /** The wait sampler's counts since the previous sample (undefined without a working sampler). */
  private async takeWaits(): Promise<WaitTally | undefined> {
    if (!this.waits) return undefined;
    const t = await this.waits.take();
    if (this.waits.failed) {
      this.info.missing.push(`${this.waits.failed}: from then on the backends were counted once per sample`);
      this.info.waits = { kind: "pg_stat_activity", hz: 1, note: "one pg_stat_activity reading per sample (the wait sampler stopped)" };
      const w = this.waits;
      this.waits = undefined;
      void w.stop();
    }
    return t;
  }

  private fail(reason: string) {
    if (this.failed || this.stopper.stopped) return;
    this.failed = reason;
    this.info.missing.push(`telemetry stopped: ${reason}`);
    this.opts.log?.(`telemetry stopped: ${reason}`);
    this.stopper.stop();
  }

  private async run() {
    const period = this.opts.intervalMs ?? 1000;
    let due = clock() + period;
    while (!this.stopper.stopped) {
      await this.stopper.sleep(Math.max(due - clock(), 0));
      if (this.stopper.stopped) break;
      // Timers fire early: wait out the rest rather than take a short interval.
      if (clock() < due) continue;
      try {
        await this.sample(true);
      } catch (err) {
        if (this.stopper.stopped) break;
        this.fail(`a sample failed: ${explainPgError(err)}`);
        break;
      }
      // A slow sample skips the periods it overran instead of bunching up.
      due += Math.max(1, Math.ceil((clock() - due) / period)) * period;
    }
  }

  /** One reading: rates since the previous one; `emit` false takes the baseline only. */
  private async sample(emit: boolean): Promise<TelemetrySample | undefined> {
    const pids = [...(this.opts.runPids?.() ?? [])].filter((p) => Number.isInteger(p) && p > 0);
    const pidArray = `'{${pids.join(",")}}'::int[]`;
    const statements = [
      `SELECT pid, pid = ANY(${pidArray}) AS run, state, wait_event_type AS wt, wait_event AS we, backend_type AS bt,
         age(backend_xmin) AS xmin_age, EXTRACT(epoch FROM clock_timestamp() - xact_start) AS xact_sec,
         greatest(age(backend_xid), age(backend_xmin)) AS horizon_age, application_name AS app, left(query, 300) AS query
       FROM pg_stat_activity WHERE pid <> pg_backend_pid()`,
      `SELECT (SELECT max(age(transaction)) FROM pg_prepared_xacts) AS prepared_age,
         (SELECT max(greatest(age(xmin), age(catalog_xmin))) FROM pg_replication_slots) AS slot_age,
         count(*) FILTER (WHERE NOT granted) AS lock_waits,
         count(*) FILTER (WHERE NOT granted AND pid = ANY(${pidArray})) AS run_lock_waits
       FROM pg_locks`,
      walSql(this.caps),
      checkpointSql(this.caps),
      `SELECT xact_commit, xact_rollback, tup_inserted, tup_updated, tup_deleted, blks_read, blks_hit, deadlocks
       FROM pg_stat_database WHERE datname = current_database()`,
      ...(this.opts.schema
        ? [
            `SELECT coalesce(sum(n_live_tup), 0) AS live, coalesce(sum(n_dead_tup), 0) AS dead,
               coalesce(sum(autovacuum_count), 0) AS av, coalesce(sum(autoanalyze_count), 0) AS aa
             FROM pg_stat_user_tables WHERE schemaname = ${lit(this.opts.schema)}`,
          ]
        : []),
    ];
    const t0 = clock();
    // One simple query, one round trip: the statements' results come back in order.
    const [results, tally] = (await Promise.all([this.conn.client.query(statements.join(";\n")), this.takeWaits()])) as unknown as [
      pg.QueryResult[],
      WaitTally | undefined,
    ];
    const [activity, misc, wal, cp, db, tables] = results.map((r) => r.rows);
    const at = clock();
    const sec = (at - this.prevAt) / 1000;

    const run: BackendCounts = { total: 0, active: 0, idle: 0, idleInTx: 0 };
    const other: BackendCounts = { total: 0, active: 0, idle: 0, idleInTx: 0 };
    const runWaits: WaitCounts = {};
    const otherWaits: WaitCounts = {};
    let xminAge: number | undefined;
    let oldestXact: number | undefined;
    let holder: XminHolder | undefined;
    const serverPids: number[] = [];
    const ours = new Set([this.waits?.backendPid]);
    for (const a of activity) {
      serverPids.push(Number(a.pid));
      if (a.xmin_age !== null) xminAge = Math.max(xminAge ?? 0, Number(a.xmin_age));
      // A vacuum's transaction does not hold the horizon back (PROC_IN_VACUUM): leave autovacuum out.
      if (a.xact_sec !== null && a.bt !== "autovacuum worker") oldestXact = Math.max(oldestXact ?? 0, Number(a.xact_sec));
      // Who holds the horizon back, outside the run: the oldest transaction with a snapshot or a transaction id.
      const isRunPid = a.run === "t" || a.run === true;
      if (!isRunPid && !ours.has(Number(a.pid)) && a.bt !== "autovacuum worker" && a.horizon_age !== null && a.xact_sec !== null)
        if (!holder || Number(a.xact_sec) > holder.xactSec)
          holder = {
            pid: Number(a.pid),
            applicationName: String(a.app ?? ""),
            state: String(a.state ?? a.bt ?? ""),
            query: String(a.query ?? ""),
            xactSec: Number(a.xact_sec),
            xminAgeXids: Number(a.horizon_age),
          };
      // Background processes have no state; sessions hidden from a role without pg_monitor neither.
      if (a.state === null) continue;
      const isRun = a.run === "t" || a.run === true;
      const counts = isRun ? run : other;
      const waits = isRun ? runWaits : otherWaits;
      counts.total++;
      if (a.state === "active") {
        counts.active++;
        const key = a.wt === null ? "CPU" : `${a.wt}:${a.we}`;
        waits[key] = (waits[key] ?? 0) + 1;
      } else if (String(a.state).startsWith("idle in transaction")) counts.idleInTx++;
      else counts.idle++;
    }
    // The wait sampler's readings of the interval when it runs, even none (a slowed sampler may take no reading
    // in a short interval): this reading is on the engine's tick, when the run's connections wait on the client,
    // so mixing it in would bring back the bias the sampler avoids. Only without a sampler does it count.
    const counted: WaitTally = tally ?? { ticks: 1, run, other, runWaits, otherWaits, blockers: [] };
    const m = misc[0];
    for (const age of [m.prepared_age, m.slot_age]) if (age !== null) xminAge = Math.max(xminAge ?? 0, Number(age));

    const counters: Counters = {
      wal: numeric(wal[0]),
      cp: numeric(cp[0]),
      db: numeric(db[0]),
      ...(tables ? { tables: { av: Number(tables[0].av), aa: Number(tables[0].aa) } } : {}),
    };
    const host = this.host?.read(serverPids);
    if (host && tally) this.budgetWaits(tally.ticks, host.serverCpuCores, sec);
    const client = emit ? this.clientProbe?.read() : (this.clientProbe?.read(), undefined);
    const prev = this.prev;
    this.prev = counters;
    this.prevAt = at;
    if (!emit || sec <= 0) return undefined;

    const rate = (now: Record<string, number | null> | undefined, before: Record<string, number | null> | undefined, key: string) => {
      const a = now?.[key];
      const b = before?.[key];
      if (a === null || a === undefined || b === null || b === undefined) return undefined;
      // A stats reset makes a counter go back: count nothing for that interval rather than a negative rate.
      return Math.max(a - b, 0) / sec;
    };
    const count = (now: Record<string, number | null> | undefined, before: Record<string, number | null> | undefined, key: string) => {
      const r = rate(now, before, key);
      return r === undefined ? undefined : Math.round(r * sec);
    };
    const walBytes = rate(counters.wal, prev.wal, "bytes");
    const s: TelemetrySample = {
      time: new Date().toISOString(),
      intervalSec: sec,
      ticks: counted.ticks,
      run: counted.run,
      runWaits: counted.runWaits,
      other: counted.other,
      otherWaits: counted.otherWaits,
      // Ungranted locks: the wait sampler's readings (several a second) when it runs; pg_locks at this tick otherwise.
      ...(tally
        ? {
            lockWaits: tally.ticks > 0 ? (lockWaitsIn(tally.runWaits) + lockWaitsIn(tally.otherWaits)) / tally.ticks : 0,
            runLockWaits: tally.ticks > 0 ? lockWaitsIn(tally.runWaits) / tally.ticks : 0,
            ...(tally.lockMax !== undefined ? { lockWaitsMax: tally.lockMax } : {}),
            ...(tally.blockers.length ? { lockBlockers: tally.blockers } : {}),
          }
        : { lockWaits: Number(m.lock_waits), runLockWaits: Number(m.run_lock_waits) }),
      ...(holder ? { xminHolder: holder } : {}),
      ...(xminAge !== undefined ? { xminAgeXids: xminAge } : {}),
      ...(oldestXact !== undefined ? { oldestXactSec: oldestXact } : {}),
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
              ...(this.caps.walTiming
                ? { writeMsPerSec: rate(counters.wal, prev.wal, "write_time"), syncMsPerSec: rate(counters.wal, prev.wal, "sync_time") }
                : {}),
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
              liveTuples: Number(tables[0].live),
              deadTuples: Number(tables[0].dead),
              autovacuumRuns: Math.max(counters.tables!.av - prev.tables.av, 0),
              autoanalyzeRuns: Math.max(counters.tables!.aa - prev.tables.aa, 0),
            },
          }
        : {}),
      ...(host ? { host } : {}),
      ...(client ? { client } : {}),
      overhead: { statements: statements.length, ms: at - t0 },
    };
    this.ring.push(s);
    if (this.ring.length > (this.opts.keep ?? 600)) this.ring.shift();
    return s;
  }
}

function numeric(row: Record<string, unknown> | undefined): Record<string, number | null> | undefined {
  if (!row) return undefined;
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, n(v)]));
}

/** Drops undefined fields (a server that does not expose one leaves it out rather than 0). */
function prune<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
