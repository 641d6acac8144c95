// One part of a run carried by several runner processes: forked by the coordinator (./coordinator.ts), it runs the
// roles it owns (lib/workloads/parts.ts) on the run's shared timeline and reports over IPC (./protocol.ts):
// run → connect, open its clients, start its readers → ready → (pings) → start: correct its clock, wait for the
// barrier, warm-up and measuring, a sample per second → drain until `drained` → done with its summary and ledger.
// It never sets the workload up nor verifies it (the coordinator does both for the whole run), and it exits on its
// own when the coordinator's IPC channel closes: a dead coordinator leaves no part running.
import os from "node:os";
import type { Phase } from "../../lib/measurement/metrics";
import { RunSummary } from "../../lib/measurement/summary";
import { definitionOf, pacingOf, payloadBytesOf, WorkloadConfig } from "../../lib/workloads/config";
import { writeBatchOf } from "../../workloads/types";
import { type PartOfRun, partPacing } from "../../lib/workloads/parts";
import { lostConnection } from "../../lib/targets/pgurl";
import { paceSpecOf } from "../../lib/telemetry/pace";
import { doersOf, plural } from "../../lib/telemetry/pace-rules";
import { workloadFor } from "../../workloads/runners";
import { runRoles, type WorkloadRun } from "../../workloads/runtime";
import { RunFootprint } from "../footprint";
import { RunnerLoadMeter } from "../load-meter";
import { Pacer } from "../pacing";
import { LivenessWatch } from "../pg/liveness";
import { closeClient, ident, LOOP_STATEMENT_TIMEOUT_MS, type LostWatch, openClients, type TargetClient } from "../pg/pgclient";
import { PRODUCT_VERSION } from "../../lib/env";
import { ownSummary, productCommit } from "../run-summary";
import { RunStats, ScheduleWatch } from "../stats";
import { busyWaitForTest, clock, setClockCorrection, sleepUntil, Stopper } from "../timing";
import { tickPart } from "./part-sample";
import { type FromPart, shapeProblem, ToPart } from "./protocol";

type RunMessage = Extract<ToPart, { type: "run" }>;
type StartMessage = Extract<ToPart, { type: "start" }>;

/** After a stop, loops get this long to end their statement before their connections are closed. */
const STOP_GRACE_MS = 700;

if (!process.send) {
  console.error("runner/parts/part-main.ts runs only as a part forked by a run's coordinator (runner/parts/coordinator.ts)");
  process.exit(2);
}

const send = (m: FromPart): Promise<void> =>
  new Promise((resolve) => {
    if (!process.connected) return resolve();
    process.send?.(m, undefined, {}, () => resolve());
  });

let failure: Error | undefined;
const stoppers = { writers: new Stopper(), readers: new Stopper(), phase: new Stopper() };
let rejectFailed: (e: Error) => void = () => undefined;
const failed = new Promise<never>((_, rej) => (rejectFailed = rej));
failed.catch(() => undefined);
function fail(err: Error) {
  failure ??= err;
  rejectFailed(failure);
  stoppers.writers.stop();
  stoppers.readers.stop();
  stoppers.phase.stop();
}
const check = () => {
  if (failure) throw failure;
};

let gotStart: (m: StartMessage) => void = () => undefined;
const started = new Promise<StartMessage>((r) => (gotStart = r));
let drainAt: number | undefined;
let running = false;

process.on("message", (raw) => {
  const parsed = ToPart.safeParse(raw);
  if (!parsed.success) return fail(new Error(`the coordinator sent a message of another shape (${shapeProblem(parsed.error)})`));
  const m = parsed.data;
  if (m.type === "ping") void send({ type: "pong", t: m.t, partClock: clock() });
  else if (m.type === "start") gotStart(m);
  else if (m.type === "drained") drainAt = m.atMs;
  else if (m.type === "stop") fail(new Error(`stopped by the coordinator: ${m.reason}`));
  else if (m.type === "run" && !running) {
    running = true;
    void main(m);
  }
});
// The coordinator is gone (it exited, or was killed): stop and exit, whatever this part was doing.
process.on("disconnect", () => {
  fail(new Error("the coordinator's channel closed"));
  setTimeout(() => process.exit(1), 3000).unref();
});

async function main(m: RunMessage) {
  let code = 0;
  try {
    await runPart(m);
  } catch (err) {
    code = 1;
    const e = failure ?? (err instanceof Error ? err : new Error(String(err)));
    await send({ type: "failed", error: e.message });
  }
  process.exit(code);
}

async function runPart(m: RunMessage) {
  const config = WorkloadConfig.parse(m.config);
  const part: PartOfRun = m.part;
  const log = (line: string) => process.stderr.write(`part ${part.index}: ${line}\n`);
  const module = workloadFor(config);
  const def = definitionOf(config);
  const stats = new RunStats(runRoles.groups(module, config as never), payloadBytesOf(config) ?? 0, clock);
  const pacer = new Pacer(partPacing(config, part), stats);
  const throttle = pacer.throttle;
  const nWriters = module.writerCount(config as never, part);
  const spec = paceSpecOf(pacingOf(config), def.metrics);
  const words = { unit: spec.unit, items: plural(spec), doers: doersOf(spec) };
  const schedule = throttle ? new ScheduleWatch(throttle.perSecond, (nWriters + 1) * writeBatchOf(def, config), words) : null;
  const liveness = new LivenessWatch(m.targetUrl, (err) => fail(err), m.liveness);
  let closing = false;
  const watch: LostWatch = {
    closing: () => closing,
    track: (tc) => liveness.add(tc),
    onLost: (tc, err) => fail(new Error(lostConnection(tc.role, m.targetUrl, err), { cause: err })),
  };
  let clients: TargetClient[] = [];
  let run: WorkloadRun | undefined;
  const meter = new RunnerLoadMeter();
  try {
    run = module.create({
      config: config as never,
      schema: ident(m.schemaName),
      stats,
      pacer,
      writersStop: stoppers.writers,
      readersStop: stoppers.readers,
      fatal: fail,
      log,
      footprint: new RunFootprint(log),
      part,
    });
    clients = await Promise.race([openClients(m.targetUrl, run.roles, undefined, undefined, watch, LOOP_STATEMENT_TIMEOUT_MS), failed]);
    check();
    const writerClients = clients.slice(0, nWriters);
    await Promise.race([runRoles.startReaders(run, clients.slice(nWriters)), failed]);
    check();
    await send({
      type: "ready",
      pid: process.pid,
      host: os.hostname(),
      backendPids: clients.map((c) => c.pid),
      product: { version: PRODUCT_VERSION, commit: productCommit() },
    });
    const start = await Promise.race([started, failed]);
    const timeline = await load(config, run, stats, meter, pacer, schedule, writerClients, start, m, nWriters);
    await send({ type: "done", ...timeline });
  } finally {
    closing = true;
    meter.stop();
    await stopLoops(run);
    await Promise.all(clients.map((c) => closeClient(c.client)));
    liveness.stop();
  }
}

/** Stops every loop, waiting a little for them to end their statements (their connections are closed after). */
async function stopLoops(run: WorkloadRun | undefined) {
  stoppers.writers.stop();
  stoppers.readers.stop();
  if (!run) return;
  const done = Promise.all([run.writersDone().catch(() => undefined), runRoles.readersDone(run).catch(() => undefined)]);
  await Promise.race([done, new Promise((r) => setTimeout(r, STOP_GRACE_MS))]);
}

/** The global index a writer role names ("writer 3 p4" → 3), else its position: its share of the throttle. */
const writerIndexOf = (role: string, position: number) => Number(/\d+/.exec(role)?.[0] ?? position);

/** The load on the shared timeline: barrier, warm-up, measuring, drain; a sample per second; its own summary. */
async function load(
  config: WorkloadConfig,
  run: WorkloadRun,
  stats: RunStats,
  meter: RunnerLoadMeter,
  pacer: Pacer,
  schedule: ScheduleWatch | null,
  writerClients: TargetClient[],
  start: StartMessage,
  m: RunMessage,
  nWriters: number,
) {
  const startedAt = new Date();
  // On the coordinator's clock from here on: every part's stamps and seconds are on one clock.
  setClockCorrection(-start.clockOffsetMs);
  const atMs = start.atMs;
  await sleepUntil(atMs, stoppers.phase);
  check();
  const startSkewMs = clock() - atMs;
  // What the readers (and this process) did before the barrier is in no second.
  stats.tick("setup");
  meter.tick(false, 1);
  stats.markLoadStart(atMs);
  pacer.begin(atMs, nWriters);
  const throttle = pacer.throttle;
  const writerIndexes = run.roles.slice(0, nWriters).map(writerIndexOf);
  const busy = busyWaitForTest(m.busyWaitForTest);
  run.startWriters(writerClients);
  run.writersDone().catch((e) => fail(e instanceof Error ? e : new Error(String(e))));
  runRoles.readersDone(run).catch((e) => fail(e instanceof Error ? e : new Error(String(e))));

  let phase: Phase = "measuring";
  /** The next whole second of the timeline (clock ms): seconds are cut there, however late the last tick was. */
  let tickDue = atMs + 1000;
  /** The last slot sent: a slot is sent once (the coordinator pairs the parts' seconds by it), never twice. */
  let lastCut = Number.NEGATIVE_INFINITY;
  const meta = { runId: m.runId, part: m.part.index, parts: m.part.of, startSkewMs, clockOffsetMs: start.clockOffsetMs };
  /** Ends the interval the timeline ends at `slotAt` (clock ms), and sends it as that slot's second. */
  const tick = (slotAt: number) => {
    const now = clock();
    const lags = throttle && phase !== "draining" ? writerIndexes.map((w) => throttle.writerLagMs(w, now)) : [];
    for (const l of lags) stats.recordWriterLag(l);
    const { metrics, sample } = tickPart(stats, phase);
    const runnerLoad = meter.tick(phase === "measuring", metrics.intervalSec);
    if (schedule && throttle && phase === "measuring")
      schedule.interval(throttle.behindMs(clock()), metrics.operations.write?.count ?? 0, metrics.intervalSec, lags);
    lastCut = slotAt;
    void send({ type: "sample", slotMs: Math.round(slotAt - atMs), sample: { ...meta, ...sample, runnerLoad } });
  };
  /**
   * Ticks at every whole second of the timeline until `endAt()`, then the phase's last interval. Every part cuts
   * the same slots (a whole second, a phase's end), so the coordinator pairs their seconds by slot: a part whose
   * event loop was late still sends each slot once, late. Without `final`, it ends with the last whole second.
   */
  const runPhase = async (endAt: () => number, final = true) => {
    while (true) {
      check();
      const now = clock();
      if (now >= endAt()) break;
      await stoppers.phase.sleep(Math.max(Math.min(tickDue, endAt(), now + 50) - now, 0));
      check();
      const t = clock();
      if (t >= tickDue && tickDue < endAt()) {
        tick(tickDue);
        tickDue += 1000;
      }
    }
    const end = endAt();
    // A drain's end that arrived after this part cut that slot: that second is sent already (what was read since
    // is in this part's totals, not in a second).
    if (final && end > lastCut) tick(end);
    while (tickDue <= end) tickDue += 1000;
  };

  const warmupEnd = atMs + config.warmupSeconds * 1000;
  if (config.warmupSeconds > 0) {
    phase = "warmup";
    await runPhase(() => warmupEnd);
  }
  phase = "measuring";
  const cpuStart = process.cpuUsage();
  meter.startWindow();
  await runPhase(() => warmupEnd + config.durationSeconds * 1000);
  meter.endWindow();
  const cpu = process.cpuUsage(cpuStart);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;

  phase = "draining";
  const drainStart = clock();
  stoppers.writers.stop();
  // Writers finishing (an open loop's drain lasts up to MAX_DRAIN_SECONDS) still send a second each second: the
  // coordinator fails a part silent for SILENCE_MS, and the drain's seconds are the run's.
  let writersOver = false;
  const writers = run.writersDone().finally(() => {
    writersOver = true;
  });
  writers.catch(() => undefined); // awaited below; a writer's failure already fails the part (load's start)
  await runPhase(() => (writersOver ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY), false);
  await writers;
  await send({ type: "writersDone" });
  // The coordinator ends the drain for every part at once, from the merged backlog (its `drained`).
  await runPhase(() => drainAt ?? Number.POSITIVE_INFINITY);
  stoppers.readers.stop();
  await runRoles.readersDone(run);
  check();
  busy.stop();
  const drainSeconds = (clock() - drainStart) / 1000;
  const summary = await ownSummary({
    config,
    stats,
    meter,
    facts: { postgresVersion: "", serverSettings: {}, maxConnections: 0, serverAddress: null },
    startedAt,
    cpuSeconds,
    runNotes: run.notes,
    schedule,
    drainSeconds,
    drainLimitSeconds: 0,
    // The coordinator verifies the whole run from every part's ledger: a part checks nothing of its own.
    verification: { ok: true, checked: 0, unit: definitionOf(config).verifiedUnit, problems: [], facts: [] },
    unreadAtEnd: 0,
  });
  const parsed = RunSummary.safeParse(summary);
  if (!parsed.success) throw new Error(`internal error: the part's summary does not match its schema: ${parsed.error.issues[0]?.message}`);
  return { summary, ledger: run.ledger?.() ?? {}, cpuSeconds, startSkewMs };
}
