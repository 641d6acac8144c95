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
 * workloads/fields.ts brokerMetrics declares these names; runner/core/stats.ts records them.
 *
 * Samples and summaries keep them under their operation (OperationFigures.latency: `writeScheduled` is the write's
 * `fromSchedule`, see latencyAddress). This type is the by-name view of them (operations.ts latenciesOf), which the
 * CLI's live line and a ceiling step's record use.
 */
export const LatencyByMetric = z.partialRecord(z.string(), LatencyStats);
export type LatencyByMetric = z.infer<typeof LatencyByMetric>;

/** An operation's latencies by kind: from when it was sent, from when it was scheduled (paced runs only), and for a
 *  throttled writer how far it was behind its own share of the schedule (`writerLag`). */
export const LATENCY_KINDS = ["fromSend", "fromSchedule", "writerLag"] as const;
export type LatencyKind = (typeof LATENCY_KINDS)[number];
export const OperationLatency = z.partialRecord(z.enum(LATENCY_KINDS), LatencyStats);

/** Cumulative HDR histograms of the measured window (values in microseconds), base64 compressed
 *  (hdr-histogram-js encodeIntoCompressedBase64), by operation and latency kind, so runs can be merged and re-read
 *  (a summary's, lib/measurement/summary.ts; runner/core/stats.ts writes them). */
export const Histograms = z.record(z.string(), z.partialRecord(z.enum(LATENCY_KINDS), z.string()));
export type Histograms = z.infer<typeof Histograms>;
export type OperationLatency = z.infer<typeof OperationLatency>;

/**
 * Where a latency of the declared names (lib/measurement/operations.ts latencyMetrics) is kept: `<op>Scheduled` is
 * operation `<op>`'s latency from schedule, `writerLag` the write's lag behind its writer's share, any other name an
 * operation's own latency from send (pub/sub's end-to-end is the operation `e2e`).
 */
export function latencyAddress(name: string): { operation: string; kind: LatencyKind } {
  if (name === "writerLag") return { operation: "write", kind: "writerLag" };
  const m = /^(.+)Scheduled$/.exec(name);
  return m ? { operation: m[1], kind: "fromSchedule" } : { operation: name, kind: "fromSend" };
}

/**
 * What one declared operation did in a sample's interval or a summary's measured window (workloads/types.ts
 * OperationDef). `count` counts items in the operation's own unit (messages, rows, requests, workflows; a batch
 * of 10 rows counts 10, its batches apart); `perSecond` is count over the real length of the interval or window.
 */
export const OperationFigures = z.object({
  count: z.number().int(),
  perSecond: z.number(),
  errors: z.number().int(),
  /** Payload bytes of the counted items, when the operation carries a payload. */
  bytes: z.number().int().optional(),
  /** Batches (transactions) the items went in, when counted apart. */
  batches: z.number().int().optional(),
  latency: OperationLatency,
  /** The operation's declared counters (OperationDef.counters: a read's emptyPolls), by key. */
  counters: z.record(z.string(), z.number()).optional(),
});
export type OperationFigures = z.infer<typeof OperationFigures>;
export const Operations = z.record(z.string(), OperationFigures);
export type Operations = z.infer<typeof Operations>;

/** One consumer group's operations (pub/sub fan-out; the queue's single "queue"), and in samples its backlog. */
export const GroupFigures = z.object({
  group: z.string(),
  operations: Operations,
  /** The group's own figures by name (a sample's backlog). */
  measures: z.record(z.string(), z.number()).optional(),
});
export type GroupFigures = z.infer<typeof GroupFigures>;

export const RUN_PHASES = ["setup", "warmup", "measuring", "draining", "verifying", "done"] as const;
export const Phase = z.enum(RUN_PHASES);
export type Phase = z.infer<typeof Phase>;

export const RUN_STATUSES = ["queued", "running", "completed", "failed", "cancelled", "interrupted"] as const;
export const RunStatus = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof RunStatus>;
export const FINAL_STATUSES: RunStatus[] = ["completed", "failed", "cancelled", "interrupted"];

/** MiB/s of payload bytes, as the reference (msg/s × payload / 2^20). */
export const mibPerSec = (msgPerSec: number, payloadBytes: number) => (msgPerSec * payloadBytes) / 1048576;
