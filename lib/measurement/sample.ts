// One sample per second of a run, written by the runner into the control store (Sample.metrics) and
// streamed to the browser over SSE. Percentiles here are of that one interval's histogram only.
import { z } from "zod";
import { GroupFigures, Operations, Phase } from "./metrics";
import { isOldSample, upgradeSampleMetrics } from "./upgrade";
import { SampleRunnerLoad } from "./runner-load";
import { SampleParts } from "./part-figures";
import { TelemetrySample } from "../telemetry/shape";

const SampleMetricsV2 = z.object({
  /** Seconds since the load started (warm-up included). */
  elapsedSec: z.number(),
  /** Real length of this interval in seconds (rates are divided by it). */
  intervalSec: z.number(),
  /** What each declared operation did in this interval, by its name (lib/measurement/metrics.ts OperationFigures);
   *  its latencies are the percentiles of this interval's histograms. */
  operations: Operations,
  /** Per consumer group (pub/sub's g0, g1, …; the queue's "queue"): its reads and its backlog. */
  groups: z.array(GroupFigures).optional(),
  /** What the workload declares of its own, by name: `backlog` (items waiting at the interval's end, the largest
   *  over groups) when it declares one. */
  measures: z.record(z.string(), z.number()),
  /** Error messages first seen in this interval (deduplicated, at most 10). */
  errors: z.array(z.string()),
  /** The runner's own event-loop delay and CPU in this interval (lib/measurement/runner-load.ts). Absent in older samples. */
  runnerLoad: SampleRunnerLoad.optional(),
  /** A run carried by several runner processes: each part's rates, load and clock this second, and the worst-loaded
   *  part, whose load `runnerLoad` then is (lib/measurement/parts.ts mergeSamples). Absent for one process. */
  processes: SampleParts.optional(),
  /** What the server was doing, the telemetry collector's newest reading (lib/telemetry/shape.ts). Absent in
   *  samples before it was collected, when its collector lagged behind a second, or with telemetry off. */
  telemetry: TelemetrySample.optional(),
});
/** A sample's metrics; stored samples of the old shape (no `operations`) are converted when read (./upgrade.ts). */
export const SampleMetrics = z.preprocess((m) => (isOldSample(m) ? upgradeSampleMetrics(m) : m), SampleMetricsV2);
export type SampleMetrics = z.infer<typeof SampleMetrics>;

export const Sample = z.object({
  seq: z.number().int(),
  time: z.string(),
  phase: Phase,
  metrics: SampleMetrics,
});
export type Sample = z.infer<typeof Sample>;

/** The runner's sampling period: runner/engine.ts ticks every 1,000 ms, plus one shorter tick at each phase's
 *  end so that no interval spans two phases. */
export const SAMPLE_PERIOD_SEC = 1;

/**
 * Whether this sample's counts may be drawn as a rate. A phase's last sample can be a few milliseconds long
 * (the drain ends as soon as the backlog is empty; one run's last sample covered 2.7 ms): a handful of
 * messages, or none, divided by 2.7 ms is noise, and charts drawing it ended every finished run in a plunge
 * to 0 or a spike. Such a sample stays in the data (its counts are in every total); charts leave its rates
 * out. Uses the interval's measured length (`intervalSec`), not the nominal one.
 */
export function isRateSample(m: Pick<SampleMetrics, "intervalSec">): boolean {
  return m.intervalSec >= 0.1 * SAMPLE_PERIOD_SEC;
}
