// One sample per second of a run, written by the runner into the control store (Sample.metrics) and
// streamed to the browser over SSE. Percentiles here are of that one interval's histogram only.
import { z } from "zod";
import { LatencyByMetric, Phase, Throughput } from "./metrics";
import { SampleRunnerLoad } from "./runner-load";

export const GroupSample = z.object({
  /** "g0", "g1", … for pubsub consumer groups; "queue" for the queue. */
  group: z.string(),
  msgPerSec: z.number(),
  /** Messages written but not yet read by this group (pubsub) / rows still queued (queue). */
  backlog: z.number().int(),
});

export const SampleMetrics = z.object({
  /** Seconds since the load started (warm-up included). */
  elapsedSec: z.number(),
  /** Real length of this interval in seconds (rates are divided by it). */
  intervalSec: z.number(),
  writes: Throughput,
  reads: Throughput.extend({ emptyPolls: z.number().int() }),
  groups: z.array(GroupSample),
  /** Largest backlog over groups. */
  backlog: z.number().int(),
  latencyMs: LatencyByMetric,
  /** Rates of the workload's declared operations other than write and read (those are `writes`/`reads`), by
   *  name (runner/stats.ts OpStats). Absent when it declares none: pub/sub, queue and every older sample. */
  rates: z.record(z.string(), Throughput).optional(),
  /** Error messages first seen in this interval (deduplicated, at most 10). */
  errors: z.array(z.string()),
  /** The runner's own event-loop delay and CPU in this interval (lib/measurement/runner-load.ts). Absent in older samples. */
  runnerLoad: SampleRunnerLoad.optional(),
});
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
