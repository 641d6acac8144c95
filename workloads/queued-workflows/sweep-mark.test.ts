// The queues sweep on a real run (the embedded Postgres): a point whose enqueuers missed the rate asked is marked
// MISSED, with by how much and who fell behind, and the run's own notes say it in the workload's words.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { testDatabase } from "../../lib/testing";
import { WorkloadConfig } from "../../lib/workloads/config";
import { runWorkload } from "../../runner/harness";
import { sweepText } from "./sweep";

let db: { url: string; drop: () => Promise<void> };
before(async () => {
  db = await testDatabase("qw_sweep_mark");
});
after(async () => {
  await db.drop();
});

test("the queues sweep marks a point whose enqueuers missed the rate asked, and who fell behind", async (t) => {
  // One enqueuer asked for 20,000 workflows/s: far beyond what it reaches on any machine this runs on.
  const config = WorkloadConfig.parse({
    kind: "queued-workflows",
    enqueuers: 1,
    workers: 2,
    throttleWritesPerSec: 20_000,
    durationSeconds: 3,
    warmupSeconds: 1,
  });
  const summary = await runWorkload(config, db.url, { drainSeconds: 2 });
  const text = sweepText([{ value: 1, summary }]);
  t.diagnostic(text);
  assert.match(text.split("\n")[2], /MISSED/);
  assert.match(text, /queues 1: missed: \d+% of 20,000 workflow\/s; the enqueuers fell behind \(up to [\d.]+ s behind schedule\)/);
  // The run's own notes say it in the workload's words: enqueuers and workflows, not writers and messages.
  const notes = summary.notes ?? [];
  const behind = notes.find((n) => /behind schedule/.test(n));
  assert.match(behind ?? "", /^enqueues were [\d.]+ s behind schedule .*\(enqueuers did not keep up with the 20,000 workflow\/s throttle/, notes.join("\n"));
  assert.ok(!notes.some((n) => /\bmsg\b|partition/.test(n)), notes.join("\n"));
});
