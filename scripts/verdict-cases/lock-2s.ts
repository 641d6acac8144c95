// A throttled queue run whose table another session locks for 2 s, 4 s into the measured window: writers and
// readers wait on the lock, then catch up.
import pg from "pg";
import { WorkloadConfig } from "../../lib/workloads/config";
import { runWorkload } from "../../runner/harness";
import type { VerdictCase } from "./_case";

const LOCK_AT_MS = 4000;
const LOCK_FOR_MS = 2000;

export default {
  name: "lock-2s",
  provoked: `queue at 200 msg/s, 10 s; another session holds LOCK TABLE queue for ${LOCK_FOR_MS / 1000} s from ${LOCK_AT_MS / 1000} s into the window`,
  expected: ["stall"],
  async run({ targetUrl, log }) {
    const locker = new pg.Client({ connectionString: targetUrl });
    await locker.connect();
    let schema = "";
    let locked: Promise<void> = Promise.resolve();
    try {
      const config = WorkloadConfig.parse({ kind: "queue", writers: 2, readers: 2, throttleWritesPerSec: 200, durationSeconds: 10, warmupSeconds: 1 });
      const summary = await runWorkload(config, targetUrl, {
        log,
        drainSeconds: 2,
        onSchema: (s) => (schema = s),
        onPhase: (p) => {
          if (p !== "measuring") return;
          locked = new Promise((resolve, reject) =>
            setTimeout(() => {
              locker
                .query(`BEGIN; LOCK TABLE "${schema}".queue IN ACCESS EXCLUSIVE MODE`)
                .then(() => new Promise((r) => setTimeout(r, LOCK_FOR_MS)))
                .then(() => locker.query("COMMIT"))
                .then(() => resolve(), reject);
            }, LOCK_AT_MS),
          );
        },
      });
      await locked;
      return summary;
    } finally {
      await locker.end();
    }
  },
} satisfies VerdictCase;
