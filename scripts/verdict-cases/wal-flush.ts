// WAL-flush-bound: unthrottled single-row queue commits on a server where every commit waits for a real flush
// with a 10 ms group-commit delay (removing the delay roughly doubles the rate).
import { WorkloadConfig } from "../../lib/workloads/config";
import { runWorkload } from "../../runner/harness";
import { type EvidenceCase, SLOW_FLUSH, withServerSettings } from "./_evidence";

export default {
  name: "wal-flush",
  provoked: "queue, 8 writers, 2 readers, unthrottled, 10 s, with fsync on, synchronous_commit on, commit_delay = 10 ms, commit_siblings = 0",
  expected: ["wal-flush-bound"],
  run: ({ targetUrl, log }) =>
    withServerSettings(targetUrl, SLOW_FLUSH, log, (url) =>
      runWorkload(WorkloadConfig.parse({ kind: "queue", writers: 8, readers: 2, durationSeconds: 10, warmupSeconds: 1 }), url, { log, drainSeconds: 2 }),
    ),
} satisfies EvidenceCase;
