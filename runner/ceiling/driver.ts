// The ceiling search's driver: each step is an ordinary run of the workload through the engine, at the step's
// rate, with its own warm-up and measured window, judged by lib/ceiling/verdict.ts. The plan
// (which rate next, when to stop) is lib/ceiling/search.ts.
import { readFileSync } from "node:fs";
import type { Histogram } from "hdr-histogram-js";
import { decodeHistogram, newHistogram, percentilesOf } from "../../lib/measurement/histogram";
import { histogramOf, latenciesOf } from "../../lib/measurement/operations";
import { QUANTILE_OF, samplesToBound } from "../../lib/ceiling/interval";
import type { RunSummary } from "../../lib/measurement/summary";
import type { WorkloadConfig } from "../../lib/workloads/config";
import { type GoalMetric, goalEvidenceOf, serviceMsOf, stepFacts } from "../../lib/ceiling/facts";
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

/**
 * A step whose latency goal is neither clearly met nor clearly missed (lib/ceiling/interval.ts) runs again at
 * its rate, its latencies merged with the runs before (histograms, never percentiles averaged), at most this
 * many runs in all; still undecided, it is not sustained: the goal was not shown to hold.
 */
export const MAX_STEP_RUNS = 4;
/** An added run lasts long enough to reach the samples a bound needs, or to double those it has: at least a
 *  step's length, at most this (s). */
export const MAX_ADDED_SECONDS = 60;

/** Server verdicts that leave a latency miss unexplained: the server had headroom, or nothing was found. */
const UNEXPLAINING = new Set(["rate-bound", "undetermined"]);

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
  const startedAt = new Date();
  let merged: Histogram | null = null;
  const measured: EngineSample[] = [];
  let seconds = confirmation ? o.confirmSeconds : o.stepSeconds;
  let measuredSeconds = 0;
  // Items over every run of the step: its rates are over all its measured seconds, as its latencies are.
  let written = 0;
  let read = 0;
  for (let runs = 1; ; runs++) {
    const { summary, samples, client } = await runOnce(rate, index, o, seconds);
    const facts = stepFacts(summary, samples, rate, o.metric, client);
    // The goal's latency over every run of the step: merged histograms, its seconds side by side.
    const encoded = histogramOf(summary.histograms, facts.latency.name);
    merged ??= newHistogram();
    if (encoded) merged.add(decodeHistogram(encoded));
    measured.push(...samples.filter((s) => s.phase === "measuring"));
    measuredSeconds += facts.measuredSeconds;
    written += facts.achievedRate * facts.measuredSeconds;
    read += (facts.readRate ?? 0) * facts.measuredSeconds;
    if (runs > 1) facts.latency = { ...facts.latency, stats: merged.totalCount ? percentilesOf(merged) : undefined };
    facts.goalEvidence = goalEvidenceOf(merged, measured, facts.latency.name, o.slo);
    const verdict = judgeStep(facts, o.slo);
    if (verdict.undecided && !verdict.starved && runs < MAX_STEP_RUNS && !o.signal?.aborted) {
      seconds = addedSeconds(facts.goalEvidence, merged.totalCount, measuredSeconds, o.stepSeconds);
      o.log?.(`${confirmation ? "confirmation" : `step ${index + 1}`} at ${rate}: ${verdict.undecided}; running ${seconds} s more`);
      continue;
    }
    const bottleneck = bottleneckOf(summary);
    const unexplained =
      !verdict.sustained &&
      !verdict.starved &&
      verdict.failures.length > 0 &&
      verdict.failures.every((f) => f.condition === "latency") &&
      (!bottleneck || UNEXPLAINING.has(bottleneck.category));
    const step: CeilingStep = {
      index,
      rate,
      sustained: verdict.sustained,
      ...(verdict.starved ? { starved: true } : {}),
      ...(confirmation ? { confirmation: true } : {}),
      ...(unexplained ? { unexplained: true } : {}),
      ...(runs > 1 ? { runs } : {}),
      verdict,
      achievedRate: measuredSeconds > 0 ? written / measuredSeconds : facts.achievedRate,
      readRate: facts.readRate === null ? null : measuredSeconds > 0 ? read / measuredSeconds : facts.readRate,
      measuredSeconds,
      goal: facts.latency,
      latencyMs: latenciesOf(summary),
      client: facts.client,
      ...(bottleneck ? { bottleneck } : {}),
      startedAt: startedAt.toISOString(),
      endedAt: new Date().toISOString(),
    };
    return { step, summary, samples };
  }
}

/** How long an undecided step's next run lasts: to the samples its least-bounded percentile needs, or doubling
 *  what it has, within [its step length, MAX_ADDED_SECONDS]. */
function addedSeconds(
  evidence: readonly { percentile: keyof typeof QUANTILE_OF; highMs: number | null }[],
  samples: number,
  measuredSeconds: number,
  stepSeconds: number,
): number {
  const perSecond = measuredSeconds > 0 ? samples / measuredSeconds : 0;
  const needed = Math.max(...evidence.filter((e) => e.highMs === null).map((e) => samplesToBound(QUANTILE_OF[e.percentile])), 0);
  const want = needed > samples && perSecond > 0 ? Math.ceil(((needed - samples) / perSecond) * 1.2) : Math.ceil(measuredSeconds);
  return Math.min(Math.max(want, stepSeconds), Math.max(MAX_ADDED_SECONDS, stepSeconds));
}

/** One engine run of a step at `rate` for `durationSeconds` measured. */
async function runOnce(rate: number, index: number, o: CeilingOptions, durationSeconds: number) {
  const knob = rateKnobOrProblem(o.base.kind);
  if (!knob.ok) throw new Error(knob.message);
  const config = { ...knob.knob.set(o.base, rate), durationSeconds, warmupSeconds: o.warmupSeconds } as WorkloadConfig;
  const sched = schedWatch();
  const samples: EngineSample[] = [];
  const extra = o.engine?.(index) ?? {};
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
  return { summary, samples, client: clientLoadOf(summary, sched.shares()) };
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
