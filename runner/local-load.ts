// The load step of a run in one process (runner/engine.ts): its connections and the server's telemetry, then the
// load itself (./load.ts runLoad) on this process's own timeline, each second stored with its telemetry reading,
// counted in the live report and the verdict's pace, the watched disks checked; the drain ends on the local
// backlog. What it leaves: the run's summary once verified (./run-steps.ts verify).
import type { Operations, Phase } from "../lib/measurement/metrics";
import { loadOverSamples, type SampleRunnerLoad } from "../lib/measurement/runner-load";
import { PaceTrack, paceSpecOf } from "../lib/telemetry/pace";
import { paceInputOf } from "../lib/telemetry/pace-rules";
import type { TelemetrySample } from "../lib/telemetry/shape";
import type { ClientInput } from "../lib/telemetry/verdict";
import { definitionOf, MAX_DRAIN_SECONDS, pacingOf } from "../lib/workloads/config";
import { type LongRun, longRunEnded, longRunNote, longRunOf } from "../lib/workloads/long-run";
import type { WorkloadRun } from "../workloads/runtime";
import { runLoad, type SecondsOut } from "./load";
import { ownTimeline } from "./load-timeline";
import { RunnerLoadMeter } from "./load-meter";
import { LOOP_STATEMENT_TIMEOUT_MS, openClients, type TargetClient } from "./core/pg/pgclient";
import { scheduleWatchOf } from "./run-control";
import { sessionSettingProblem } from "./session-options";
import type { EngineSample, RunContext } from "./run-context";
import type { LoadOutcome } from "./load-outcome";
import { ownSummary } from "./run-summary";
import type { RunStats } from "./core/stats";
import { TelemetryRecorder } from "./telemetry/recorder";
import { PhaseDriver } from "./phases/driver";
import { phasesOf } from "../lib/phases/shape";
import { type PhaseInWindow, phasesInWindow } from "../lib/phases/window";
import { clock } from "./core/timing";

const DRAIN_SECONDS = MAX_DRAIN_SECONDS; // lib/workloads/config.ts: the New run form counts it in the total time

/** The longest drain of the run (s). */
export const drainLimitOf = (ctx: RunContext) => ctx.opts.drainSeconds ?? DRAIN_SECONDS;

/** The load, run here. */
export async function loadHere(ctx: RunContext): Promise<LoadOutcome> {
  const { config, control, stats, pacer, opts, log } = ctx;
  const run = ctx.run!;
  log(`schema ${ctx.schemaName} ready; opening ${run.roles.length} connections`);
  // A run whose phases take connections from under its loops (kill-backend) has them reconnect (control.loopWatch).
  ctx.clients = await openClients(ctx.targetUrl, run.roles, undefined, undefined, control.loopWatch, LOOP_STATEMENT_TIMEOUT_MS);
  control.check();
  const unset = sessionSettingProblem(config, ctx.clients);
  if (unset) throw new Error(unset);
  // The run's backends are the load's: the admin connection idles through it (it would bias the active share low).
  // Read at every sample: a loop that reconnected has a new backend.
  const pids = () => ctx.clients.map((c) => c.pid);
  // A run that restarts its target (a restart-target phase) has its telemetry reconnect after it.
  const track = (tc: TargetClient) => control.liveness.add(tc);
  if (opts.telemetry !== false)
    ctx.telemetry = await TelemetryRecorder.start(ctx.targetUrl, ctx.schemaName, pids, log, track, undefined, ctx.restartDir !== undefined);
  control.check();
  const nWriters = ctx.module.writerCount(config as never);
  const readers = ctx.clients.slice(nWriters);
  // The measured window's seconds as the verdict's pace rules read them (rate asked and met, stalls, backlog).
  const pace = new PaceTrack(paceSpecOf(pacingOf(config), definitionOf(config).metrics));
  const schedule = scheduleWatchOf(config, pacer.throttle, nWriters);
  const meter = new RunnerLoadMeter();
  ctx.meter = meter;
  const phases = phaseDriverOf(ctx);
  // A long run's window ends on the telemetry's count of autovacuum runs (the engine refused one without telemetry).
  const longRunEnd = longRunOf(config);
  const longRun = longRunEnd && ctx.telemetry ? longRunWatch(longRunEnd, ctx.telemetry) : undefined;
  const load = await runLoad({
    ...{ config, run, stats, pacer, meter, schedule, control, readers },
    writers: ctx.clients.slice(0, nWriters),
    writerIndexes: Array.from({ length: nWriters }, (_, w) => w),
    timeline: ownTimeline(),
    seconds: localSeconds(ctx, pace),
    drain: async (phase, drainStart) => {
      await run.writersDone();
      await phase(drainStart + drainLimitOf(ctx) * 1000, { until: drained(stats, drainStart) });
    },
    setPhase: (p) => {
      ctx.setPhase(p);
      // The measured window is over (or ended early): a fault phase still on ends with it, before the drain.
      if (p === "draining") void phases?.stop();
    },
    onStart: (atMs) => phases?.start(atMs),
    ...measureUntilOf(run, longRun),
    busyWaitForTest: opts.busyWaitForTest,
  }).finally(() => phases?.stop());
  await ctx.sampleChain;
  const phaseReports = phases?.reports();
  const telemetry = ctx.telemetry;
  return {
    summarize: (verification, unreadAtEnd) =>
      ownSummary({
        ...{ config, stats, meter, facts: ctx.facts!, startedAt: ctx.startedAt, cpuSeconds: load.cpuSeconds, schedule },
        runNotes: [...run.notes, ...(longRun ? [longRun.note(stats.measuredSeconds())] : []), ...reconnectionNotes(control)],
        ...{ drainSeconds: load.drainSeconds, drainLimitSeconds: drainLimitOf(ctx), verification, unreadAtEnd, phases: phaseReports },
        ...(telemetry ? { telemetry: finishTelemetry(telemetry, pace, stats, unreadAtEnd, readers.length, phasesInWindow(config, phaseReports)) } : {}),
      }),
  };
}

/** A run whose loops reconnect (a kill-backend phase): how many times one got a new connection after losing one. */
function reconnectionNotes(control: RunContext["control"]): string[] {
  if (!control.reconnects) return [];
  const n = control.reconnections;
  return [`the loops reconnected ${n === 1 ? "once" : `${n} times`} after losing a connection (the run's phases take connections from under them)`];
}

/** The run's phases' driver (runner/phases/driver.ts), when its config has phases. */
function phaseDriverOf(ctx: RunContext): PhaseDriver | null {
  const phases = phasesOf(ctx.config);
  if (!phases.length) return null;
  const { config, targetUrl, schemaName, stats, log, control } = ctx;
  return new PhaseDriver({
    ...{ phases, config, targetUrl, schemaName, stats, pause: control.readersPause, backends: () => ctx.clients, log },
    ...{ clusterDir: ctx.restartDir, outage: <T>(down: () => Promise<T>) => control.throughOutage(down), adminPid: () => ctx.admin?.pid ?? 0 },
  });
}

/** The window's early end: the workload's own (a drain that finished), or a long run's autovacuum runs. */
function measureUntilOf(run: WorkloadRun, longRun: LongRunWatch | undefined): { measureUntil?: () => boolean } {
  const ends = [run.finished?.bind(run), longRun?.ended].filter((f): f is () => boolean => f !== undefined);
  return ends.length ? { measureUntil: () => ends.some((f) => f()) } : {};
}

type LongRunWatch = ReturnType<typeof longRunWatch>;

/** A long run's end (lib/workloads/long-run.ts) on the telemetry's count of autovacuum runs since the window began. */
function longRunWatch(l: LongRun, telemetry: TelemetryRecorder) {
  let startedAt: number | undefined;
  return {
    // Asked every 50 ms of the measured window, from its first instant (runner/load.ts LoadPhases.run): the first ask is its start.
    ended: () => longRunEnded(l, (clock() - (startedAt ??= clock())) / 1000, telemetry.autovacuumsMeasured),
    note: (measuredSeconds: number) => longRunNote(l, { elapsedSeconds: measuredSeconds, autovacuums: telemetry.autovacuumsMeasured }),
  };
}

/**
 * Where a second of a run in one process goes: its sample (stored by onSample with the server's reading of the
 * same interval, taken as it is cut, off the loops' path), the verdict's pace, and every
 * config.reportIntervalSeconds the live report. Each second also checks the watched disks.
 */
function localSeconds(ctx: RunContext, pace: PaceTrack): SecondsOut {
  const { opts, stats, log } = ctx;
  let reading: Promise<TelemetrySample | undefined> | undefined;
  let seq = 0;
  let lastReport: number | undefined;
  const reportEveryMs = ctx.config.reportIntervalSeconds * 1000;
  // The workload's first timed operation (the broker's write): the latency the client-bound verdict judges by.
  const mainOp = definitionOf(ctx.config).metrics.operations.find((o) => o.latency);
  /** Each sample's runner load since the previous report, with its interval's length. */
  let reportLoads: { load: SampleRunnerLoad; sec: number }[] = [];
  const report = (phase: Phase) => {
    const now = clock();
    lastReport ??= stats.startedAt;
    if (!opts.onReport || now - lastReport < reportEveryMs - 50) return;
    lastReport = now;
    const r = stats.report(phase);
    r.runnerLoad = loadOverSamples(reportLoads, mainOp ? r.latencyMs[mainOp.name]?.p50 : undefined);
    reportLoads = [];
    opts.onReport(r);
  };
  return {
    cut: (phase) => {
      ctx.checkDisk();
      const metrics = stats.tick(phase);
      reading = ctx.telemetry?.tick(phase);
      return metrics;
    },
    take: (metrics, phase) => {
      reportLoads.push({ load: metrics.runnerLoad!, sec: metrics.intervalSec });
      if (phase === "measuring") pace.addSample(metrics);
      const s: EngineSample = { seq: seq++, phase, time: new Date(), metrics };
      const cb = opts.onSample;
      const t = reading;
      if (cb)
        ctx.sampleChain = ctx.sampleChain
          .then(async () => {
            const got = await t;
            if (got) s.metrics.telemetry = got;
            return cb(s);
          })
          .catch((e) => log(`could not store sample ${s.seq}: ${(e as Error).message}`));
      report(phase);
    },
  };
}

/**
 * Drained when the counted backlog is 0, or when readers keep polling and find nothing for 1 s (a backlog the
 * counters cannot see emptied: messages lost or tampered with; verification reports those).
 */
function drained(stats: RunStats, drainStart: number): () => boolean {
  let lastReads = -1;
  let lastEmpty = 0;
  let lastChange = drainStart;
  return () => {
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
}

/** The telemetry's end: the verdict over the window, with the run's pace, the runner's own numbers and the run's
 *  phases inside the window. */
function finishTelemetry(telemetry: TelemetryRecorder, pace: PaceTrack, stats: RunStats, unreadAtEnd: number, readers: number, phases: PhaseInWindow[]) {
  return (client: ClientInput, window: { operations: Operations }) =>
    telemetry.finish({ pace: paceInputOf(pace, window, { groups: stats.groups.length, unreadAtEnd, readers }), client, phases });
}
