// Whether one step of a ceiling search was sustained, pure: each condition is checked on the step's measured
// window and a failed one says what it measured against what it needed. Browser-safe (the run page re-reads
// stored verdicts; the driver computes them from the engine's summary and samples with stepFacts below).
import { fmtLatency } from "../runs/numbers";
import type { LatencyStats } from "../measurement/metrics";
import { CLIENT_RULE, clientReason, delayWords, judgeClient, runnerRole } from "../measurement/runner-load";
import { type BoundEvidence, goalDecision, QUANTILE_OF, samplesToBound } from "./interval";
import { type Slo, sloBreaches, sloText } from "./slo";
import { perSecond, unitWords } from "../words";
import { countWords } from "../words";

/** The conditions of "sustained", in the order they are checked and shown. */
export const CONDITIONS = ["rate", "schedule", "backlog", "readers", "latency", "errors", "client"] as const;
export type Condition = (typeof CONDITIONS)[number];

export const CONDITION_LABEL: Record<Condition, string> = {
  rate: "achieved rate",
  schedule: "kept to the timetable",
  backlog: "backlog",
  readers: "readers keep up",
  latency: "latency goal",
  errors: "errors",
  client: "runner starved",
};

/** The achieved rate may fall this far below the target (0.02: within 2%). */
export const RATE_TOLERANCE = 0.02;
/** Readers may read this much less than the writes times the fan-out. */
export const READ_TOLERANCE = 0.02;
/**
 * The backlog's growth over the window may be at most this fraction of the messages written in it. A reader
 * side 2% short of the writers leaves 2% of them queued; anything at or under 1% is the noise of batches in
 * flight when the window starts and ends, which the slack below also covers for short windows.
 */
export const BACKLOG_GROWTH_TOLERANCE = 0.01;
/** Loop delays below this are timer noise (1 ms timer granularity). */
const LOOP_FLOOR_MS = 1;
/** The runner's CPU use at or above which it is starved: its callbacks queue behind each other (the one client rule's). */
export const STARVED_CPU_CORES = CLIENT_RULE.cpuCores;
/**
 * The runner's main thread running or waiting to run (runnable, not running) this share of the window never
 * waited on the target: it, or the host's other processes taking the CPU from it, set the pace. On a loaded
 * host a thread that runs 15% of the time may wait another 50% to run, and is still idle the rest: then the
 * target, not the runner, is what it waits for.
 */
export const STARVED_BUSY_SHARE = 0.9;

/**
 * How starved the runner was during the step's measured window. A starved runner's measurement says nothing
 * about the target: its stalls are counted as latency and its writes go out late.
 */
export interface ClientLoad {
  /** CPU seconds per second of the window (the runner process, every thread). */
  cpuCores: number;
  /** Event-loop delay p99 over the window, ms. */
  eventLoopP99Ms: number;
  /** The loop delay at least 1% of the window was spent in (lib/measurement/runner-load.ts exposedDelayMs):
   *  what a latency's p99 can carry of the runner's own stalls. Absent on steps stored before it was kept. */
  exposedDelayMs?: number;
  /** Share of the window the runner's main thread waited runnable but not running (/proc/self/schedstat);
   *  null where the system does not tell. */
  runQueueShare?: number | null;
  /** Share of the window the main thread ran (/proc/self/schedstat); null where the system does not tell. */
  mainRunShare?: number | null;
  /** The paced operation's own service time (its latency p50 from send, ms): a stall shorter than it is noise. */
  serviceMs?: number | null;
}

/** What a step measured, in the terms of the conditions. */
export interface StepFacts {
  targetRate: number;
  /** The paced operation's unit ("msg", "row", "req", "workflow"): the words of the failures (absent: "msg", as
   *  steps stored before it was kept). */
  unit?: string;
  /** Writes per second over the measured window. */
  achievedRate: number;
  measuredSeconds: number;
  /** Reads per second over the window (summed over consumer groups), null when the workload has no reads. */
  readRate: number | null;
  /** Reads expected per write: the number of consumer groups for a fan-out, else 1. */
  fanOut: number;
  /** The backlog sampled over the measured window (seconds since load start, items), null when the workload
   *  declares no backlog. */
  backlog: { t: number; items: number }[] | null;
  /** Slack in items for the backlog: the items in flight at once (a batch per writer, and one). */
  backlogSlack: number;
  /** Items per write transaction: counts move in whole batches, so a window's rates are known to one batch. */
  writeBatch: number;
  /** The paced operations' delay behind their timetable over the window (seconds since load start, lag in ms:
   *  the per-second median from-schedule latency), null when the workload times none from schedule. */
  scheduleLag?: { t: number; lagMs: number }[] | null;
  /** The latency the goal is checked on: its name, label, and its percentiles over the window. */
  latency: { name: string; label: string; stats: LatencyStats | undefined };
  /** Each bound of the goal with its percentile's interval and decision (lib/ceiling/interval.ts), from the
   *  step's histogram (merged over its runs when it ran longer); absent on steps stored before, which are judged
   *  on the point value. */
  goalEvidence?: BoundEvidence[];
  /** Failed operations in the window, and their first messages. */
  errors: { count: number; messages: string[] };
  /** null when nothing measured it (then the condition is reported as unchecked, never silently passed). */
  client: ClientLoad | null;
}

export interface Failure {
  condition: Condition;
  /** What was measured against what was needed, in words with the numbers. */
  message: string;
}

export interface StepVerdict {
  sustained: boolean;
  failures: Failure[];
  /** Conditions that could not be checked, with why (a workload with no backlog is not one: it has nothing to check). */
  unchecked: Failure[];
  /** The backlog's least-squares slope over the window, items/s (null without a backlog). */
  backlogSlopePerSec: number | null;
  /** Set when nothing failed but the latency goal was neither clearly met nor clearly missed: its interval
   *  straddles the limit, or too few samples bound it. The step runs longer (runner/ceiling/driver.ts); still
   *  undecided at its bound, it is not sustained: the goal was not shown to hold. Says so with the numbers. */
  undecided?: string;
  /** Set when the runner was starved and that can explain every failure: the step is run again, never charged
   *  to the target (lib/ceiling/search.ts). Says what starved it, with its numbers. */
  starved?: string;
}

const n0 = (x: number) => Math.round(x).toLocaleString("en-US");
const n1 = (x: number) => x.toLocaleString("en-US", { maximumFractionDigits: 1 });
const pct = (x: number) => `${(x * 100).toLocaleString("en-US", { maximumFractionDigits: 1 })}%`;

/** Least-squares slope of items over time (per second); 0 with fewer than two distinct times. */
export function slope(points: readonly { t: number; items: number }[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mt = points.reduce((a, p) => a + p.t, 0) / n;
  const mi = points.reduce((a, p) => a + p.items, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.t - mt) * (p.items - mi);
    den += (p.t - mt) ** 2;
  }
  return den > 0 ? num / den : 0;
}

/** Judges one step against the latency goal. */
export function judgeStep(f: StepFacts, slo: Slo): StepVerdict {
  const failures: Failure[] = [];
  const unchecked: Failure[] = [];
  const fail = (condition: Condition, message: string) => failures.push({ condition, message });
  const u = f.unit ?? "msg";
  const items = unitWords(u);

  // Writes and reads are counted in whole batches: a window holds one batch more or less than its share, which
  // at a low rate and a large batch is more than 2% (pub/sub's 100-message batches at 500 msg/s over 5 s: 4%).
  const batchRate = f.measuredSeconds > 0 ? f.writeBatch / f.measuredSeconds : 0;
  const batchWords = f.writeBatch > 1 ? ` and one ${n0(f.writeBatch)}-${unitWords(u, 1)} batch` : "";
  const perSec = perSecond(u);
  if (f.achievedRate < f.targetRate * (1 - RATE_TOLERANCE) - batchRate)
    fail(
      "rate",
      `achieved ${n1(f.achievedRate)} ${perSec} of the ${n0(f.targetRate)} ${perSec} target (${pct(1 - f.achievedRate / f.targetRate)} short; at most ${pct(RATE_TOLERANCE)}${batchWords} allowed)`,
    );

  if (f.scheduleLag?.length) {
    // Paced items falling further behind their timetable: items due and not yet started, which a window's
    // count of completions can hide while the earlier ones are worked off.
    const growthMs = lagGrowthMs(f);
    const behind = (growthMs / 1000) * f.targetRate;
    const allowed = Math.max(f.targetRate * f.measuredSeconds * BACKLOG_GROWTH_TOLERANCE, f.backlogSlack);
    if (behind > allowed)
      fail(
        "schedule",
        `the paced operations fell behind their timetable by ${n0(growthMs)} ms over the ${n1(f.measuredSeconds)} s window (about ${n0(behind)} items due and not started; at most ${n0(allowed)} allowed)`,
      );
  }

  let backlogSlopePerSec: number | null = null;
  if (f.backlog) {
    // The slope over every sample of the window, not its two ends: one sample taken while a batch was in
    // flight would otherwise decide the verdict.
    backlogSlopePerSec = slope(f.backlog);
    const growth = backlogSlopePerSec * f.measuredSeconds;
    const allowed = Math.max(f.achievedRate * f.measuredSeconds * BACKLOG_GROWTH_TOLERANCE, f.backlogSlack);
    if (growth > allowed)
      fail(
        "backlog",
        `the backlog grew by ${n1(backlogSlopePerSec)} ${perSec} (${n0(growth)} ${items} over the ${n1(f.measuredSeconds)} s window; at most ${n0(allowed)} allowed)`,
      );
  }

  if (f.readRate !== null) {
    const expected = f.achievedRate * f.fanOut;
    if (f.readRate < expected * (1 - READ_TOLERANCE) - batchRate * f.fanOut)
      fail(
        "readers",
        `readers read ${n1(f.readRate)} ${perSec}; the ${n1(f.achievedRate)} ${perSec} written${f.fanOut > 1 ? ` × ${f.fanOut} groups need ${n1(expected)} ${perSec}` : ""} (${pct(1 - f.readRate / expected)} short; at most ${pct(READ_TOLERANCE)}${batchWords}${f.fanOut > 1 ? " per group" : ""} allowed)`,
      );
  }

  let undecided: string | undefined;
  if (!f.latency.stats) fail("latency", `no ${f.latency.label} latency was measured in the window, so the goal ${sloText(slo)} cannot be shown to hold`);
  else if (f.goalEvidence?.length) {
    const decision = goalDecision(f.goalEvidence);
    if (decision === "missed")
      fail(
        "latency",
        f.goalEvidence
          .filter((e) => e.decision === "missed")
          .map(
            (e) =>
              `${f.latency.label} ${e.percentile} ${fmtLatency(f.latency.stats![e.percentile])} (${intervalText(e)}) over the goal's ${fmtLatency(e.limitMs)}`,
          )
          .join("; "),
      );
    else if (decision === "unclear")
      undecided = f.goalEvidence
        .filter((e) => e.decision === "unclear")
        .map((e) => `${f.latency.label} ${e.percentile} ${fmtLatency(f.latency.stats![e.percentile])}: ${unclearText(e)}`)
        .join("; ");
  } else {
    const broken = sloBreaches(slo, f.latency.stats);
    if (broken.length)
      fail(
        "latency",
        broken
          .map(
            (b) =>
              `${f.latency.label} ${b.bound.percentile} ${fmtLatency(b.measuredMs)} ${b.bound.inclusive ? ">" : "≥"} the goal's ${fmtLatency(b.bound.limitMs)}`,
          )
          .join("; "),
      );
  }

  if (f.errors.count > 0)
    fail(
      "errors",
      `${countWords(Math.round(f.errors.count), "operation")} failed${f.errors.messages.length ? `: ${f.errors.messages.slice(0, 3).join("; ")}` : ""}`,
    );

  if (!f.client) unchecked.push({ condition: "client", message: "the runner's load was not recorded for this step's run" });
  const starved = failures.length ? starvation(f, slo, failures) : null;
  if (failures.length) undecided = undefined; // a clear failure decides the step whatever the latency's interval
  return {
    sustained: failures.length === 0 && undecided === undefined,
    failures,
    unchecked,
    backlogSlopePerSec,
    ...(undecided ? { undecided } : {}),
    ...(starved ? { starved } : {}),
  };
}

/**
 * Why the runner, not the target, can have decided a failed step, or null. Failed operations never are. A
 * runner short of CPU (near a whole core, or its main thread running or waiting to run 90% of the time)
 * explains any other failure.
 * A stall of its event loop explains a latency failure only: when it is longer than the operation's own
 * service time and the latency less the stall would meet the goal. The stall is never compared with the p99 it
 * inflated (a 440 ms stall lifts a 20 ms p99 to 460 ms; 10% of that is no yardstick).
 */
export function starvation(f: StepFacts, slo: Slo, failures: readonly Failure[]): string | null {
  const c = f.client;
  if (!c || failures.some((x) => x.condition === "errors")) return null;
  if (c.cpuCores >= STARVED_CPU_CORES) return `the runner used ${pct(c.cpuCores)} of a core (starved at ${pct(STARVED_CPU_CORES)})`;
  if (c.runQueueShare != null && c.mainRunShare != null && c.runQueueShare + c.mainRunShare >= STARVED_BUSY_SHARE)
    return `the runner's main thread ran ${pct(c.mainRunShare)} and waited to run (runnable, not running) ${pct(c.runQueueShare)} of the window, so it never waited on the target (starved at ${pct(STARVED_BUSY_SHARE)})`;
  // The one client rule (lib/measurement/runner-load.ts), as the run's verdict and its runner-load note apply it.
  const stall = c.exposedDelayMs ?? c.eventLoopP99Ms;
  const m = {
    cpuCores: c.cpuCores,
    ...(c.runQueueShare != null ? { runQueueWaitMsPerSec: 1000 * c.runQueueShare } : {}),
    exposedDelayMs: stall,
    ...(c.serviceMs != null ? { serviceMs: c.serviceMs } : {}),
  };
  const j = judgeClient(m);
  // The runner was the limit only when it was at its limit and the step missed its rate; otherwise its load is
  // the delay in the step's latencies (the same role the run's verdict gives it).
  const role = runnerRole(j, !failures.some((x) => x.condition === "rate"));
  if (role === "limit" && c.runQueueShare != null) return `client-bound: ${clientReason(j, m, role)}`;
  if (role === "caution" && c.runQueueShare != null) return `${delayWords(stall)}: ${clientReason(j, m, role)}`;
  if (stall < Math.max(c.serviceMs ?? 0, LOOP_FLOOR_MS)) return null;
  const explained = (x: Failure) =>
    x.condition === "latency"
      ? !!f.latency.stats && sloBreaches(slo, f.latency.stats).every((b) => b.measuredMs - stall < b.bound.limitMs)
      : x.condition === "schedule" && lagGrowthMs(f) <= stall;
  if (!failures.every(explained)) return null;
  return `the runner's event loop stalled ${fmtLatency(stall)} over 1% of the window (its operation takes ${fmtLatency(c.serviceMs ?? undefined)}): that stall alone can explain ${failures.map((x) => CONDITION_LABEL[x.condition]).join(" and ")} failing`;
}

/** "95% interval 38-45 ms over 4,000 samples". */
const intervalText = (e: BoundEvidence) =>
  `95% interval ${fmtLatency(e.lowMs)}-${e.highMs === null ? "unbounded" : fmtLatency(e.highMs)} over ${countWords(e.samples, "sample")}`;

/** Why a bound is neither met nor missed, with its numbers. */
function unclearText(e: BoundEvidence): string {
  if (e.highMs === null)
    return `${countWords(e.samples, "sample")} cannot bound a ${e.percentile} from above (${samplesToBound(QUANTILE_OF[e.percentile]).toLocaleString("en-US")} needed), so the goal's ${fmtLatency(e.limitMs)} is not shown to hold`;
  if (e.lowMs >= e.limitMs && e.worstSecond)
    return `over the goal's ${fmtLatency(e.limitMs)} (${intervalText(e)}), but not without its worst second (${e.worstSecond.count.toLocaleString("en-US")} samples at ${e.percentile} ${fmtLatency(e.worstSecond.valueMs)}): a burst, measured again`;
  return `its ${intervalText(e)} straddles the goal's ${fmtLatency(e.limitMs)}`;
}

/** How much further behind its timetable the paced operation fell over the window (ms, by the lag's slope). */
const lagGrowthMs = (f: StepFacts) => (f.scheduleLag?.length ? slope(f.scheduleLag.map((p) => ({ t: p.t, items: p.lagMs }))) * f.measuredSeconds : 0);

/** The step's verdict in one line: "sustained" or what failed. */
export function verdictText(v: StepVerdict): string {
  if (v.sustained) return "sustained";
  if (v.undecided && !v.failures.length) return `NOT shown to hold: ${v.undecided}`;
  const failed = v.failures.map((x) => `${CONDITION_LABEL[x.condition]}: ${x.message}`).join("; ");
  return v.starved ? `STARVED, run again (not charged to the target): ${v.starved}; it measured ${failed}` : `NOT sustained: ${failed}`;
}
