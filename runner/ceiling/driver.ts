// The ceiling search's driver: each step is an ordinary run of the workload through the engine, at the step's
// rate, with its own warm-up and measured window, judged by lib/ceiling/verdict.ts. The plan
// (which rate next, when to stop) is lib/ceiling/search.ts.
import { readFileSync } from "node:fs";
import { latenciesOf } from "../../lib/measurement/operations";
import type { RunSummary } from "../../lib/measurement/summary";
import type { WorkloadConfig } from "../../lib/workloads/config";
import { type GoalMetric, serviceMsOf, stepFacts } from "../../lib/ceiling/facts";
import { rateKnobOrProblem } from "../../lib/ceiling/rate";
import { SearchCancelled, searchCeiling, type SearchOptions, type SearchResult } from "../../lib/ceiling/search";
import type { Slo } from "../../lib/ceiling/slo";
import type { CeilingStep } from "../../lib/ceiling/step";
import { type ClientLoad, judgeStep } from "../../lib/ceiling/verdict";
import { RunCancelled, runWorkload, type EngineOptions, type EngineSample } from "../engine";

export type { CeilingStep };

/** A step's drain: long enough to empty a sustained step's backlog; an unsustained one's is cut short (its
 *  leftovers are noted in its summary, and the next step runs in a schema of its own). */
const STEP_DRAIN_SECONDS = 5;

export interface CeilingOptions {
  /** The workload's config; each step sets its rate (lib/ceiling/rate.ts), measured duration and warm-up. */
  base: WorkloadConfig;
  targetUrl: string;
  slo: Slo;
  metric: GoalMetric;
  stepSeconds: number;
  /** The confirmation run's measured seconds (lib/ceiling/settings.ts confirmSecondsOf). */
  confirmSeconds: number;
  warmupSeconds: number;
  search: SearchOptions;
  signal?: AbortSignal;
  log?: (line: string) => void;
  /** Told each step's rate before it runs (and whether it is the confirmation run). */
  onStepStart?: (rate: number, index: number, confirmation: boolean) => void | Promise<void>;
  /** Told each step once judged, with its run's summary and samples (to store them). */
  onStep?: (step: CeilingStep, summary: RunSummary, samples: EngineSample[]) => void | Promise<void>;
  /** Passed to every step's engine run (samples, phases, a run id naming its schema). */
  engine?: (index: number) => EngineOptions;
}

/**
 * How starved the runner was in a step's measured window: its CPU and event-loop delay (the engine's
 * runnerLoad), its main thread's running and run-queue wait, and the paced operation's own service time that a stall is
 * weighed against (lib/ceiling/verdict.ts starvation). Null for a run that did not record the runner's load.
 */
export function clientLoadOf(summary: RunSummary, sched: SchedShares | null): ClientLoad | null {
  const l = summary.runnerLoad;
  if (!l) return null;
  return {
    cpuCores: l.cpuCores,
    eventLoopP99Ms: l.loopDelayMs.p99,
    exposedDelayMs: l.exposedDelayMs,
    runQueueShare: sched?.wait ?? null,
    mainRunShare: sched?.run ?? null,
    serviceMs: serviceMsOf(summary),
  };
}

/** The main thread's time so far running and waiting to run (ns, /proc/self/schedstat), null where unreadable. */
export function schedTimesNs(): { run: number; wait: number } | null {
  try {
    const [run, wait] = readFileSync("/proc/self/schedstat", "utf8").split(" ").map(Number);
    return Number.isFinite(run) && Number.isFinite(wait) ? { run, wait } : null;
  } catch {
    return null;
  }
}

/** Shares of a window's wall time the main thread ran and waited to run. */
export interface SchedShares {
  run: number;
  wait: number;
}

/** Watches the main thread's scheduling over the measured phase. */
function schedWatch() {
  let from: { t: { run: number; wait: number }; at: number } | null = null;
  let shares: SchedShares | null = null;
  return {
    onPhase(phase: string) {
      const t = schedTimesNs();
      const at = performance.now();
      if (phase === "measuring") from = t === null ? null : { t, at };
      else if (from && t && shares === null && at > from.at) {
        const ms = at - from.at;
        shares = { run: (t.run - from.t.run) / 1e6 / ms, wait: (t.wait - from.t.wait) / 1e6 / ms };
      }
    },
    shares: () => shares,
  };
}

/** What limited a step's run, by the verdict of its telemetry (lib/telemetry/verdict.ts), when the run recorded it. */
export function bottleneckOf(summary: RunSummary): CeilingStep["bottleneck"] {
  const v = summary.telemetry?.verdict;
  return v ? { category: v.category, statement: v.statement } : undefined;
}

/**
 * Runs one step at `rate` (the longer confirmation run when `confirmation`) and judges it. Rejects with
 * SearchCancelled on a cancel, with the run's error otherwise.
 */
export async function runStep(
  rate: number,
  index: number,
  o: CeilingOptions,
  confirmation = false,
): Promise<{ step: CeilingStep; summary: RunSummary; samples: EngineSample[] }> {
  const knob = rateKnobOrProblem(o.base.kind);
  if (!knob.ok) throw new Error(knob.message);
  const durationSeconds = confirmation ? o.confirmSeconds : o.stepSeconds;
  const config = { ...knob.knob.set(o.base, rate), durationSeconds, warmupSeconds: o.warmupSeconds } as WorkloadConfig;
  const sched = schedWatch();
  const samples: EngineSample[] = [];
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
        sched.onPhase(p);
        extra.onPhase?.(p);
      },
    });
  } catch (err) {
    if (err instanceof RunCancelled) throw new SearchCancelled();
    throw err;
  }
  const facts = stepFacts(summary, samples, rate, o.metric, clientLoadOf(summary, sched.shares()));
  const verdict = judgeStep(facts, o.slo);
  const step: CeilingStep = {
    index,
    rate,
    sustained: verdict.sustained,
    ...(verdict.starved ? { starved: true } : {}),
    ...(confirmation ? { confirmation: true } : {}),
    verdict,
    achievedRate: facts.achievedRate,
    readRate: facts.readRate,
    measuredSeconds: facts.measuredSeconds,
    goal: facts.latency,
    latencyMs: latenciesOf(summary),
    client: facts.client,
    ...(bottleneckOf(summary) ? { bottleneck: bottleneckOf(summary) } : {}),
    startedAt: startedAt.toISOString(),
    endedAt: new Date().toISOString(),
  };
  return { step, summary, samples };
}

/** Runs the whole search; a cancel or a failed step ends it with the steps done so far. */
export async function findCeiling(o: CeilingOptions): Promise<SearchResult<CeilingStep>> {
  return searchCeiling(
    async (rate, index, confirmation) => {
      await o.onStepStart?.(rate, index, confirmation);
      const { step, summary, samples } = await runStep(rate, index, o, confirmation);
      await o.onStep?.(step, summary, samples);
      return step;
    },
    o.search,
    o.signal,
  );
}
