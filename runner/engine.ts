// The engine: runs one workload against a target and returns its summary. Used by the runner process
// (runs claimed from the control store), the CLI and the benchmark scripts alike.
//
// Phases: setup → warmup (if warmupSeconds > 0) → measuring (durationSeconds) → draining (writers stopped,
// readers catch up until the backlog is 0 or drainSeconds pass) → verifying → done.
// One sample per second through onSample. The summary covers exactly the measured window.
import { randomBytes } from "node:crypto";
import type pg from "pg";
import type { Operations, Phase } from "../lib/measurement/metrics";
import { budgetProblem, readBudget } from "../lib/targets/capacity";
import { controlStoreProblem, readTargetFacts, type ServerIdentity } from "../lib/targets/connect";
import { explainPgError, lostConnection, maskUrl } from "../lib/targets/pgurl";
import type { SampleMetrics } from "../lib/measurement/sample";
import { RunSummary } from "../lib/measurement/summary";
import { definitionOf, MAX_DRAIN_SECONDS, pacingOf, payloadBytesOf, type WorkloadConfig } from "../lib/workloads/config";
import { writeBatchOf } from "../workloads/types";
import { closeClient, ident, LOOP_STATEMENT_TIMEOUT_MS, openClient, openClients, type LostWatch, type TargetClient } from "./pg/pgclient";
import { LivenessWatch, TargetUnresponsive, type LivenessOptions } from "./pg/liveness";
import { schemaComment, schemaLock } from "./sweep";
import { RunFootprint } from "./footprint";
import { loadOverSamples, type SampleRunnerLoad } from "../lib/measurement/runner-load";
import { RunnerLoadMeter } from "./load-meter";
import { RunStats, ScheduleWatch, type Report } from "./stats";
import { Pacer } from "./pacing";
import { busyWaitForTest, clock, Stopper } from "./timing";
import { workloadFor } from "../workloads/runners";
import { TelemetryRecorder } from "./telemetry/recorder";
import { PaceTrack, paceSpecOf } from "../lib/telemetry/pace";
import { doersOf, paceInputOf, plural } from "../lib/telemetry/pace-rules";
import { DiskWatch, reserveMbFromEnv, type WatchedFolder } from "./disk-watch";
import { diskOf } from "../platform/disk";
import { runRoles, type WorkloadRun } from "../workloads/runtime";
import type { ClientInput } from "../lib/telemetry/verdict";
import { isLocalAddress, ownSummary, type TargetFacts } from "./run-summary";
import { coordinate, type PartsForTest } from "./parts/coordinator";
import type { RemotePartsOptions } from "./parts/remote-parts";
import { partsProblem } from "../lib/workloads/parts";

export { isLocalAddress } from "./run-summary";

export interface EngineSample {
  seq: number;
  phase: Phase;
  time: Date;
  metrics: SampleMetrics;
}

export interface EngineOptions {
  signal?: AbortSignal;
  onSample?: (s: EngineSample) => void | Promise<void>;
  onPhase?: (p: Phase) => void;
  log?: (line: string) => void;
  /** Every config.reportIntervalSeconds: rates and percentiles since the previous report (the CLI's live line). */
  onReport?: (r: Report) => void;
  /** Names the run's schema on the target: pgbb_<runId>. Default: pgbb_cli_<random>. */
  runId?: string;
  /** Longest drain in seconds (default 10). */
  drainSeconds?: number;
  /** Leave the schema on the target at the end (tests inspect it; the caller must drop it). */
  keepSchema?: boolean;
  /** Told the schema name once it exists (tests use it to tamper with a run). */
  onSchema?: (schema: string) => void;
  /** More folders whose disk is watched besides a local target's data (the runner adds the control store's). */
  watchDisks?: WatchedFolder[];
  /** Space kept free on each watched disk, in MiB (default: DISK_RESERVE_MB, else platform/disk.ts's rule). */
  diskReserveMb?: number;
  /** The app's control store, when the caller has one: a target that is its database is refused (lib/targets/connect.ts). */
  controlStore?: ServerIdentity | null;
  /** Collect server telemetry beside the run and judge what limited it (default true; runner/telemetry/). */
  telemetry?: boolean;
  /** Told every throttled write's due time, send time and end time (clock ms): tests check the schedule. */
  onScheduledWrite?: (due: number, sent: number, done: number) => void;
  /**
   * Tests only (never a setting of a run): blocks the runner's event loop for `forMs` every `everyMs` while the
   * load runs, as a busy runner would, to check that the run then calls itself client-bound.
   */
  busyWaitForTest?: { everyMs: number; forMs: number };
  /** Tests only: shorter bounds for declaring the target unresponsive (runner/pg/liveness.ts). */
  livenessForTest?: LivenessOptions;
  /** Tests only: a run over several processes with another part entry or shorter bounds (runner/parts/coordinator.ts). */
  partsForTest?: PartsForTest;
  /** A runner with a control store: parts past its RUNNER_MAX_LOCAL_PARTS go to other runners (runner/parts/remote-parts.ts). */
  remoteParts?: RemotePartsOptions;
  /** Without one: RUNNER_MAX_LOCAL_PARTS, to say that every part is forked here all the same. */
  maxLocalParts?: number;
}

/** Rejection of a run stopped by its AbortSignal. */
export class RunCancelled extends Error {
  /** What else happened on the way out (the target did not answer, the schema left behind), for the run's error. */
  readonly notes: string[] = [];
  constructor(message = "the run was cancelled") {
    super(message);
    this.name = "AbortError";
  }
}

const DRAIN_SECONDS = MAX_DRAIN_SECONDS; // lib/workloads/config.ts: the New run form counts it in the total time
/** After a cancel, loops get this long to finish their statement before it is cancelled server-side. */
const STOP_GRACE_MS = 700;
/** The longest a statement that cancels the loops' statements may wait for the target, once the run is stopping. */
const STOP_QUERY_MS = 2000;
/**
 * A cancelled run ends within this, whatever the target does: past it, every connection still open is destroyed.
 * Normally the liveness watch (runner/pg/liveness.ts) has found a stopped target, or the run ended, well before.
 */
export const CANCEL_DEADLINE_MS = 8000;

export function schemaNameFor(runId?: string): string {
  const base = runId ? runId.toLowerCase().replace(/[^a-z0-9_]/g, "_") : `cli_${randomBytes(4).toString("hex")}`;
  return `pgbb_${base}`.slice(0, 63);
}

/** The loud one-line error for a run whose verification failed, or null when it passed. */
export function verificationError(summary: RunSummary): string | null {
  const v = summary.verification;
  if (v.ok) return null;
  const shown = v.problems.slice(0, 5).join("; ");
  const more = v.problems.length > 5 ? `; and ${v.problems.length - 5} more` : "";
  return `verification FAILED: ${shown || "counts do not match the target"}${more}`;
}

/**
 * Checks the target may be written (not the control store's database, not read-only) and the run fits its
 * connection limit; throws an Error naming what is wrong and what to change.
 */
async function preflight(admin: pg.Client, config: WorkloadConfig, control: ServerIdentity | null | undefined): Promise<TargetFacts> {
  const target = await readTargetFacts(admin);
  const refused = controlStoreProblem(target, control) ?? target.readOnly;
  if (refused) throw new Error(refused);
  // The admin connection is open already: it is one of the run's connections, and not among the others in use.
  const { budget, row } = await readBudget(admin);
  const problem = budgetProblem(config, budget, "now");
  if (problem) throw new Error(problem.message);
  const { max, version, addr } = row;
  const s = await admin.query<{ name: string; value: string }>(
    // Settings whose value differs from the built-in default (client/session-level ones are our own). A source
    // other than 'default' is not enough: initdb writes shared_buffers = 128MB, DateStyle… into postgresql.conf
    // at their default values. setting and boot_val are both in the setting's base unit, so they compare as is.
    `SELECT name, current_setting(name) AS value FROM pg_settings
     WHERE source NOT IN ('default', 'override', 'client', 'session') AND setting IS DISTINCT FROM boot_val
     ORDER BY name`,
  );
  return { postgresVersion: version, serverSettings: Object.fromEntries(s.rows.map((x) => [x.name, x.value])), maxConnections: max, serverAddress: addr };
}

export async function runWorkload(config: WorkloadConfig, targetUrl: string, opts: EngineOptions = {}): Promise<RunSummary> {
  const log = opts.log ?? (() => undefined);
  const signal = opts.signal;
  // Over several processes each part owns a whole piece of the load: a config that cannot be split is refused first.
  const unsplittable = partsProblem(config);
  if (unsplittable) throw new Error(unsplittable);
  const startedAt = new Date();
  const module = workloadFor(config);
  // A message broker's payload size (the others have none: their MiB/s reads 0).
  const payloadBytes = payloadBytesOf(config) ?? 0;
  const stats = new RunStats(runRoles.groups(module, config as never), payloadBytes, clock);
  stats.onScheduledWrite = opts.onScheduledWrite;
  // The run's pacer, built from the definition's declared pacing; the engine's checks read its throttle.
  const pacer = new Pacer(pacingOf(config), stats);
  const throttle = pacer.throttle;
  // Slack of the catch-up test (ScheduleWatch): one batch in flight per writer, plus one batch of rounding.
  const writeBatch = writeBatchOf(definitionOf(config), config);
  // The measured window's seconds as the verdict's pace rules read them (rate asked and met, stalls, backlog).
  const pace = new PaceTrack(paceSpecOf(pacingOf(config), definitionOf(config).metrics));
  const words = { unit: pace.spec.unit, items: plural(pace.spec), doers: doersOf(pace.spec) };
  const schedule = throttle ? new ScheduleWatch(throttle.perSecond, (module.writerCount(config as never) + 1) * writeBatch, words) : null;
  const writersStop = new Stopper();
  const readersStop = new Stopper();
  const phaseSleep = new Stopper(); // woken on cancel or a fatal error, so the phase clock reacts at once
  let failure: Error | undefined;
  let rejectFailed: (e: Error) => void = () => undefined;
  /** Rejects with the first failure (cancel, lost connection), to race set-up steps against. */
  const failed = new Promise<never>((_, rej) => (rejectFailed = rej));
  failed.catch(() => undefined);
  const fail = (err: Error) => {
    failure ??= err;
    rejectFailed(failure);
    writersStop.stop();
    readersStop.stop();
    phaseSleep.stop();
  };
  // Every connection of the run is watched for silence: a target that stops answering fails the run, naming it.
  const liveness = new LivenessWatch(targetUrl, (err) => fail(err), opts.livenessForTest);
  let cancelDeadline: NodeJS.Timeout | undefined;
  const onAbort = () => {
    fail(new RunCancelled());
    liveness.urgent();
    cancelDeadline = setTimeout(
      () => liveness.destroyAll(new Error(`the run did not stop within ${CANCEL_DEADLINE_MS / 1000} s of the cancel`)),
      CANCEL_DEADLINE_MS,
    );
  };
  if (signal?.aborted) throw new RunCancelled();
  signal?.addEventListener("abort", onAbort, { once: true });
  const check = () => {
    if (failure) throw failure;
  };
  /** A watched disk short of free space fails the run (checked once a second). */
  const checkDisk = () => {
    const full = diskWatch?.check();
    if (full) fail(new Error(full));
  };

  let phase: Phase = "setup";
  let telemetry: TelemetryRecorder | undefined;
  const setPhase = (p: Phase) => {
    phase = p;
    opts.onPhase?.(p);
  };
  setPhase("setup");

  const schemaName = schemaNameFor(opts.runId);
  const schema = ident(schemaName);
  let admin: TargetClient | undefined;
  let clients: TargetClient[] = [];
  let schemaCreated = false;
  let run: WorkloadRun | undefined;
  const footprint = new RunFootprint(log);
  let meter: RunnerLoadMeter | undefined;
  let busy: { stop(): void } | undefined;
  let diskWatch: DiskWatch | undefined;
  let sampleChain: Promise<void> = Promise.resolve();
  let seq = 0;
  // Every connection the run holds is watched: losing one fails the run at once, naming it.
  let closing = false;
  const watch: LostWatch = {
    closing: () => closing,
    track: (tc) => liveness.add(tc),
    onLost: (tc, err) => fail(new Error(lostConnection(tc.role, targetUrl, err), { cause: err })),
  };

  try {
    log(`connecting to ${maskUrl(targetUrl)}`);
    admin = await openClient(targetUrl, "admin", false, 8000, watch);
    check();
    const facts = await preflight(admin.client, config, opts.controlStore);
    check();
    // Free space of the disks this run fills (a local target's) or that must keep room (the control store's).
    const disks = new DiskWatch(
      [...(await localDataFolders(admin.client, facts.serverAddress)), ...(opts.watchDisks ?? [])],
      opts.diskReserveMb ?? reserveMbFromEnv(),
    );
    for (const line of disks.describe()) log(line);
    const refused = disks.check(true);
    if (refused) throw new Error(refused);
    diskWatch = disks;

    // Held by this session until the run ends: a sweep (runner/sweep.ts) never drops a schema in use.
    await admin.client.query(schemaLock("pg_advisory_lock"), [schemaName]);
    try {
      await admin.client.query(`CREATE SCHEMA ${schema}`);
    } catch (err) {
      // Only a missing privilege calls for CREATE; read-only targets were named by the preflight.
      const hint = (err as { code?: string }).code === "42501" ? ". The user needs CREATE on the database" : "";
      throw new Error(`cannot create the run's schema ${schemaName} on the target: ${explainPgError(err)}${hint}`, { cause: err });
    }
    schemaCreated = true;
    // Whose and how old: a runner's sweep (runner/sweep.ts) drops the schema if this run cannot.
    await admin.client.query(`COMMENT ON SCHEMA ${schema} IS '${schemaComment(opts.runId).replace(/'/g, "''")}'`);
    opts.onSchema?.(schemaName);
    run = module.create({
      config: config as never,
      schema,
      stats,
      pacer,
      writersStop,
      readersStop,
      fatal: fail,
      log,
      footprint,
    });
    await run.setup(admin.client);
    check();
    if ((config.processes ?? 1) > 1) {
      // The coordinator of N part processes: this process runs no load (runner/parts/coordinator.ts).
      const summary = await coordinate({
        ...{ config, targetUrl, schemaName, run, stats, facts, log, setPhase, failed, fail, drainSeconds: opts.drainSeconds ?? DRAIN_SECONDS },
        ...{ runId: opts.runId ?? schemaName, admin: admin.client, onSample: opts.onSample, onReport: opts.onReport, telemetry: opts.telemetry !== false },
        ...{ cancelled: () => failure instanceof RunCancelled, cancelDeadlineMs: CANCEL_DEADLINE_MS, track: (tc) => liveness.add(tc) },
        ...{ liveness: opts.livenessForTest, forTest: opts.partsForTest, everySecond: () => checkDisk() },
        ...{ remote: opts.remoteParts, maxLocalParts: opts.maxLocalParts },
      });
      if (!summary.verification.ok) log(verificationError(summary)!);
      await teardown();
      setPhase("done");
      return summary;
    }
    log(`schema ${schemaName} ready; opening ${run.roles.length} connections`);
    clients = await openClients(targetUrl, run.roles, undefined, undefined, watch, LOOP_STATEMENT_TIMEOUT_MS);
    check();
    // The run's backends are the load's: the admin connection idles through it (it would bias the active share low).
    const pids = clients.map((c) => c.pid);
    if (opts.telemetry !== false) telemetry = await TelemetryRecorder.start(targetUrl, schemaName, pids, log, (tc) => liveness.add(tc));
    check();
    const nWriters = module.writerCount(config as never);
    const writerClients = clients.slice(0, nWriters);
    const readerClients = clients.slice(nWriters);

    // Readers first (they join their groups), then writers: nothing is written before someone can read it.
    await Promise.race([runRoles.startReaders(run, readerClients), failed]);
    check();
    const loadStart = clock();
    stats.markLoadStart();
    meter = new RunnerLoadMeter();
    pacer.begin(loadStart, nWriters);
    busy = busyWaitForTest(opts.busyWaitForTest);
    run.startWriters(writerClients);
    run.writersDone().catch((e) => fail(e instanceof Error ? e : new Error(String(e))));
    runRoles.readersDone(run).catch((e) => fail(e instanceof Error ? e : new Error(String(e))));

    // The phase clock: one sample per second, plus one at each phase end (a shorter interval) so no
    // interval spans two phases.
    let lastTick = loadStart;
    let lastReport = loadStart;
    const reportEveryMs = config.reportIntervalSeconds * 1000;
    // The workload's first timed operation (the broker's write): the latency the client-bound verdict judges by.
    const mainOp = definitionOf(config).metrics.operations.find((o) => o.latency);
    /** Each sample's runner load since the previous report, with its interval's length. */
    let reportLoads: { load: SampleRunnerLoad; sec: number }[] = [];
    const tick = () => {
      // Each writer's lag behind its own share, sampled once a second too: a writer stuck in a write has no
      // write ending to record it. Not in the drain: the writers have stopped, their shares would keep growing.
      checkDisk();
      const now = clock();
      const writerLags = throttle && phase !== "draining" ? Array.from({ length: nWriters }, (_, w) => throttle.writerLagMs(w, now)) : [];
      for (const l of writerLags) stats.recordWriterLag(l);
      const metrics = stats.tick(phase);
      // The server's reading of the same interval, taken now; the sample waits a little for it (off the loops' path).
      const reading = telemetry?.tick(phase);
      lastTick = clock();
      metrics.runnerLoad = meter!.tick(phase === "measuring", metrics.intervalSec);
      reportLoads.push({ load: metrics.runnerLoad, sec: metrics.intervalSec });
      if (phase === "measuring") pace.addSample(metrics);
      if (schedule && phase === "measuring")
        schedule.interval(throttle!.behindMs(lastTick), metrics.operations.write?.count ?? 0, metrics.intervalSec, writerLags);
      const s: EngineSample = { seq: seq++, phase, time: new Date(), metrics };
      if (opts.onSample) {
        const cb = opts.onSample;
        sampleChain = sampleChain
          .then(async () => {
            const t = await reading;
            if (t) s.metrics.telemetry = t;
            return cb(s);
          })
          .catch((e) => log(`could not store sample ${s.seq}: ${(e as Error).message}`));
      }
      if (opts.onReport && lastTick - lastReport >= reportEveryMs - 50) {
        lastReport = lastTick;
        const r = stats.report(phase);
        r.runnerLoad = loadOverSamples(reportLoads, mainOp ? r.latencyMs[mainOp.name]?.p50 : undefined);
        reportLoads = [];
        opts.onReport(r);
      }
    };
    const runPhase = async (endAt: number, done?: () => boolean) => {
      while (true) {
        check();
        const now = clock();
        if (now >= endAt || done?.()) break;
        const nextTick = lastTick + 1000;
        const wake = Math.min(nextTick, endAt, done ? now + 50 : Infinity);
        await phaseSleep.sleep(Math.max(wake - now, 0));
        check();
        const t = clock();
        if (t >= nextTick && t < endAt) tick();
      }
      tick(); // the phase's last (possibly partial) interval
    };

    let cpuStart = process.cpuUsage();
    let cpuSeconds = 0;
    if (config.warmupSeconds > 0) {
      setPhase("warmup");
      await runPhase(loadStart + config.warmupSeconds * 1000);
    }
    setPhase("measuring");
    cpuStart = process.cpuUsage();
    meter.startWindow();
    const measureStart = clock();
    await runPhase(measureStart + config.durationSeconds * 1000);
    meter.endWindow();
    const cpu = process.cpuUsage(cpuStart);
    cpuSeconds = (cpu.user + cpu.system) / 1e6;

    busy?.stop();
    setPhase("draining");
    const drainStart = clock();
    writersStop.stop();
    await run.writersDone();
    // Drained when the counted backlog is 0, or when readers keep polling and find nothing for 1 s (a backlog
    // the counters cannot see emptied: messages lost or tampered with; verification reports those).
    let lastReads = -1;
    let lastEmpty = 0;
    let lastChange = drainStart;
    const drained = () => {
      if (stats.maxBacklog() === 0) return true;
      const { consumed: reads, idlePolls: empty } = stats.drainProgress();
      if (reads !== lastReads) {
        lastReads = reads;
        lastEmpty = empty;
        lastChange = clock();
        return false;
      }
      return clock() - lastChange >= 1000 && empty > lastEmpty;
    };
    await runPhase(drainStart + (opts.drainSeconds ?? DRAIN_SECONDS) * 1000, drained);
    readersStop.stop();
    await runRoles.readersDone(run);
    check();
    const drainSeconds = (clock() - drainStart) / 1000;
    await sampleChain;

    setPhase("verifying");
    const v = await run.verify(admin.client);
    const { unreadAtEnd: _, ...checks } = v;
    const unreadAtEnd = runRoles.unreadAtEnd(v);
    // Counted in the unit the workload declares ("rows checked"), never assumed to be messages.
    const verification = { ...checks, unit: definitionOf(config).verifiedUnit };
    const summary = await ownSummary({
      config,
      stats,
      meter,
      facts,
      startedAt,
      cpuSeconds,
      runNotes: run.notes,
      schedule,
      drainSeconds,
      drainLimitSeconds: opts.drainSeconds ?? DRAIN_SECONDS,
      verification,
      unreadAtEnd,
      ...(telemetry ? { telemetry: finishTelemetry(telemetry, pace, stats, unreadAtEnd, readerClients.length) } : {}),
    });
    // The summary is a contract (lib/measurement/summary.ts): check it before anyone stores it.
    const parsed = RunSummary.safeParse(summary);
    if (!parsed.success) throw new Error(`internal error: the summary does not match its schema: ${parsed.error.issues[0]?.message}`);
    if (!verification.ok) log(verificationError(summary)!);
    await teardown();
    // A cancel (Ctrl-C) that came while verifying or dropping the schema ends the run as cancelled, as in any phase.
    check();
    setPhase("done");
    return summary;
  } catch (err) {
    const e = failure ?? (err instanceof Error ? err : new Error(String(err)));
    await telemetry?.stop();
    await stopLoops();
    await sampleChain;
    const left = await teardown();
    if (e instanceof RunCancelled) {
      // A cancel stays a cancel, saying what else happened on the way out.
      const notes = [liveness.unresponsive?.message, left].filter((n): n is string => !!n);
      e.notes.push(...notes);
      if (notes.length) e.message += `; ${notes.join("; ")}`;
    } else if (left) e.message += `; ${left}`;
    throw e;
  } finally {
    busy?.stop();
    clearTimeout(cancelDeadline);
    meter?.stop();
    closing = true;
    signal?.removeEventListener("abort", onAbort);
    await Promise.all([...clients, ...(admin ? [admin] : [])].map((c) => closeClient(c.client)));
    liveness.stop();
  }

  /** Stops every loop: politely first, then by cancelling their statements on the server. */
  async function stopLoops() {
    writersStop.stop();
    readersStop.stop();
    if (!run) return;
    const done = Promise.all([run.writersDone().catch(() => undefined), runRoles.readersDone(run).catch(() => undefined)]);
    const timedOut = await Promise.race([done.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), STOP_GRACE_MS))]);
    if (timedOut && admin && !admin.lost && clients.length) {
      // Bounded: on a target that stopped answering this would wait for ever (the liveness watch then destroys
      // the connections, and the loops end on that).
      const cancelled = admin.client.query("SELECT pg_cancel_backend(pid) FROM unnest($1::int[]) AS pid", [clients.map((c) => c.pid)]);
      await Promise.race([cancelled.catch(() => undefined), new Promise((r) => setTimeout(r, STOP_QUERY_MS))]);
      await Promise.race([done, new Promise((r) => setTimeout(r, 500))]);
    }
  }

  /**
   * Ends the clients, undoes the run's footprint outside its schema (runner/footprint.ts: jobs first, extensions
   * after the schema) and drops the schema; returns what was left behind (for the run's error), if anything.
   */
  async function teardown(): Promise<string | undefined> {
    closing = true;
    await Promise.all(clients.map((c) => closeClient(c.client)));
    if (!schemaCreated || !admin) return;
    const left = `the run's schema ${schemaName} could not be dropped`;
    const later = opts.runId ? "a runner's sweep drops it once the target answers" : `drop it by hand: DROP SCHEMA ${schema} CASCADE`;
    if (admin.lost) {
      if (opts.keepSchema) return;
      const why = admin.lost instanceof TargetUnresponsive ? "the target did not answer" : "the connection to the target was lost";
      log(`could not drop schema ${schemaName} (${why}); ${later}`);
      return `${left} (${why}); ${later}`;
    }
    // Do not wait forever on a lock held by a session we do not control.
    await admin.client.query("SET lock_timeout = '5s'").catch(() => undefined);
    await footprint.undoRegistered(admin.client);
    // A kept schema's objects still use the run's extensions: they stay (the caller drops both).
    if (opts.keepSchema) return void (await footprint.releaseExtensions(admin.client, false));
    try {
      await admin.client.query(`DROP SCHEMA ${schema} CASCADE`);
      schemaCreated = false;
    } catch (err) {
      const why = liveness.unresponsive ? "the target did not answer" : explainPgError(err);
      log(`could not drop schema ${schemaName}: ${why}; ${later}`);
      return `${left} (${why}); ${later}`;
    }
    await footprint.releaseExtensions(admin.client);
  }
}

/**
 * A target on this machine: its data folder and its WAL's (pg_wal may be a link to another disk), when the server
 * tells them (superusers and pg_read_all_settings do) and this process can see them. Else nothing to watch.
 */
async function localDataFolders(admin: pg.Client, serverAddress: string | null): Promise<WatchedFolder[]> {
  if (!isLocalAddress(serverAddress)) return [];
  try {
    const dir = (await admin.query<{ d: string }>("SELECT current_setting('data_directory') AS d")).rows[0].d;
    const wal = `${dir}/pg_wal`;
    const apart = diskOf(wal) && diskOf(wal)?.mount !== diskOf(dir)?.mount;
    return [{ what: "the target's data", dir }, ...(apart ? [{ what: "the target's WAL", dir: wal }] : [])];
  } catch {
    return [];
  }
}

/** The telemetry's end: the verdict over the window, with the run's pace and the runner's own numbers. */
function finishTelemetry(telemetry: TelemetryRecorder, pace: PaceTrack, stats: RunStats, unreadAtEnd: number, readers: number) {
  return (client: ClientInput, window: { operations: Operations }) =>
    telemetry.finish({ pace: paceInputOf(pace, window, { groups: stats.groups.length, unreadAtEnd, readers }), client });
}
