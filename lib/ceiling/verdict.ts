// Whether one step of a ceiling search was sustained, pure: each condition is checked on the step's measured
// window and a failed one says what it measured against what it needed. Browser-safe (the run page re-reads
// stored verdicts; the driver computes them from the engine's summary and samples with stepFacts below).
import { fmtLatency } from "../runs/numbers";
import type { LatencyStats } from "../measurement/metrics";
import { type Slo, sloBreaches, sloText } from "./slo";

/** The conditions of "sustained", in the order they are checked and shown. */
export const CONDITIONS = ["rate", "backlog", "readers", "latency", "errors", "client"] as const;
export type Condition = (typeof CONDITIONS)[number];

export const CONDITION_LABEL: Record<Condition, string> = {
  rate: "achieved rate",
  backlog: "backlog",
  readers: "readers keep up",
  latency: "latency goal",
  errors: "errors",
  client: "client-bound",
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
/** How busy the runner was during the step's measured window, and the engine's client-bound verdict on it
 *  (lib/measurement/runner-load.ts: its event-loop delay against the run's main latency, or its CPU near one core). */
export interface ClientLoad {
  /** CPU seconds per second of the window (the runner process, every thread). */
  cpuCores: number;
  /** Event-loop delay p99 over the window, ms. */
  eventLoopP99Ms: number;
  clientBound: boolean;
  /** The verdict in words with its numbers (lib/measurement/runner-load.ts clientBoundText when client-bound). */
  reason: string;
}

/** What a step measured, in the terms of the conditions. */
export interface StepFacts {
  targetRate: number;
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
  /** Slack in items for the backlog: the messages in flight at once (a batch per writer, and one). */
  backlogSlack: number;
  /** Messages per write transaction: counts move in whole batches, so a window's rates are known to one batch. */
  writeBatch: number;
  /** The latency the goal is checked on: its name, label, and its percentiles over the window. */
  latency: { name: string; label: string; stats: LatencyStats | undefined };
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

  // Writes and reads are counted in whole batches: a window holds one batch more or less than its share, which
  // at a low rate and a large batch is more than 2% (pub/sub's 100-message batches at 500 msg/s over 5 s: 4%).
  const batchRate = f.measuredSeconds > 0 ? f.writeBatch / f.measuredSeconds : 0;
  const batchWords = f.writeBatch > 1 ? ` and one ${n0(f.writeBatch)}-message batch` : "";
  if (f.achievedRate < f.targetRate * (1 - RATE_TOLERANCE) - batchRate)
    fail(
      "rate",
      `achieved ${n1(f.achievedRate)} msg/s of the ${n0(f.targetRate)} msg/s target (${pct(1 - f.achievedRate / f.targetRate)} short; at most ${pct(RATE_TOLERANCE)}${batchWords} allowed)`,
    );

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
        `the backlog grew by ${n1(backlogSlopePerSec)} msg/s (${n0(growth)} messages over the ${n1(f.measuredSeconds)} s window; at most ${n0(allowed)} allowed)`,
      );
  }

  if (f.readRate !== null) {
    const expected = f.achievedRate * f.fanOut;
    if (f.readRate < expected * (1 - READ_TOLERANCE) - batchRate * f.fanOut)
      fail(
        "readers",
        `readers read ${n1(f.readRate)} msg/s; the ${n1(f.achievedRate)} msg/s written${f.fanOut > 1 ? ` × ${f.fanOut} groups need ${n1(expected)} msg/s` : ""} (${pct(1 - f.readRate / expected)} short; at most ${pct(READ_TOLERANCE)}${batchWords}${f.fanOut > 1 ? " per group" : ""} allowed)`,
      );
  }

  if (!f.latency.stats) fail("latency", `no ${f.latency.label} latency was measured in the window, so the goal ${sloText(slo)} cannot be shown to hold`);
  else {
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
    fail("errors", `${n0(f.errors.count)} operation(s) failed${f.errors.messages.length ? `: ${f.errors.messages.slice(0, 3).join("; ")}` : ""}`);

  if (!f.client) unchecked.push({ condition: "client", message: "the runner's load was not recorded for this step's run" });
  else if (f.client.clientBound) fail("client", `the runner, not the server, may have decided this step: ${f.client.reason.replace(/^client-bound: /, "")}`);

  return { sustained: failures.length === 0, failures, unchecked, backlogSlopePerSec };
}

/** The step's verdict in one line: "sustained" or what failed. */
export function verdictText(v: StepVerdict): string {
  return v.sustained ? "sustained" : `NOT sustained: ${v.failures.map((x) => `${CONDITION_LABEL[x.condition]}: ${x.message}`).join("; ")}`;
}
