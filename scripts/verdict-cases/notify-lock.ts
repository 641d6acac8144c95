// NOTIFY-lock-bound: every publish's commit NOTIFYs (notify, modded: a trigger calls pg_notify), so commits
// serialize on the one lock NOTIFY takes from before the commit record to after its flush; the flush is made
// slow (10 ms group-commit delay) so the lock, not the flush, is what the others wait on.
import { WorkloadConfig } from "../../lib/workloads/config";
import { runWorkload } from "../../runner/harness";
import { type EvidenceCase, SLOW_FLUSH, withServerSettings } from "./_evidence";

export default {
  name: "notify-lock",
  provoked: "notify (modded: LISTEN + a pg_notify trigger), 40 publisher VUs, no think time, 10 s, with fsync on and commit_delay = 10 ms",
  expected: ["lock-contention-bound"],
  run: ({ targetUrl, log }) =>
    withServerSettings(targetUrl, SLOW_FLUSH, log, (url) =>
      runWorkload(WorkloadConfig.parse({ kind: "notify", variant: "modded", vus: 40, thinkMs: 0, durationSeconds: 10, warmupSeconds: 1 }), url, {
        log,
        drainSeconds: 2,
      }),
    ),
} satisfies EvidenceCase;
