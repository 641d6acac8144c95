// Shapes shared by samples (lib/measurement/sample.ts) and summaries (lib/measurement/summary.ts).
import { z } from "zod";

/** Percentiles of one HDR histogram, in milliseconds. Never averaged from other percentiles. */
export const LatencyStats = z.object({
  p50: z.number(),
  p90: z.number(),
  p95: z.number(),
  p99: z.number(),
  p999: z.number(),
  max: z.number(),
  mean: z.number(),
  count: z.number().int(),
});
export type LatencyStats = z.infer<typeof LatencyStats>;

/**
 * The broker workloads' latency metrics (definitions as the reference tool, so numbers compare; docs/measurement.md):
 * - write:  pubsub: one sample per batch (BEGIN → INSERT … COMMIT, timer after BEGIN as the reference);
 *           queue: one per autocommit INSERT. Service time, measured from when the write was sent.
 * - writeScheduled: with a throttle only: from each write's *scheduled* start (coordinated omission corrected).
 * - read:   pubsub: one per non-empty poll (range SELECT + row iteration + COMMIT, after the claim);
 *           queue: one per dequeue transaction (BEGIN + SELECT … SKIP LOCKED + DELETE + INSERT archive + COMMIT).
 * - claim:  one per poll, empty polls included in both workloads (so it covers every poll the target served):
 *           pubsub: the claim statement alone (UPDATE consumer_offsets …);
 *           queue: the SELECT … FOR UPDATE SKIP LOCKED alone (an empty queue returns no row, then ROLLBACK).
 * - e2e:    one per message: from the writer starting its transaction (the reference's created_at = now())
 *           to the reader having the row, both read on the runner's own monotonic clock (never server vs client).
 * - e2eScheduled: with a throttle only: e2e from the write's *scheduled* start (coordinated omission corrected:
 *           a write held up by a stall is late from when it was due, not from when it was finally sent).
 * - writerLag: with a throttle only: how far a writer was behind its own share of the schedule (limit / writers),
 *           at each of its writes' end and once a second: a stall of one writer shows here, not in the rate.
 * workloads/fields.ts brokerMetrics declares these names; runner/stats.ts records them.
 *
 * The type: percentiles by latency name, whatever names the run's workload declares (lib/measurement/operations.ts
 * latencyMetrics), so a workload measuring "get" and "set" stores latencyMs.get and latencyMs.set.
 */
export const LatencyByMetric = z.partialRecord(z.string(), LatencyStats);
export type LatencyByMetric = z.infer<typeof LatencyByMetric>;

export const Throughput = z.object({
  count: z.number().int(),
  msgPerSec: z.number(),
  mibPerSec: z.number(),
  errors: z.number().int(),
});
export type Throughput = z.infer<typeof Throughput>;

export const RUN_PHASES = ["setup", "warmup", "measuring", "draining", "verifying", "done"] as const;
export const Phase = z.enum(RUN_PHASES);
export type Phase = z.infer<typeof Phase>;

export const RUN_STATUSES = ["queued", "running", "completed", "failed", "cancelled", "interrupted"] as const;
export const RunStatus = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof RunStatus>;
export const FINAL_STATUSES: RunStatus[] = ["completed", "failed", "cancelled", "interrupted"];

/** MiB/s of payload bytes, as the reference (msg/s × payload / 2^20). */
export const mibPerSec = (msgPerSec: number, payloadBytes: number) => (msgPerSec * payloadBytes) / 1048576;
