// Per-message round trips: pub/sub whose one reader claims one message at a time against 8,000 msg/s written in
// batches of 100; its round trips set its pace (a read batch of 100 keeps up at the same load).
import { WorkloadConfig } from "../../lib/workloads/config";
import { runWorkload } from "../../runner/harness";
import type { VerdictCase } from "./_case";

/** The shape of the case, without its length (runner/telemetry/causes-runs.test.ts runs it for 6 s). */
export const READ_BATCH_ONE = {
  kind: "pubsub",
  partitions: 1,
  consumerGroups: 1,
  writers: 2,
  writeBatch: 100,
  readBatch: 1,
  throttleWritesPerSec: 8000,
  warmupSeconds: 1,
} as const;

export default {
  name: "read-batch-1",
  provoked: "pubsub, 1 partition, 1 group, 2 writers (batches of 100) at 8,000 msg/s, read batch 1, 8 s: the reader's round trips cannot keep up",
  expected: ["consumers-behind", "connection-bound"],
  mentions: [/the readers' round trips set their pace/, /--read-batch/],
  run: ({ targetUrl, log }) => runWorkload(WorkloadConfig.parse({ ...READ_BATCH_ONE, durationSeconds: 8 }), targetUrl, { log, drainSeconds: 2 }),
} satisfies VerdictCase;
