// A CPU hog beside the runner: six busy loops and the runner pinned to one CPU, a default pub/sub run. The
// runner gets a small share of that CPU: host-bound (other processes' CPU), or client-bound when the runner was
// at its limit, whichever the numbers show (a runner only starved is the headline's caution on the latencies,
// no category); the hogs' CPU as this case reads it is logged beside.
import { WorkloadConfig } from "../../lib/workloads/config";
import { runWorkload } from "../../runner/harness";
import { type EvidenceCase, withCpuHogs } from "./_evidence";

export default {
  name: "cpu-hog",
  provoked: "pubsub with its defaults, 10 s, while six busy-loop processes (pgbb-hog) share CPU 0 with the runner pinned there",
  expected: ["host-bound", "client-bound"],
  run: ({ targetUrl, log }) =>
    withCpuHogs(6, log, async (hogCores) => {
      const summary = await runWorkload(WorkloadConfig.parse({ kind: "pubsub", durationSeconds: 10, warmupSeconds: 1 }), targetUrl, { log, drainSeconds: 2 });
      log(`the hogs used ${hogCores().toFixed(2)} cores over the run (read from /proc by this case)`);
      return summary;
    }),
} satisfies EvidenceCase;
