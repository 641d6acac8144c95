// The load step of a run, written once: readers start, the load's start instant, the pacer's start, writers start,
// then the phase clock — warm-up, measuring, draining — with one second cut every second and one at each phase's end
// (so no second spans two phases), each writer's lag and the schedule's catch-up test every second, the runner's
// CPU over the measured window, the drain's end, the loops stopped. Called by the engine's own run
// (runner/engine.ts), by every part of a run over several processes (runner/parts/part-main.ts) and by the test
// harness that drives parts in one process (workloads/testing.ts). What differs between them are strategies:
//   - the timeline (./load-timeline.ts): whose start instant (now, or the coordinator's barrier) and how seconds
//     are cut (a second after the last one, or at the whole seconds of the shared timeline);
//   - where each second goes (SecondsOut: stored with its telemetry and the live report, or sent to the coordinator);
//   - how the drain ends (drain: the local backlog, or the coordinator's `drained`).
import type { Phase } from "../lib/measurement/metrics";
import type { SampleMetrics } from "../lib/measurement/sample";
import type { WorkloadConfig } from "../lib/workloads/config";
import { runRoles, type WorkloadRun } from "../workloads/runtime";
import type { RunnerLoadMeter } from "./load-meter";
import type { LoadTimeline } from "./load-timeline";
import type { Pacer } from "./core/pacing";
import type { TargetClient } from "./core/pg/pgclient";
import type { RunControl } from "./run-control";
import type { RunStats } from "./core/stats";
import type { ScheduleWatch } from "./core/schedule-watch";
import { busyWaitForTest, clock } from "./core/timing";

/** Where the load's seconds go. */
export interface SecondsOut {
  /** Ends the interval (the recorder's tick) and returns its figures. */
  cut(phase: Phase): SampleMetrics;
  /** Takes the second cut at `slotAt` on the timeline, its runner load added. */
  take(metrics: SampleMetrics, phase: Phase, slotAt: number): void;
}

/** Runs one phase of the load: cuts its seconds until it ends (see LoadPhases.run). */
export type RunPhase = (end: number | (() => number), o?: { until?: () => boolean; last?: boolean }) => Promise<void>;

export interface LoadInput {
  config: WorkloadConfig;
  run: WorkloadRun;
  stats: RunStats;
  pacer: Pacer;
  meter: RunnerLoadMeter;
  schedule: ScheduleWatch | null;
  control: RunControl;
  readers: TargetClient[];
  writers: TargetClient[];
  /** Each writer's index in the whole run (its share of the throttle's schedule). */
  writerIndexes: number[];
  timeline: LoadTimeline;
  seconds: SecondsOut;
  /**
   * Ends the drain, once the writers were told to stop: returns when the readers may stop. `phase` runs a phase
   * of the clock (a second each second), as long as the drain needs.
   */
  drain: (phase: RunPhase, drainStart: number) => Promise<void>;
  setPhase?: (p: Phase) => void;
  /** Told the load's start instant (clock ms) as the writers start: a run's fault phases are timed from it. */
  onStart?: (atMs: number) => void;
  /** The measured window ends early once this holds (the test harness: once every part has done enough). */
  measureUntil?: () => boolean;
  /** Tests only: blocks the event loop for `forMs` every `everyMs` from the writers' start to the drain's. */
  busyWaitForTest?: { everyMs: number; forMs: number };
}

export interface LoadResult {
  /** The load's start (clock ms). */
  atMs: number;
  /** The runner's CPU over the measured window (s). */
  cpuSeconds: number;
  /** How long the drain took (s). */
  drainSeconds: number;
}

/** The global index a writer role names ("writer 3 p4" → 3), else its position: its share of the throttle. */
export const writerIndexOf = (role: string, position: number) => Number(/\d+/.exec(role)?.[0] ?? position);

/** The load: from the readers' start to the loops' end. Throws the run's failure (control) if one came. */
export async function runLoad(i: LoadInput): Promise<LoadResult> {
  const { run, control } = i;
  // Readers first (they join their groups), then writers: nothing is written before someone can read it.
  await Promise.race([runRoles.startReaders(run, i.readers), control.failed]);
  control.check();
  const atMs = await Promise.race([i.timeline.start(), control.failed]);
  control.check();
  // What this process did before the start is in no second.
  i.meter.tick(false, 1);
  i.stats.markLoadStart(atMs);
  i.pacer.begin(atMs, i.writers.length);
  const busy = busyWaitForTest(i.busyWaitForTest);
  try {
    run.startWriters(i.writers);
    i.onStart?.(atMs);
    control.failOn(run.writersDone());
    control.failOn(runRoles.readersDone(run));
    const phases = new LoadPhases(i);
    const cpuSeconds = await phases.warmupAndMeasure(atMs);
    busy.stop();
    phases.set("draining");
    const drainStart = clock();
    control.writersStop.stop();
    await i.drain(phases.run, drainStart);
    control.readersStop.stop();
    await runRoles.readersDone(run);
    control.check();
    return { atMs, cpuSeconds, drainSeconds: (clock() - drainStart) / 1000 };
  } finally {
    busy.stop();
  }
}

/** The phase clock: the phases in order, a second cut each second of each. */
class LoadPhases {
  private phase: Phase = "setup";
  private readonly throttle;

  constructor(private readonly i: LoadInput) {
    this.throttle = i.pacer.throttle;
  }

  set(p: Phase) {
    this.phase = p;
    this.i.setPhase?.(p);
  }

  /** Warm-up (if any), then the measured window; returns the runner's CPU over the window (s). */
  async warmupAndMeasure(atMs: number): Promise<number> {
    const { config, timeline, meter } = this.i;
    const warmupEnd = atMs + config.warmupSeconds * 1000;
    if (config.warmupSeconds > 0) {
      this.set("warmup");
      await this.run(warmupEnd);
    }
    this.set("measuring");
    const cpuStart = process.cpuUsage();
    meter.startWindow();
    await this.run(timeline.measureEnd(warmupEnd, config.durationSeconds * 1000), { until: this.i.measureUntil });
    meter.endWindow();
    const cpu = process.cpuUsage(cpuStart);
    return (cpu.user + cpu.system) / 1e6;
  }

  /**
   * Cuts a second whenever the timeline says one is due, until the phase ends (`end`, fixed or moving: a moving
   * end, like `until`, is looked at every 50 ms), then the phase's last (possibly partial) interval unless `last`
   * is false (a phase the next one continues).
   */
  readonly run: RunPhase = async (end, o = {}) => {
    const { control, timeline } = this.i;
    const endAt = typeof end === "number" ? () => end : end;
    const polls = typeof end !== "number" || o.until !== undefined;
    while (true) {
      control.check();
      const now = clock();
      if (now >= endAt() || o.until?.()) break;
      const due = timeline.due();
      await control.phaseSleep.sleep(Math.max(Math.min(due, endAt(), polls ? now + 50 : Number.POSITIVE_INFINITY) - now, 0));
      control.check();
      const t = clock();
      if (t >= due && timeline.cutsAt(t, due, endAt())) this.cut(due);
    }
    const last = endAt();
    if (o.last !== false && timeline.lastOpen(last)) this.cut(last);
    timeline.phaseEnded(last);
  };

  /** Ends the second at `slotAt`: writers' lags (a writer stuck in a write has no write's end to record it), the
   *  recorder's and the runner's figures, the catch-up test; then hands it on. */
  private cut(slotAt: number) {
    const { stats, seconds, schedule, meter, writerIndexes, timeline } = this.i;
    const { phase, throttle } = this;
    const now = clock();
    // Not in the drain: the writers have stopped, their shares would keep growing.
    const lags = throttle && phase !== "draining" ? writerIndexes.map((w) => throttle.writerLagMs(w, now)) : [];
    for (const l of lags) stats.recordWriterLag(l);
    const metrics = seconds.cut(phase);
    const cutAt = clock();
    timeline.cut(slotAt, cutAt);
    metrics.runnerLoad = meter.tick(phase === "measuring", metrics.intervalSec);
    if (schedule && throttle && phase === "measuring")
      schedule.interval(throttle.behindMs(cutAt), metrics.operations.write?.count ?? 0, metrics.intervalSec, lags);
    seconds.take(metrics, phase, slotAt);
  }
}
