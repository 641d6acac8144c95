// The shapes of a ceiling search's record, browser-safe: one judged step, the step in progress, the outcome.
import type { LatencyByMetric, LatencyStats, Phase } from "../measurement/metrics";
import type { SampleMetrics } from "../measurement/sample";
import type { Bracket, StopReason, Tried } from "./search";
import type { ClientLoad, StepVerdict } from "./verdict";

/** One step, as it is printed and stored (runner/ceiling/driver.ts makes it): what the plan reads of it (Tried: its
 *  rate in the paced unit, whether it held, and whether it was starved, a confirmation, unexplained or a
 *  re-measurement), and what it measured. */
export interface CeilingStep extends Tried {
  index: number;
  /** How many runs measured it, when more than one (an undecided latency goal runs again: runner/ceiling/driver.ts). */
  runs?: number;
  verdict: StepVerdict;
  achievedRate: number;
  readRate: number | null;
  measuredSeconds: number;
  /** The latency the goal was checked on (its name says whether from the schedule). */
  goal: { name: string; label: string; stats: LatencyStats | undefined };
  /** Every latency of the step's window, by name (the curve's percentiles). */
  latencyMs: LatencyByMetric;
  client: ClientLoad | null;
  /** What limited the step's run, by the run's telemetry verdict, when it recorded telemetry. */
  bottleneck?: { category: string; statement: string };
  startedAt: string;
  endedAt: string;
}

/** The step in progress, for the live view: its rate and phase, and its latest one-second sample. */
export interface StepProgress {
  index: number;
  rate: number;
  confirmation?: boolean;
  phase: Phase;
  sample?: Pick<SampleMetrics, "elapsedSec" | "operations" | "measures">;
}

/** How a search ended (the ceiling is the bracket's low end). */
export interface SearchOutcome {
  stop: StopReason;
  ceiling: number | null;
  bracket: Bracket;
  /** The index of the step at the bracket's high end: why the rate above the ceiling was not sustained. */
  failedAbove: number | null;
  /** The index of the longer run that confirmed the ceiling; null when it was not confirmed (absent on
   *  searches stored before confirmations). */
  confirmation?: number | null;
}
