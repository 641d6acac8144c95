// How loaded the runner itself was: its event loop's delay and its CPU, per sample and over the measured
// window, and the rule that says when that load distorted the latencies it measured ("client-bound").
// Browser-safe: the live page applies the same rule to each sample that the runner applies to the summary.
//
// Why it matters: every latency is a difference of two clock readings taken by JavaScript on the runner's one
// event loop. A reply that arrives while the loop is busy (a long GC, a page served by the app in the same
// process, a slow callback) waits until the loop is free, and that wait is counted as database latency.
import { z } from "zod";
import { fmtLatency } from "../runs/numbers";

const LoopDelay = z.object({ p50: z.number(), p99: z.number(), max: z.number() });

export const SampleRunnerLoad = z.object({
  /** Event-loop delay in this interval (ms; Node's monitorEventLoopDelay, its sampling resolution taken off). */
  loopDelayMs: LoopDelay,
  /** CPU the runner process used in this interval, in cores (1 = one core busy the whole interval). */
  cpuCores: z.number(),
});
export type SampleRunnerLoad = z.infer<typeof SampleRunnerLoad>;

export const SummaryRunnerLoad = z.object({
  /** Event-loop delay over the measured window (ms; one merged histogram, never averaged per second). */
  loopDelayMs: LoopDelay,
  /** The delay at least 1% of the window's time was spent in (exposedDelayMs): what a latency's p99 can carry. */
  exposedDelayMs: z.number(),
  /** Mean CPU over the window and the busiest second's, in cores. */
  cpuCores: z.number(),
  maxCpuCores: z.number(),
  /** Whether the runner's own load distorted the latencies (clientBound), and the latency it was judged against. */
  clientBound: z.boolean(),
  judgedAgainst: z.object({ metric: z.string(), p99: z.number() }).nullable(),
});
export type SummaryRunnerLoad = z.infer<typeof SummaryRunnerLoad>;

/** The loop's delay distorts a latency when it reaches this share of the latency's p99. */
export const CLIENT_BOUND_SHARE = 0.1;
/** Delays below this are timer noise (Node timers have 1 ms granularity): never a verdict on their own. */
export const LOOP_DELAY_FLOOR_MS = 1;
/** A runner using this much of one core leaves its event loop no slack: its callbacks queue up. */
export const CLIENT_BOUND_CPU_CORES = 0.9;
/** The share of time a delay must cover to reach a latency's p99 (replies arrive uniformly in time). */
const P99_TIME_SHARE = 0.01;

/**
 * The longest loop delay that at least 1% of the time was spent in: the delay a latency's p99 can carry.
 *
 * monitorEventLoopDelay samples the loop every few milliseconds, so a 100 ms stall once a second is one
 * sample in ~90: its count-based p99 misses it, yet every reply arriving during the stall (10% of them)
 * waits for it. So the stalls are weighted by the time they cover: each interval's longest stall covers at
 * least its own length, and the largest X such that stalls of ≥ X cover ≥ 1% of `windowMs` is taken, or the
 * count-based p99 when that is larger (many short delays, a loop busy all the time).
 */
export function exposedDelayMs(countP99Ms: number, intervalMaxMs: readonly number[], windowMs: number): number {
  const sorted = [...intervalMaxMs].sort((a, b) => b - a);
  let covered = 0;
  let stall = 0;
  for (const m of sorted) {
    covered += m;
    if (covered >= P99_TIME_SHARE * windowMs) {
      stall = m;
      break;
    }
  }
  return Math.max(countP99Ms, stall);
}

export interface ClientBoundInput {
  /** exposedDelayMs of the window (or of one sample). */
  delayMs: number;
  /** CPU in cores over the same time. */
  cpuCores: number;
  /** p99 of the latency judged against (ms), when the run has one. */
  mainP99Ms: number | undefined;
}

/** The verdict: client-bound when the loop delay reaches 10% of the main latency's p99, or the CPU nears one core. */
export function isClientBound({ delayMs, cpuCores, mainP99Ms }: ClientBoundInput): boolean {
  if (cpuCores >= CLIENT_BOUND_CPU_CORES) return true;
  if (delayMs < LOOP_DELAY_FLOOR_MS || mainP99Ms === undefined) return false;
  return delayMs > CLIENT_BOUND_SHARE * mainP99Ms;
}

// About three significant figures below a second ("0.60 ms", "75.0 ms", "104 ms"); from a second on, seconds as
// every latency reads ("2.15 s", lib/runs/numbers.ts).
const ms = (v: number) => (v >= 1000 ? fmtLatency(v) : `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ms`);

/** The one sentence every surface (run page, CLI, compare) shows for a client-bound run. */
export function clientBoundText(l: Pick<SummaryRunnerLoad, "loopDelayMs" | "exposedDelayMs" | "cpuCores" | "judgedAgainst">): string {
  const why = [
    `event-loop delay p99 ${ms(l.loopDelayMs.p99)}, ${ms(l.exposedDelayMs)} over 1% of the time`,
    ...(l.judgedAgainst ? [`against a ${l.judgedAgainst.metric} p99 of ${ms(l.judgedAgainst.p99)}`] : []),
    `runner CPU ${(100 * l.cpuCores).toFixed(0)}% of one core`,
  ].join("; ");
  return `client-bound: these latencies include up to ${ms(l.loopDelayMs.max)} of the runner's own delay (${why}). Run the runner on a less loaded machine, or lower the load, before reading them as the database's`;
}

/**
 * The load over several samples (the CLI's live line spans a few): the longest stall, the mean CPU, and the rule
 * applied to them as to a window. Undefined when the samples cover no time.
 */
export function loadOverSamples(
  samples: readonly { load: SampleRunnerLoad; sec: number }[],
  mainP99Ms: number | undefined,
): { loopDelayMaxMs: number; cpuCores: number; clientBound: boolean } | undefined {
  const sec = samples.reduce((a, x) => a + x.sec, 0);
  if (!(sec > 0)) return undefined;
  const maxima = samples.map((x) => x.load.loopDelayMs.max);
  const delayMs = exposedDelayMs(Math.max(...samples.map((x) => x.load.loopDelayMs.p99)), maxima, sec * 1000);
  const cpuCores = samples.reduce((a, x) => a + x.load.cpuCores * x.sec, 0) / sec;
  return { loopDelayMaxMs: Math.max(...maxima), cpuCores, clientBound: isClientBound({ delayMs, cpuCores, mainP99Ms }) };
}

/** The same rule for one sample (the live page): its own stall weighed by the time it covers. */
export function sampleClientBound(load: SampleRunnerLoad, intervalSec: number, mainP99Ms: number | undefined): boolean {
  const delayMs = exposedDelayMs(load.loopDelayMs.p99, [load.loopDelayMs.max], intervalSec * 1000);
  return isClientBound({ delayMs, cpuCores: load.cpuCores, mainP99Ms });
}
