// A closed loop whose virtual users mostly think: its rate is the think time's (VUs ÷ (think + answer)), and its
// pool connections idle because nobody asks, not because round trips limit it. "connection-bound: more
// connections would raise throughput" is the wrong advice there; the verdict says the think time offered the rate.
import { explainVerdict } from "../../lib/telemetry/testing";
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { windowOf } from "../../lib/telemetry/testing";
import { testDatabase } from "../../lib/testing";
import { type Verdict, verdictOf } from "../../lib/telemetry/verdict";
import { WorkloadConfig, type WorkloadInput } from "../../lib/workloads/config";
import { runWorkload } from "../harness";

let db: { url: string; drop: () => Promise<void> };
before(async () => {
  db = await testDatabase("think_verdict");
});
after(async () => {
  await db.drop();
});

const explain = explainVerdict;

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

test("the think time's share decides: users thinking 80% of the time are not a round-trip limit; thinking 20% may be", () => {
  // 50 users thinking 500 ms offer 100 req/s. Connections idle 90%, the runner quiet.
  const spec = { kind: "closed-loop" as const, unit: "req", operation: "total", label: "all requests", backlog: false };
  const offered = { perSec: 100, virtualUsers: 50, thinkMs: 500 };
  const telemetry = windowOf({ host: undefined, client: { cpuPct: 20, eventLoopUtilization: 0.2, eventLoopDelayMaxMs: 2 } });
  const judged = (achievedPerSec: number) => verdictOf({ telemetry, pace: { spec: { ...spec, offered }, achievedPerSec } });
  const idle = (x: Verdict) => x.findings.find((f) => f.category === "connection-bound")!;
  // 80 req/s of 100: answers took a fifth of each cycle, the users still thought 80% of the time.
  const thinking = judged(80);
  assert.equal(idle(thinking).matched, false, explain(thinking));
  assert.notEqual(thinking.category, "rate-bound", "80% of the offered rate is not the offered rate met");
  // 20 req/s of 100: the users mostly waited for answers while the connections idled: round trips.
  const waiting = judged(20);
  assert.equal(idle(waiting).matched, true, explain(waiting));
  // Without think time a closed loop has no offered rate and the rule stands as before.
  assert.equal(idle(verdictOf({ telemetry, pace: { spec, achievedPerSec: 80 } })).matched, true);
});
