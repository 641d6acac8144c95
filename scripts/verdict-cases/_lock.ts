// A throttled queue run whose table another session locks (LOCK TABLE … IN ACCESS EXCLUSIVE MODE) for a while,
// 4 s into the measured window: writers and readers wait on the lock, then catch up. Shared by lock-2s and
// lock-3s-named.
import pg from "pg";
import { WorkloadConfig } from "../../lib/workloads/config";
import { runWorkload } from "../../runner/harness";
import type { VerdictCase } from "./_case";

const LOCK_AT_MS = 4000;

export function lockCase(name: string, lockForMs: number, locker: { applicationName?: string; mentions?: RegExp[] } = {}): VerdictCase {
  return {
    name,
    provoked: `queue at 200 msg/s, 10 s; another session${locker.applicationName ? ` ("${locker.applicationName}")` : ""} holds LOCK TABLE queue IN ACCESS EXCLUSIVE MODE for ${lockForMs / 1000} s from ${LOCK_AT_MS / 1000} s into the window`,
    expected: ["stall"],
    ...(locker.mentions ? { mentions: locker.mentions } : {}),
    async run({ targetUrl, log }) {
      const client = new pg.Client({ connectionString: targetUrl, ...(locker.applicationName ? { application_name: locker.applicationName } : {}) });
      await client.connect();
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
                client
                  .query(`BEGIN; LOCK TABLE "${schema}".queue IN ACCESS EXCLUSIVE MODE`)
                  .then(() => new Promise((r) => setTimeout(r, lockForMs)))
                  .then(() => client.query("COMMIT"))
                  .then(() => resolve(), reject);
              }, LOCK_AT_MS),
            );
          },
        });
        await locked;
        return summary;
      } finally {
        await client.end();
      }
    },
  };
}
