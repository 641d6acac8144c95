// A closed loop whose virtual users mostly think: its rate is the think time's (VUs ÷ (think + answer)), and its
// pool connections idle because nobody asks, not because round trips limit it. "connection-bound: more
// connections would raise throughput" is the wrong advice there; the verdict says the think time offered the rate.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { testDatabase } from "../../lib/testing";
import type { Verdict } from "../../lib/telemetry/verdict";
import { WorkloadConfig, type WorkloadInput } from "../../lib/workloads/config";
import { runWorkload } from "../harness";

let db: { url: string; drop: () => Promise<void> };
before(async () => {
  db = await testDatabase("think_verdict");
});
after(async () => {
  await db.drop();
});

const explain = (v: Verdict) =>
  `${v.statement}\n${JSON.stringify(
    v.findings.filter((f) => f.evidence.length),
    null,
    1,
  )}`;

test("closed loop, 50 virtual users thinking 500 ms on a pool of 10: rate-bound by the think time, not connection-bound", async (t) => {
  const input = { kind: "cache", vus: 50, thinkMs: 500, pool: 10, keys: 200, durationSeconds: 4, warmupSeconds: 1 } as WorkloadInput;
  const summary = await runWorkload(WorkloadConfig.parse(input), db.url, { drainSeconds: 2 });
  const v = summary.telemetry!.verdict;
  t.diagnostic(v.statement);
  assert.notEqual(v.category, "connection-bound", explain(v));
  assert.doesNotMatch(v.statement, /more connections/, explain(v));
  const idle = v.findings.find((f) => f.category === "connection-bound")!;
  assert.equal(idle.matched, false, explain(v));
  // 50 users × 1,000 / 500 ms: at most 100 req/s offered; answers of a few ms leave the run at about 99% of it.
  assert.equal(v.category, "rate-bound", explain(v));
  assert.match(v.statement, /think time/);
  assert.match(v.statement, /100 req\/s/);
});
