// A queue with eight unthrottled writers and a single reader: the backlog grows all through the window.
import { WorkloadConfig } from "../../lib/workloads/config";
import { runWorkload } from "../../runner/harness";
import type { VerdictCase } from "./_case";

export default {
  name: "consumers-behind",
  provoked: "queue, 8 unthrottled writers and 1 reader, 8 s: the one reader cannot keep up",
  expected: ["consumers-behind"],
  run: ({ targetUrl, log }) =>
    runWorkload(WorkloadConfig.parse({ kind: "queue", writers: 8, readers: 1, durationSeconds: 8, warmupSeconds: 1 }), targetUrl, { log, drainSeconds: 2 }),
} satisfies VerdictCase;
