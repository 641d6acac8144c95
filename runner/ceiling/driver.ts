// The ceiling search's driver: each step is an ordinary run of the workload through the engine, throttled to
// the step's rate, with its own warm-up and measured window, judged by lib/ceiling/verdict.ts. The plan
// (which rate next, when to stop) is lib/ceiling/search.ts.
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { RunSummary } from "../../lib/summary";
import type { WorkloadConfig } from "../../lib/workloads";
import { type GoalMetric, stepFacts } from "../../lib/ceiling/facts";
import { rateKnobOrProblem } from "../../lib/ceiling/rate";
import { SearchCancelled, searchCeiling, type SearchOptions, type SearchResult } from "../../lib/ceiling/search";
import type { Slo } from "../../lib/ceiling/slo";
import type { CeilingStep } from "../../lib/ceiling/step";

import { type ClientLoad, judgeStep } from "../../lib/ceiling/verdict";

export type { CeilingStep };
import { RunCancelled, runWorkload, type EngineOptions, type EngineSample } from "../engine";

/** A step's drain: long enough to empty a sustained step's backlog; an unsustained one's is cut short (its
 *  leftovers are noted in its summary, and the next step runs in a schema of its own). */
const STEP_DRAIN_SECONDS = 5;

/** The event-loop delay monitor's sampling period (ms). */
const LOOP_RESOLUTION_MS = 10;

export interface CeilingOptions {
  /** The workload's config; each step overrides its throttle, measured duration and warm-up. */
  base: WorkloadConfig;
  targetUrl: string;
  slo: Slo;
  metric: GoalMetric;
  stepSeconds: number;
  warmupSeconds: number;
  search: SearchOptions;
  signal?: AbortSignal;
  log?: (line: string) => void;
  /** Told each step's rate before it runs. */
  onStepStart?: (rate: number, index: number) => void | Promise<void>;
  /** Told each step once judged, with its run's summary and samples (to store them). */
  onStep?: (step: CeilingStep, summary: RunSummary, samples: EngineSample[]) => void | Promise<void>;
  /** Passed to every step's engine run (samples, phases, a run id naming its schema). */
  engine?: (index: number) => EngineOptions;
}

/**
 * How busy the runner was in a step's measured window. The summary's manifest has the runner's CPU over the
 * window; the event-loop delay is measured here around the window (the engine does not record it).
 */
export function clientLoadOf(summary: RunSummary, eventLoopP99Ms: number): ClientLoad {
  const secs = summary.window.measuredSeconds;
  return {
    cpuCores: secs > 0 ? summary.manifest.runnerCpuSeconds / secs : 0,
    eventLoopP99Ms,
    source: "the runner's CPU over the window, and its event-loop delay measured by the ceiling driver",
  };
}

/** Runs one step at `rate` and judges it. Rejects with SearchCancelled on a cancel, with the run's error otherwise. */
export async function runStep(rate: number, index: number, o: CeilingOptions): Promise<{ step: CeilingStep; summary: RunSummary; samples: EngineSample[] }> {
  const knob = rateKnobOrProblem(o.base.kind);
  if (!knob.ok) throw new Error(knob.message);
  const config = { ...knob.knob.set(o.base, rate), durationSeconds: o.stepSeconds, warmupSeconds: o.warmupSeconds } as WorkloadConfig;
  const samples: EngineSample[] = [];
  const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  const extra = o.engine?.(index) ?? {};
  const startedAt = new Date();
  let summary: RunSummary;
  try {
    summary = await runWorkload(config, o.targetUrl, {
      drainSeconds: STEP_DRAIN_SECONDS,
      ...extra,
      signal: o.signal,
      log: o.log,
      onSample: async (s) => {
        samples.push(s);
        await extra.onSample?.(s);
      },
      onPhase: (p) => {
        // The delay of the measured window only, as the runner's CPU in the manifest.
        if (p === "measuring") loop.enable();
        else if (p === "draining") loop.disable();
        extra.onPhase?.(p);
      },
    });
  } catch (err) {
    if (err instanceof RunCancelled) throw new SearchCancelled();
    throw err;
  } finally {
    loop.disable();
  }
  // The monitor's timer fires every LOOP_RESOLUTION_MS and records how long it really took: the lateness is
  // what exceeds the resolution.
  const eventLoopP99Ms = loop.count > 0 ? Math.max(loop.percentile(99) / 1e6 - LOOP_RESOLUTION_MS, 0) : 0;
  const client = clientLoadOf(summary, eventLoopP99Ms);
  const facts = stepFacts(summary, samples, rate, o.metric, client);
  const verdict = judgeStep(facts, o.slo);
  const step: CeilingStep = {
    index,
    rate,
    sustained: verdict.sustained,
    verdict,
    achievedRate: facts.achievedRate,
    readRate: facts.readRate,
    measuredSeconds: facts.measuredSeconds,
    goal: facts.latency,
    latencyMs: summary.latencyMs,
    client,
    startedAt: startedAt.toISOString(),
    endedAt: new Date().toISOString(),
  };
  return { step, summary, samples };
}

/** Runs the whole search; a cancel or a failed step ends it with the steps done so far. */
export async function findCeiling(o: CeilingOptions): Promise<SearchResult<CeilingStep>> {
  return searchCeiling(
    async (rate, index) => {
      await o.onStepStart?.(rate, index);
      const { step, summary, samples } = await runStep(rate, index, o);
      await o.onStep?.(step, summary, samples);
      return step;
    },
    o.search,
    o.signal,
  );
}
