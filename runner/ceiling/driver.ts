// The ceiling search's driver: each step is an ordinary run of the workload through the engine, at the step's
// rate, with its own warm-up and measured window, judged by lib/ceiling/verdict.ts. The plan
// (which rate next, when to stop) is lib/ceiling/search.ts.
import { clientBoundText, isClientBound } from "../../lib/measurement/runner-load";
import { latenciesOf } from "../../lib/measurement/operations";
import type { RunSummary } from "../../lib/measurement/summary";
import type { WorkloadConfig } from "../../lib/workloads/config";
import { type GoalMetric, stepFacts } from "../../lib/ceiling/facts";
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
 * How busy the runner was in a step's measured window, and whether that decided the step. The engine's rule
 * (lib/measurement/runner-load.ts isClientBound: CPU near one core, or an event-loop delay of 10% of a latency's p99),
 * held against what the step's verdict rests on: the goal's latency, or the goal's limit when that is larger.
 * A 4 ms delay beside a 2 ms write p99 makes the run page call a run client-bound, yet cannot move an e2e p99
 * across a 1 s goal; it can when the goal is 10 ms. Null for a run that did not record the runner's load.
 */
export function clientLoadOf(summary: RunSummary, goal: { label: string; p99Ms: number | undefined }, slo: Slo): ClientLoad | null {
  const l = summary.runnerLoad;
  if (!l) return null;
  const limit = Math.max(...slo.map((b) => b.limitMs));
  const against = Math.max(goal.p99Ms ?? 0, limit);
  const judgedAgainst = { metric: against === limit ? `the goal's ${limit} ms on ${goal.label}` : goal.label, p99: against };
  const clientBound = isClientBound({ delayMs: l.exposedDelayMs, cpuCores: l.cpuCores, mainP99Ms: against });
  return {
    cpuCores: l.cpuCores,
    eventLoopP99Ms: l.loopDelayMs.p99,
    clientBound,
    reason: clientBound ? clientBoundText({ ...l, judgedAgainst }) : "not client-bound",
  };
}

/** What limited a step's run, by the verdict of its telemetry (lib/telemetry/verdict.ts), when the run recorded it. */
export function bottleneckOf(summary: RunSummary): CeilingStep["bottleneck"] {
  const v = summary.telemetry?.verdict;
  return v ? { category: v.category, statement: v.statement } : undefined;
}

/** Runs one step at `rate` and judges it. Rejects with SearchCancelled on a cancel, with the run's error otherwise. */
export async function runStep(rate: number, index: number, o: CeilingOptions): Promise<{ step: CeilingStep; summary: RunSummary; samples: EngineSample[] }> {
  const knob = rateKnobOrProblem(o.base.kind);
  if (!knob.ok) throw new Error(knob.message);
  const config = { ...knob.knob.set(o.base, rate), durationSeconds: o.stepSeconds, warmupSeconds: o.warmupSeconds } as WorkloadConfig;
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
      onPhase: (p) => extra.onPhase?.(p),
    });
  } catch (err) {
    if (err instanceof RunCancelled) throw new SearchCancelled();
    throw err;
  }
  const unjudged = stepFacts(summary, samples, rate, o.metric, null);
  const client = clientLoadOf(summary, { label: unjudged.latency.label, p99Ms: unjudged.latency.stats?.p99 }, o.slo);
  const facts = { ...unjudged, client };
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
    latencyMs: latenciesOf(summary),
    client,
    ...(bottleneckOf(summary) ? { bottleneck: bottleneckOf(summary) } : {}),
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
