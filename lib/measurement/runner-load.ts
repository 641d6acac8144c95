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
  /** Share of the interval the event loop ran callbacks (performance.eventLoopUtilization); absent on old samples. */
  eventLoopUtilization: z.number().optional(),
  /** The runner's main thread's time runnable but not running (ms per second, /proc/self/schedstat); absent where not told. */
  runQueueWaitMsPerSec: z.number().optional(),
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
  /** The event loop's busy share and the runner's wait for a CPU over the window (runs judged by CLIENT_RULE). */
  eventLoopUtilization: z.number().optional(),
  runQueueWaitMsPerSec: z.number().optional(),
  /** Whether CLIENT_RULE held (clientBound: the runner saturated or starved, its delay in the latencies; whether it was
   *  the limit is runnerRole, by the rate met), and the latency it was judged against. */
  clientBound: z.boolean(),
  /** The main operation's name and p99, and (runs judged by CLIENT_RULE) its p50: the service time a delay is held against. */
  judgedAgainst: z.object({ metric: z.string(), p99: z.number(), p50: z.number().optional() }).nullable(),
  /**
   * "starvation": clientBound is CLIENT_RULE's on the numbers above. Absent on runs stored before it: their flag
   * was the earlier rule's (loop delay against 10% of a p99), shown as stored and labelled so, since the CPU wait
   * it would need to be judged again was not kept.
   */
  rule: z.literal("starvation").optional(),
});
export type SummaryRunnerLoad = z.infer<typeof SummaryRunnerLoad>;

/**
 * THE client rule, the one the verdict, the runner-load note, the run page, the CLI, the A/B and the ceiling apply.
 * The runner set the pace (saturated) when its CPU or its event loop was at its limit while it got the CPU; it
 * was starved when it waited for a CPU (runnable, not running) and its loop's delay reached the operation's own
 * service time. A delay is never held against a p99 (a stall inflates the p99 it would be compared with).
 * Whether it was the limit or a caution on the latencies is runnerRole's, by the rate met.
 */
export const CLIENT_RULE = {
  /** saturated: the runner used at least this many cores (Node runs the loops on one thread) … */
  cpuCores: 0.9,
  /** … or its event loop was busy at least this share of the time, while it was not waiting for a CPU. */
  eventLoopUtilization: 0.9,
  /** starved: its threads waited for a CPU at least this many ms per second (10%: more than a busy host's noise) … */
  runQueueWaitMsPerSec: 100,
  /** … and its event-loop delay reached this multiple of the operation's own service time (its p50) … */
  delayOverService: 1,
  /** … a delay of at least this many ms (Node timers have 1 ms granularity: below it, timer noise). */
  delayFloorMs: 1,
} as const;
/** Delays below this are timer noise: never a verdict on their own. */
export const LOOP_DELAY_FLOOR_MS = CLIENT_RULE.delayFloorMs;
/** A runner using this much of one core leaves its event loop no slack: its callbacks queue up. */
export const CLIENT_BOUND_CPU_CORES = CLIENT_RULE.cpuCores;
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

/** The runner's numbers the rule reads; each absent one is not judged (and named so by its evidence's absence). */
export interface ClientMeasures {
  cpuCores?: number;
  eventLoopUtilization?: number;
  runQueueWaitMsPerSec?: number;
  /** exposedDelayMs of the window (or of one sample). */
  exposedDelayMs?: number;
  /** The operation's own service time (its p50, ms). */
  serviceMs?: number;
}

/** One number held against its threshold; `holds` is left out where it is context (the other alternative met). */
export interface ClientCheck {
  what: string;
  value: number;
  unit: string;
  threshold: number;
  cmp: "≥";
  holds?: boolean;
}

export interface ClientJudgement {
  bound: boolean;
  /** Its CPU or its loop at the limit: the runner set the pace. */
  saturated: boolean;
  /** Waiting for a CPU long enough to delay its loop by an operation's own time: it distorted the numbers. */
  starved: boolean;
  checks: ClientCheck[];
}

/** A number held against the least it must reach (`value ≥ threshold`), beside it: the client rule's checks and the
 *  verdict's "≥" evidence (lib/telemetry/verdict-evidence.ts ge) alike. */
export const atLeast = (what: string, value: number, threshold: number, unit: string): ClientCheck => ({
  what,
  value,
  unit,
  threshold,
  cmp: "≥",
  holds: value >= threshold,
});

/** CLIENT_RULE on the runner's numbers: saturated or starved, and every number beside its threshold. */
export function judgeClient(m: ClientMeasures): ClientJudgement {
  const cpu = m.cpuCores !== undefined ? atLeast("runner CPU, % of one core", 100 * m.cpuCores, 100 * CLIENT_RULE.cpuCores, "%") : undefined;
  const elu =
    m.eventLoopUtilization !== undefined
      ? atLeast("runner event-loop utilization", m.eventLoopUtilization, CLIENT_RULE.eventLoopUtilization, "ratio")
      : undefined;
  const queued =
    m.runQueueWaitMsPerSec !== undefined
      ? atLeast("runner's wait for a CPU (runnable, not running)", m.runQueueWaitMsPerSec, CLIENT_RULE.runQueueWaitMsPerSec, "ms/s")
      : undefined;
  const delayed =
    m.exposedDelayMs !== undefined && m.serviceMs !== undefined && m.serviceMs > 0
      ? atLeast(
          "runner event-loop delay / the operation's own service time (p50)",
          m.exposedDelayMs >= CLIENT_RULE.delayFloorMs ? m.exposedDelayMs / m.serviceMs : 0,
          CLIENT_RULE.delayOverService,
          "ratio",
        )
      : undefined;
  const starvedParts = [queued, delayed].filter((e): e is ClientCheck => e !== undefined);
  const starved = starvedParts.length > 0 && starvedParts.every((e) => e.holds);
  // A loop "busy" while its thread waits for a CPU is starved, not saturated: utilization counts the time a
  // callback was preempted. It shows saturation only when the runner got the CPU it asked for.
  if (elu?.holds && queued?.holds) delete elu.holds;
  const saturated = cpu?.holds === true || elu?.holds === true;
  // Either saturation (CPU or loop) or starvation suffices; the other alternative's unmet numbers are context.
  if (saturated) for (const e of starvedParts) if (!e.holds) delete e.holds;
  if (starved || saturated) for (const e of [cpu, elu]) if (e && !e.holds) delete e.holds;
  const checks = [cpu, elu, ...starvedParts].filter((e): e is ClientCheck => e !== undefined);
  return { bound: saturated || starved, saturated, starved, checks };
}

// About three significant figures below a second ("0.60 ms", "75.0 ms", "104 ms"); from a second on, seconds as
// every latency reads ("2.15 s", lib/runs/numbers.ts).
const ms = (v: number) => (v >= 1000 ? fmtLatency(v) : `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ms`);
const num = (x: number) => (Math.abs(x) >= 100 ? Math.round(x).toLocaleString("en-US") : String(Math.round(x * 10) / 10));

/**
 * What the runner's load means for a run, the one answer every surface gives:
 * - "limit": it set the pace. Saturated (its CPU or its loop at the limit while it got the CPU) and the rate
 *   asked was missed, or no rate was asked (a closed loop goes as fast as its runner): client-bound.
 * - "caution": it inflated the latencies without limiting the run. Starved of CPU (waiting for one, its loop
 *   delayed by an operation's own time), or saturated while the rate asked was met: a runner does not limit a
 *   rate that was met. The latencies carry its delay; the verdict is the server's or the rate's.
 * - "none": the rule did not hold.
 * `rateMet`: the paced operation reached the rate asked (PACE_THRESHOLDS.rateAchieved), false when it missed it,
 * undefined when no rate was asked.
 */
export type RunnerRole = "limit" | "caution" | "none";
export function runnerRole(j: Pick<ClientJudgement, "saturated" | "bound">, rateMet: boolean | undefined): RunnerRole {
  if (j.saturated && rateMet !== true) return "limit";
  return j.bound ? "caution" : "none";
}

/**
 * Why the runner was judged, from the numbers that held only ("the runner was starved of CPU (it waited 240 ms/s
 * for a CPU, its event-loop delay (12 ms) reached 8× the operation's own 1.5 ms)"): the verdict's statement and
 * caution and the runner-load note share it. "The limit" only when it was (role "limit"); a saturated runner that
 * met the rate asked "was busy".
 */
export function clientReason(j: ClientJudgement, m: Pick<ClientMeasures, "exposedDelayMs" | "serviceMs">, role: RunnerRole): string {
  const held = (prefix: string) => j.checks.find((e) => e.what.startsWith(prefix) && e.holds === true);
  const cpu = held("runner CPU");
  const elu = held("runner event-loop utilization");
  const queued = held("runner's wait for a CPU");
  const delayed = held("runner event-loop delay");
  const parts = [
    ...(cpu ? [`its CPU reached ${num(cpu.value)}% of one core`] : []),
    ...(elu ? [`its event loop was ${Math.round(elu.value * 100)}% busy`] : []),
    ...(queued ? [`it waited ${num(queued.value)} ms/s for a CPU`] : []),
    ...(delayed
      ? [`its event-loop delay (${fmtLatency(m.exposedDelayMs ?? 0)}) reached ${num(delayed.value)}× the operation's own ${fmtLatency(m.serviceMs ?? 0)}`]
      : []),
  ];
  const was = role === "limit" ? "was the limit" : j.saturated ? "was busy" : "was starved of CPU";
  return `the runner ${was} (${parts.join(", ")})`;
}

/** "these latencies include up to 104 ms of the runner's own delay": the caution's opening, on every surface. */
export const delayWords = (maxMs: number) => `these latencies include up to ${ms(maxMs)} of the runner's own delay`;

/** The caution's sentence: the delay in the latencies, why, and that the rate was met (so the runner did not limit it). */
export function cautionText(j: ClientJudgement, m: ClientMeasures, maxDelayMs: number, rateMet: boolean | undefined, who = ""): string {
  return `${delayWords(maxDelayMs)}: ${who}${clientReason(j, m, "caution")}${rateMet ? ", and the rate asked was met: the runner did not limit it" : ""}`;
}

/** The summary's numbers as the rule reads them. */
export function measuresOf(
  l: Pick<SummaryRunnerLoad, "cpuCores" | "eventLoopUtilization" | "runQueueWaitMsPerSec" | "exposedDelayMs" | "judgedAgainst">,
): ClientMeasures {
  return {
    cpuCores: l.cpuCores,
    eventLoopUtilization: l.eventLoopUtilization,
    runQueueWaitMsPerSec: l.runQueueWaitMsPerSec,
    exposedDelayMs: l.exposedDelayMs,
    serviceMs: l.judgedAgainst?.p50,
  };
}

/** The rule's other numbers for the summary's one-line rows (page, CLI): its loop's use and its wait for a CPU. */
export function clientNumbers(l: Pick<SummaryRunnerLoad, "eventLoopUtilization" | "runQueueWaitMsPerSec" | "judgedAgainst">): string {
  return [
    ...(l.eventLoopUtilization !== undefined ? [`, event loop ${Math.round(100 * l.eventLoopUtilization)}% busy`] : []),
    ...(l.runQueueWaitMsPerSec !== undefined ? [`, waited ${num(l.runQueueWaitMsPerSec)} ms/s for a CPU`] : []),
    ...(l.judgedAgainst?.p50 !== undefined ? [`, against ${l.judgedAgainst.metric} p50 ${ms(l.judgedAgainst.p50)}`] : []),
  ].join("");
}

/** What a flag stored before the one client rule says of itself. */
export const STORED_LABEL = "as stored, by the earlier rule (loop delay against 10% of a p99): the CPU wait to judge it again was not kept";

/**
 * The runner's load in the one sentence every surface (summary note, run page, CLI, compare, A/B) shows, by its
 * role (runnerRole): "client-bound: the runner was the limit (…)" when it set the pace, the latency caution
 * ("these latencies include up to N ms of the runner's own delay: …") when it only inflated the latencies, and
 * undefined when the rule did not hold. Stored runs judged by the earlier rule are a caution, labelled so.
 */
export function runnerLoadText(l: SummaryRunnerLoad, rateMet: boolean | undefined): string | undefined {
  if (l.rule === "starvation") {
    const m = measuresOf(l);
    const j = judgeClient(m);
    const role = runnerRole(j, rateMet);
    if (role === "none") return undefined;
    if (role === "caution")
      return `${cautionText(j, m, l.loopDelayMs.max, rateMet)}. Run the runner on a less loaded machine before reading the latencies as the database's`;
    return `client-bound: ${clientReason(j, m, role)}${rateMet === false ? " and the rate asked was missed" : ""}; ${delayWords(l.loopDelayMs.max)}. Give the runner more cores (--processes) or a machine of its own before reading the numbers as the database's`;
  }
  if (!l.clientBound) return undefined;
  const why = [
    `event-loop delay p99 ${ms(l.loopDelayMs.p99)}, ${ms(l.exposedDelayMs)} over 1% of the time`,
    ...(l.judgedAgainst ? [`against a ${l.judgedAgainst.metric} p99 of ${ms(l.judgedAgainst.p99)}`] : []),
    `runner CPU ${(100 * l.cpuCores).toFixed(0)}% of one core`,
  ].join("; ");
  return `${delayWords(l.loopDelayMs.max)} (${why}); ${STORED_LABEL}`;
}

/** The role of a summary's runner load: the rule on its numbers and the rate met; stored runs by the earlier rule a caution. */
export function runnerLoadRole(l: SummaryRunnerLoad | undefined, rateMet: boolean | undefined): RunnerRole {
  if (!l) return "none";
  if (l.rule !== "starvation") return l.clientBound ? "caution" : "none";
  return runnerRole(judgeClient(measuresOf(l)), rateMet);
}

/** Mean of a number over the samples that carry it, weighted by their length; undefined when none does. */
function weighted(samples: readonly { load: SampleRunnerLoad; sec: number }[], pick: (l: SampleRunnerLoad) => number | undefined): number | undefined {
  const have = samples.filter((x) => pick(x.load) !== undefined);
  const sec = have.reduce((a, x) => a + x.sec, 0);
  return sec > 0 ? have.reduce((a, x) => a + pick(x.load)! * x.sec, 0) / sec : undefined;
}

/**
 * The load over several samples (the CLI's live line spans a few, the live page shows one): the longest stall
 * weighed by the time it covers, the mean CPU, loop use and CPU wait, and CLIENT_RULE applied to them as to a
 * window, against the main operation's own service time (its p50). Undefined when the samples cover no time.
 */
export function loadOverSamples(
  samples: readonly { load: SampleRunnerLoad; sec: number }[],
  serviceMs: number | undefined,
): { loopDelayMaxMs: number; cpuCores: number; clientBound: boolean } | undefined {
  const sec = samples.reduce((a, x) => a + x.sec, 0);
  if (!(sec > 0)) return undefined;
  const maxima = samples.map((x) => x.load.loopDelayMs.max);
  const delayMs = exposedDelayMs(Math.max(...samples.map((x) => x.load.loopDelayMs.p99)), maxima, sec * 1000);
  const cpuCores = weighted(samples, (l) => l.cpuCores)!;
  const j = judgeClient({
    cpuCores,
    eventLoopUtilization: weighted(samples, (l) => l.eventLoopUtilization),
    runQueueWaitMsPerSec: weighted(samples, (l) => l.runQueueWaitMsPerSec),
    exposedDelayMs: delayMs,
    serviceMs,
  });
  return { loopDelayMaxMs: Math.max(...maxima), cpuCores, clientBound: j.bound };
}

/** The same rule for one sample (the live page). */
export function sampleClientBound(load: SampleRunnerLoad, intervalSec: number, serviceMs: number | undefined): boolean {
  return loadOverSamples([{ load, sec: intervalSec }], serviceMs)?.clientBound ?? false;
}
