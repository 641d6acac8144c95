// An open-loop inserts run at a modest rate this machine meets with room to spare: rate-bound.
import { WorkloadConfig } from "../../lib/workloads/config";
import { runWorkload } from "../../runner/harness";
import type { VerdictCase } from "./_case";

export default {
  name: "met-rate-open-loop",
  provoked: "inserts on an open loop at 200 rows/s (batches of 10, 4 connections), 8 s: a rate the target meets",
  expected: ["rate-bound"],
  run: ({ targetUrl, log }) =>
    runWorkload(WorkloadConfig.parse({ kind: "inserts", rate: 200, connections: 4, batchSize: 10, durationSeconds: 8, warmupSeconds: 1 }), targetUrl, {
      log,
      drainSeconds: 2,
    }),
} satisfies VerdictCase;
