// A run that missed the rate it was asked for says so in its headline statement, whatever the headline. Queued
// workflows at 10,000/s with one worker of one executor on this machine: the completions fall behind (consumers
// behind, the headline) and the enqueuers reach a fraction of the rate asked. The statement named the backlog
// and the rate written, never that the enqueuers missed the 10,000/s asked.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { testDatabase } from "../../lib/testing";
import { WorkloadConfig } from "../../lib/workloads/config";
import { runWorkload } from "../harness";

let db: { url: string; drop: () => Promise<void> };
before(async () => {
  db = await testDatabase("missed_words");
});
after(async () => {
  await db.drop();
});

test("consumers behind and the rate asked missed: the statement says both", async (t) => {
  const config = WorkloadConfig.parse({
    kind: "queued-workflows",
    throttleWritesPerSec: 10000,
    workers: 1,
    executors: 1,
    durationSeconds: 6,
    warmupSeconds: 1,
  });
  const summary = await runWorkload(config, db.url, { drainSeconds: 2 });
  const v = summary.telemetry!.verdict;
  t.diagnostic(v.statement);
  const behind = v.findings.find((f) => f.category === "behind-schedule")!;
  assert.ok(behind.matched, `the situation: the enqueuers must miss 10,000/s (${v.statement})`);
  assert.ok(v.category !== "behind-schedule", `the situation: another headline (${v.category})`);
  assert.match(v.statement, /of the 10,000 workflow\/s asked/, v.statement);
});
