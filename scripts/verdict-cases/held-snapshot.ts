// A held snapshot: another session opens a REPEATABLE READ transaction before a throttled queue run and leaves
// it idle for the whole run; the rows the readers delete stay as dead tuples every dequeue steps over.
import pg from "pg";
import { WorkloadConfig } from "../../lib/workloads/config";
import { runWorkload } from "../../runner/harness";
import type { VerdictCase } from "./_case";

export default {
  name: "held-snapshot",
  provoked:
    "queue at 1,000 msg/s (2 writers, 2 readers), 15 s, beside a transaction (REPEATABLE READ, idle in transaction) opened before it and held to its end",
  expected: ["held-snapshot"],
  mentions: [/pid \d+, application "pgbb-verdict-holder", idle in transaction/, /idle_in_transaction_session_timeout/],
  async run({ targetUrl, log }) {
    const holder = new pg.Client({ connectionString: targetUrl, application_name: "pgbb-verdict-holder" });
    await holder.connect();
    try {
      await holder.query("BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT count(*) FROM pg_class");
      const config = WorkloadConfig.parse({ kind: "queue", writers: 2, readers: 2, throttleWritesPerSec: 1000, durationSeconds: 15, warmupSeconds: 1 });
      return await runWorkload(config, targetUrl, { log, drainSeconds: 2 });
    } finally {
      await holder.end();
    }
  },
} satisfies VerdictCase;
