// The telemetry collector: once a second, on a connection of its own, what the target was doing (wait events
// of the run's backends and everyone else's, WAL, checkpoints, the database's and the run's tables' counters,
// the xmin horizon, lock waits), the host's CPU and disks when the target is on this machine, and the
// runner's own CPU and event loop. One round trip per sample (six statements in one simple query); its own
// cost is in every sample (overhead). Memory is bounded: the last `keep` samples, and a constant-size
// accumulator per window (lib/telemetry/window.ts).
import type pg from "pg";
import { explainPgError } from "../../lib/targets/pgurl";
import type { TelemetryInfo, TelemetrySample } from "../../lib/telemetry/shape";
import { closeClient, isConnectionError, libraryApplicationName, openClient, type TargetClient } from "../core/pg/pgclient";
import { clock, Stopper } from "../core/timing";
import { ClientProbe } from "./client";
import { HostProbe, processCpuSeconds, processName } from "./host";
import { type Capabilities, type Counters, countBackends, counterRates, lockWaitsOf, numeric, readingSql } from "./reading";
import { hiddenStandbysNote, replicationOf } from "./replication";
import { SIZE_EVERY_READINGS, type TableSizes, TableSizeReader } from "./sizes";
import { WaitSampler, type WaitTally } from "./waits";

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
  /**
   * The run restarts its target (a restart-target phase): a lost connection is opened again at the next reading
   * instead of ending the telemetry; the readings it could not take are missing (no reading, never zeros), counted
   * in info.missing, and the first reading after it is a new baseline (no rates across the outage).
   */
  reconnects?: boolean;
}

const LOOPBACK = new Set(["127.0.0.1", "::1"]);
/** How many times a run that restarts its target starts its wait sampler again after losing it. */
const MAX_WAIT_RESTARTS = 3;

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
  /** Backends of a queue library's pool seen in readings (findLibraryPids). */
  private readonly libraryPids = new Set<number>();
  /** The run's tables' sizes, read between readings on this connection without waiting on a lock (./sizes.ts). */
  private sizes?: TableSizeReader;
  /** Readings taken, the baseline's included (sizes are read after every SIZE_EVERY_READINGS-th). */
  private readings = 0;
  /** Set when the connection was lost or a sample failed for good: sampling stopped, the reason is in info.missing. */
  failed?: string;
  /** A run that restarts its target (opts.reconnects): the connection is lost and readings are missing until it is
   *  open again; since when (clock ms), however many readings were due meanwhile (a reconnect in flight skips some). */
  private down = false;
  private downSinceMs = 0;
  /** Why the wait sampler stopped, when it is to be started again (a run that restarts its target), and how often it was. */
  private waitsToRestart?: string;
  private waitRestarts = 0;
  private url = "";
  readonly info: TelemetryInfo;

  private constructor(conn: TargetClient, caps: Capabilities, info: TelemetryInfo, opts: CollectorOptions, host?: HostProbe) {
    this.conn = conn;
    this.caps = caps;
    this.info = info;
    this.opts = opts;
    this.host = host;
    if (opts.client !== false) this.clientProbe = new ClientProbe();
    if (opts.schema) this.sizes = new TableSizeReader(conn.client, opts.schema);
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
           host(inet_server_addr()) AS addr, pg_backend_pid() AS pid, current_setting('synchronous_commit') AS sync_commit`,
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
      const info: TelemetryInfo = {
        serverVersionNum: caps.version,
        monitor: caps.monitor,
        host,
        missing: missingFor(caps, String(row.role), host),
        synchronousCommit: String(row.sync_commit),
      };
      const c = new TelemetryCollector(conn, caps, info, opts, local ? new HostProbe(opts.runnerPids) : undefined);
      c.role = String(row.role);
      c.url = url;
      // A run that restarts its target opens the connection again (revive); any other run's telemetry stops.
      if (!opts.reconnects) conn.client.on("error", (err) => c.fail(`the telemetry connection was lost: ${explainPgError(err)}`));
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
        runPids: () => this.runPids(),
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
    const p = (this.down ? this.revive() : this.sampleRestarting()).catch((err) => {
      if (this.opts.reconnects && isConnectionError(err, this.conn)) this.lose();
      else this.fail(`a sample failed: ${explainPgError(err)}`);
      return undefined;
    });
    this.inFlight = p.finally(() => (this.inFlight = undefined));
    return p;
  }

  /** A reading, the wait sampler first started again when it was lost (a run that restarts its target). */
  private async sampleRestarting(): Promise<TelemetrySample | undefined> {
    if (this.waitsToRestart) await this.restartWaits();
    return this.sample(true);
  }

  /** The connection went with the target (a restart): this reading is missing, and so is each until it is back. */
  private lose() {
    if (this.down) return;
    this.opts.log?.("telemetry lost its connection (the target restarted?): its readings are missing until it is back");
    this.down = true;
    this.downSinceMs = clock();
  }

  /**
   * After the connection was lost in a run that restarts its target: opens it again (at most one try a reading) and
   * takes a new baseline, so that no rate spans the outage; this reading is missing either way. Throws (counted as
   * one more missing reading) while the target does not take the connection.
   */
  private async revive(): Promise<undefined> {
    await this.conn.reconnect();
    await this.conn.client.query("SET statement_timeout = '2s'; SET lock_timeout = '1s'");
    if (this.opts.schema) this.sizes = new TableSizeReader(this.conn.client, this.opts.schema);
    if (this.waitsToRestart) await this.restartWaits();
    await this.sample(false);
    this.down = false;
    this.info.missing.push(
      `no server reading for ${this.downText()} while the target restarted (the telemetry's connection was opened again after it): those seconds have no telemetry, not zeros`,
    );
    return undefined;
  }

  /** How long the readings have been missing, from the loss to now, in words ("1.4 s"). */
  private downText(): string {
    return `${((clock() - this.downSinceMs) / 1000).toFixed(1)} s`;
  }

  /** Stops sampling and closes the connection. */
  async stop(): Promise<void> {
    if (this.down)
      this.info.missing.push(
        `no server reading for the last ${this.downText()} of the run: the telemetry's connection went with a restart of the target and was not open again before the run ended`,
      );
    this.down = false;
    if (this.waitsToRestart) this.waitsStopped(this.waitsToRestart);
    this.waitsToRestart = undefined;
    this.stopper.stop();
    this.clientProbe?.stop();
    const [waits, client] = [this.waits, this.conn.client];
    await this.waits?.stop();
    // Closed first, bounded: a reading in flight on a target that stopped answering then fails instead of
    // holding the stop (and the run's end) for ever.
    await closeClient(this.conn.client);
    await this.loop;
    await this.inFlight;
    // A reading in flight after a restart of the target (revive, restartWaits) may have opened the connection or the
    // wait sampler again meanwhile: closed too, or a "pgbb" session would outlive the run (and a later restart-target
    // run's preflight would take it for another run's).
    if (this.waits !== waits) await this.waits?.stop();
    if (this.conn.client !== client) await closeClient(this.conn.client);
  }

  private waitsCpuSec?: number;
  /** Whether the note on standbys the role cannot see was added (once a run), and the role. */
  private hiddenNoted = false;
  private role = "";

  /** The reading's replication (./replication.ts), and once a run the note when the role cannot see the standbys. */
  private replication(value: unknown) {
    const { reading, hidden } = replicationOf(value);
    if (hidden > 0 && !this.hiddenNoted) {
      this.hiddenNoted = true;
      this.info.missing.push(hiddenStandbysNote(hidden, this.role));
    }
    return reading ? { replication: reading } : {};
  }

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
    const why = this.waits.failed;
    if (why) {
      void this.waits.stop();
      this.waits = undefined;
      // A run that restarts its target starts the sampler again once the target is back (a few times at most).
      if (this.opts.reconnects && this.waitRestarts < MAX_WAIT_RESTARTS) this.waitsToRestart = why;
      else this.waitsStopped(why);
    }
    return t;
  }

  /** The wait sampler stopped for good: from then on each reading counts the backends. */
  private waitsStopped(reason: string) {
    this.info.missing.push(`${reason}: from then on the backends were counted once per sample`);
    this.info.waits = { kind: "pg_stat_activity", hz: 1, note: "one pg_stat_activity reading per sample (the wait sampler stopped)" };
  }

  /** The wait sampler, lost with the target's restart, started again (its own failure to start is noted by startWaits). */
  private async restartWaits() {
    const why = this.waitsToRestart!;
    this.waitsToRestart = undefined;
    this.waitRestarts++;
    await this.startWaits(this.url);
    if (this.waits)
      this.info.missing.push(`${why}: the wait sampler was started again once the target was back; meanwhile the backends were counted once per sample`);
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

  /** The run's backends: the engine's connections, and those of a queue library's own pool found so far. */
  private runPids(): number[] {
    return [...(this.opts.runPids?.() ?? []), ...this.libraryPids];
  }

  /** A queue library's pool opens its connections when its workers start, named for the run (libraryApplicationName):
   *  each reading adds those it sees, so they count as the run's from the next reading on. */
  private findLibraryPids(activity: Record<string, unknown>[]) {
    if (!this.opts.schema) return;
    const name = libraryApplicationName(this.opts.schema);
    for (const a of activity) if (a.app === name) this.libraryPids.add(Number(a.pid));
  }

  /**
   * The run's tables' sizes as last read (at most SIZE_EVERY_READINGS readings ago), and every SIZE_EVERY_READINGS-th
   * reading a new size reading started for the samples after it: after this reading's round trip, so it never delays one. Sizes the role cannot read are named once in info.missing.
   */
  private tableSizes() {
    const r = this.sizes;
    if (!r) return undefined;
    if (this.readings++ % SIZE_EVERY_READINGS === 0) void r.refresh();
    if (r.failed) {
      this.info.missing.push(r.failed);
      this.sizes = undefined;
    }
    return r.latest;
  }

  /** One reading: rates since the previous one; `emit` false takes the baseline only. */
  private async sample(emit: boolean): Promise<TelemetrySample | undefined> {
    const pids = this.runPids().filter((p) => Number.isInteger(p) && p > 0);
    const statements = readingSql(this.caps, pids, this.opts.schema);
    const t0 = clock();
    // One simple query, one round trip: the statements' results come back in order.
    const [results, tally] = (await Promise.all([this.conn.client.query(statements.join(";\n")), this.takeWaits()])) as unknown as [
      pg.QueryResult[],
      WaitTally | undefined,
    ];
    const [activity, misc, wal, cp, db, tables] = results.map((r) => r.rows);
    const at = clock();
    const sizes = this.tableSizes();
    const sec = (at - this.prevAt) / 1000;
    this.findLibraryPids(activity);
    const backends = countBackends(activity, new Set([this.waits?.backendPid]));
    // The wait sampler's readings of the interval when it runs, even none (a slowed sampler may take no reading
    // in a short interval): this reading is on the engine's tick, when the run's connections wait on the client,
    // so mixing it in would bring back the bias the sampler avoids. Only without a sampler does it count.
    const counted: WaitTally = tally ?? {
      ticks: 1,
      run: backends.run,
      other: backends.other,
      runWaits: backends.runWaits,
      otherWaits: backends.otherWaits,
      blockers: [],
    };
    const m = misc[0];
    let xminAge = backends.xminAge;
    for (const age of [m.prepared_age, m.slot_age]) if (age !== null) xminAge = Math.max(xminAge ?? 0, Number(age));
    const counters: Counters = {
      wal: numeric(wal[0]),
      cp: numeric(cp[0]),
      db: numeric(db[0]),
      ...(tables ? { tables: { av: Number(tables[0].av), aa: Number(tables[0].aa) } } : {}),
    };
    const host = this.host?.read(backends.serverPids);
    if (host && tally) this.budgetWaits(tally.ticks, host.serverCpuCores, sec);
    const client = emit ? this.clientProbe?.read() : (this.clientProbe?.read(), undefined);
    const prev = this.prev;
    this.prev = counters;
    this.prevAt = at;
    if (!emit || sec <= 0) return undefined;
    const s: TelemetrySample = {
      time: new Date().toISOString(),
      intervalSec: sec,
      ticks: counted.ticks,
      run: counted.run,
      runWaits: counted.runWaits,
      other: counted.other,
      otherWaits: counted.otherWaits,
      ...lockWaitsOf(tally, m),
      ...(backends.holder ? { xminHolder: backends.holder } : {}),
      ...(xminAge !== undefined ? { xminAgeXids: xminAge } : {}),
      ...(backends.oldestXact !== undefined ? { oldestXactSec: backends.oldestXact } : {}),
      ...withSizes(counterRates(counters, prev, sec, this.caps, tables?.[0]), sizes),
      ...(host ? { host } : {}),
      ...(client ? { client } : {}),
      ...this.replication(m.replication),
      overhead: { statements: statements.length, ms: at - t0 },
    };
    this.ring.push(s);
    if (this.ring.length > (this.opts.keep ?? 600)) this.ring.shift();
    return s;
  }
}

/** The run's tables' row with their sizes, when both were read. */
function withSizes<T extends { tables?: TelemetrySample["tables"] }>(rates: T, sizes: TableSizes | undefined): T {
  return rates.tables && sizes ? { ...rates, tables: { ...rates.tables, ...sizes } } : rates;
}
