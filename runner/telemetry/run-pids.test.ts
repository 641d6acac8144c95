// The run's connections, as the verdict's shares count them, are the ones that carry its load. The engine's admin
// connection sets the schema up and verifies after; through the measured window it sits idle. Counted among the
// run's, it added an always-idle backend: with one writer and one reader a third of every reading was "waiting
// on the client", pulling the active share under the server-side rules' 30 % and pushing toward connection-bound.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { testDatabase } from "../../lib/testing";
import { WorkloadConfig } from "../../lib/workloads/config";
import { runWorkload } from "../harness";

let db: { url: string; drop: () => Promise<void> };
before(async () => {
  db = await testDatabase("run_pids");
});
after(async () => {
  await db.drop();
});

test("the run's connections are its load's: one writer and one reader are two, not three with the idle admin", async () => {
  const config = WorkloadConfig.parse({ kind: "queue", writers: 1, readers: 1, durationSeconds: 3, warmupSeconds: 1 });
  const summary = await runWorkload(config, db.url, { drainSeconds: 2 });
  const w = summary.telemetry?.window;
  assert.ok(w, "the summary carries the telemetry window");
  assert.ok(Math.abs(w.runConnections - 2) < 0.05, `the run's connections per reading: ${w.runConnections}`);
});
