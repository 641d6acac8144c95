// One part of a run carried by several runner processes: forked by the coordinator (./coordinator.ts), it runs the
// roles it owns (lib/workloads/parts.ts) on the run's shared timeline and reports over IPC (./protocol.ts):
// run → connect, open its clients, start its readers → ready → (pings) → start: correct its clock, wait for the
// barrier, warm-up and measuring, a sample per second → drain until `drained` → done with its summary and ledger.
// Its load is the engine's (../load.ts runLoad), on the shared timeline (../load-timeline.ts sharedTimeline).
// It never sets the workload up nor verifies it (the coordinator does both for the whole run), and it exits on its
// own when the coordinator's IPC channel closes: a dead coordinator leaves no part running.
import os from "node:os";
import { RunSummary } from "../../lib/measurement/summary";
import { definitionOf, payloadBytesOf, WorkloadConfig } from "../../lib/workloads/config";
import { type PartOfRun, partPacing } from "../../lib/workloads/parts";
import { runnerOf } from "../../workloads/runners";
import { runRoles, type WorkloadRun } from "../../workloads/runtime";
import { RunFootprint } from "../core/footprint";
import { runLoad, writerIndexOf } from "../load";
import { sharedTimeline } from "../load-timeline";
import { RunnerLoadMeter } from "../load-meter";
import { Pacer } from "../core/pacing";
import { closeClient, ident, LOOP_STATEMENT_TIMEOUT_MS, openClients, type TargetClient } from "../core/pg/pgclient";
import { PRODUCT_VERSION } from "../../lib/env";
import { RunControl, scheduleWatchOf } from "../run-control";
import { ownSummary, productCommit } from "../run-summary";
import { sessionSettingProblem } from "../session-options";
import { RunStats } from "../core/stats";
import { clock, setClockCorrection, sleepUntil } from "../core/timing";
import { tickPart } from "./part-sample";
import { type FromPart, shapeProblem, ToPart } from "./protocol";

type RunMessage = Extract<ToPart, { type: "run" }>;
type StartMessage = Extract<ToPart, { type: "start" }>;

if (!process.send) {
  console.error("runner/parts/part-main.ts runs only as a part forked by a run's coordinator (runner/parts/coordinator.ts)");
  process.exit(2);
}

const send = (m: FromPart): Promise<void> =>
  new Promise((resolve) => {
    if (!process.connected) return resolve();
    process.send?.(m, undefined, {}, () => resolve());
  });

/** The part's failure plumbing (../run-control.ts): built at its `run` message, which names the target. */
let control: RunControl | undefined;
/** A failure before the `run` message (a message of another shape, the channel closed), or any after. */
let early: Error | undefined;
function fail(err: Error) {
  early ??= err;
  control?.fail(err);
}

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
    const e = control?.failure ?? (err instanceof Error ? err : new Error(String(err)));
    await send({ type: "failed", error: e.message });
  }
  process.exit(code);
}

async function runPart(m: RunMessage) {
  const config = WorkloadConfig.parse(m.config);
  const part: PartOfRun = m.part;
  const log = (line: string) => process.stderr.write(`part ${part.index}: ${line}\n`);
  const module = await runnerOf(config);
  const stats = new RunStats(runRoles.groups(module, config as never), payloadBytesOf(config) ?? 0, clock);
  const pacer = new Pacer(partPacing(config, part), stats);
  const nWriters = module.writerCount(config as never, part);
  const c = new RunControl(m.targetUrl, m.liveness);
  control = c;
  if (early) c.fail(early);
  let clients: TargetClient[] = [];
  let run: WorkloadRun | undefined;
  const meter = new RunnerLoadMeter();
  try {
    run = module.create({
      config: config as never,
      targetUrl: m.targetUrl,
      schema: ident(m.schemaName),
      stats,
      pacer,
      writersStop: c.writersStop,
      readersStop: c.readersStop,
      fatal: c.fail,
      log,
      footprint: new RunFootprint(log),
      part,
    });
    clients = await Promise.race([openClients(m.targetUrl, run.roles, undefined, undefined, c.watch, LOOP_STATEMENT_TIMEOUT_MS), c.failed]);
    c.check();
    const unset = sessionSettingProblem(config, clients);
    if (unset) throw new Error(`part ${part.index}: ${unset}`);
    const done = await partLoad({ m, config, run, stats, pacer, meter, clients, nWriters, control: c });
    await send({ type: "done", ...done });
  } finally {
    c.closing = true;
    meter.stop();
    await c.stopLoops(run);
    await Promise.all(clients.map((tc) => closeClient(tc.client)));
    c.liveness.stop();
  }
}

interface PartLoadInput {
  m: RunMessage;
  config: WorkloadConfig;
  run: WorkloadRun;
  stats: RunStats;
  pacer: Pacer;
  meter: RunnerLoadMeter;
  clients: TargetClient[];
  nWriters: number;
  control: RunControl;
}

/**
 * The part's load (../load.ts runLoad) on the coordinator's shared timeline: ready once its readers started, the
 * load at the coordinator's barrier, each second sent as its timeline slot, the drain ended by the coordinator's
 * `drained`; then its own summary, with its ledger.
 */
async function partLoad(p: PartLoadInput) {
  const { m, config, run, stats, meter, control: c } = p;
  let startedAt = new Date();
  const clock0 = { atMs: 0, startSkewMs: 0, clockOffsetMs: 0 };
  const schedule = scheduleWatchOf(config, p.pacer.throttle, p.nWriters);
  let pending: ReturnType<typeof tickPart>["sample"] | undefined;
  const load = await runLoad({
    ...{ config, run, stats, pacer: p.pacer, meter, schedule, control: c },
    readers: p.clients.slice(p.nWriters),
    writers: p.clients.slice(0, p.nWriters),
    writerIndexes: run.roles.slice(0, p.nWriters).map(writerIndexOf),
    timeline: sharedTimeline(async () => {
      await send({
        type: "ready",
        pid: process.pid,
        host: os.hostname(),
        backendPids: p.clients.map((tc) => tc.pid),
        product: { version: PRODUCT_VERSION, commit: productCommit() },
      });
      const start = await Promise.race([started, c.failed]);
      startedAt = new Date();
      // On the coordinator's clock from here on: every part's stamps and seconds are on one clock.
      setClockCorrection(-start.clockOffsetMs);
      await sleepUntil(start.atMs, c.phaseSleep);
      c.check();
      Object.assign(clock0, { atMs: start.atMs, startSkewMs: clock() - start.atMs, clockOffsetMs: start.clockOffsetMs });
      // What the readers did before the barrier is in no second.
      stats.tick("setup");
      return start.atMs;
    }),
    seconds: {
      cut: (phase) => {
        const t = tickPart(stats, phase);
        pending = t.sample;
        return t.metrics;
      },
      take: (metrics, _phase, slotAt) => {
        const meta = { runId: m.runId, part: m.part.index, parts: m.part.of, startSkewMs: clock0.startSkewMs, clockOffsetMs: clock0.clockOffsetMs };
        void send({ type: "sample", slotMs: Math.round(slotAt - clock0.atMs), sample: { ...meta, ...pending!, runnerLoad: metrics.runnerLoad! } });
      },
    },
    drain: async (phase) => {
      // Writers finishing (an open loop's drain lasts up to MAX_DRAIN_SECONDS) still send a second each second:
      // the coordinator fails a part silent for SILENCE_MS, and the drain's seconds are the run's.
      let writersOver = false;
      const writers = run.writersDone().finally(() => {
        writersOver = true;
      });
      writers.catch(() => undefined); // awaited below; a writer's failure already fails the part (runLoad)
      await phase(() => (writersOver ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY), { last: false });
      await writers;
      await send({ type: "writersDone" });
      // The coordinator ends the drain for every part at once, from the merged backlog (its `drained`).
      await phase(() => drainAt ?? Number.POSITIVE_INFINITY);
    },
    busyWaitForTest: m.busyWaitForTest,
  });
  const summary = await ownSummary({
    config,
    stats,
    meter,
    facts: { postgresVersion: "", serverSettings: {}, maxConnections: 0, serverAddress: null },
    startedAt,
    cpuSeconds: load.cpuSeconds,
    runNotes: run.notes,
    schedule,
    drainSeconds: load.drainSeconds,
    drainLimitSeconds: 0,
    // The coordinator verifies the whole run from every part's ledger: a part checks nothing of its own.
    verification: { ok: true, checked: 0, unit: definitionOf(config).verifiedUnit, problems: [], facts: [] },
    unreadAtEnd: 0,
  });
  const parsed = RunSummary.safeParse(summary);
  if (!parsed.success) throw new Error(`internal error: the part's summary does not match its schema: ${parsed.error.issues[0]?.message}`);
  return { summary, ledger: run.ledger?.() ?? {}, cpuSeconds: load.cpuSeconds, startSkewMs: clock0.startSkewMs };
}
