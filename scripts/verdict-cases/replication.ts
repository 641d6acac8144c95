// replication-bound: unthrottled single-row queue commits on a primary whose synchronous standby is reached through
// a relay adding 5 ms each way (platform/replicated.ts, FIRST 1 (pg2, pg3)): every commit waits a round trip for pg2
// (IPC:SyncRep), as cross-zone standbys make it wait. Its own cluster in a temporary folder: the target given is not used.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { WorkloadConfig } from "../../lib/workloads/config";
import { startReplicated } from "../../platform/replicated";
import { runWorkload } from "../../runner/harness";
import type { VerdictCase } from "./_case";

export default {
  name: "replication",
  provoked: "queue, 8 writers, 2 readers, unthrottled, 10 s, on a primary with two standbys (FIRST 1 (pg2, pg3)) each 5 ms away each way",
  expected: ["replication-bound"],
  mentions: [/IPC:SyncRep/, /pg2 was the synchronous standby/],
  run: async ({ log }) => {
    const home = mkdtempSync(path.join(os.tmpdir(), "pgbb-verdict-repl-"));
    chmodSync(home, 0o755);
    const cluster = await startReplicated({ home, replicas: 2, replicaDelayMs: 5 });
    try {
      log(`relay: ${cluster.delay?.addedOneWayMs} ms added each way`);
      const config = WorkloadConfig.parse({ kind: "queue", writers: 8, readers: 2, durationSeconds: 10, warmupSeconds: 1 });
      return await runWorkload(config, cluster.primary.url("postgres"), { log, drainSeconds: 2 });
    } finally {
      await cluster.stop();
      rmSync(home, { recursive: true, force: true });
    }
  },
} satisfies VerdictCase;
