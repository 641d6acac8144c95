// A ceiling step's failures in the paced operation's own unit: an inserts step that missed its rate said
// "achieved … msg/s of the … msg/s target (… one 10-message batch allowed)" of rows, which are not messages.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Sample } from "../measurement/sample";
import { testDatabase } from "../testing";
import { WorkloadConfig } from "../workloads/config";
import { runWorkload } from "../../runner/engine";
import { stepFacts } from "./facts";
import { parseSlo } from "./slo";
import { judgeStep } from "./verdict";

let db: { url: string; drop: () => Promise<void> };
before(async () => {
  db = await testDatabase("step_words");
});
after(async () => db.drop());

test("an inserts step that missed its rate says rows, not messages", async () => {
  // Far beyond one connection of sequential inserts on this machine: the step misses its rate.
  const rate = 200_000;
  const config = WorkloadConfig.parse({ kind: "inserts", rate, connections: 1, batchSize: 10, durationSeconds: 2, warmupSeconds: 0 });
  const samples: Pick<Sample, "phase" | "metrics">[] = [];
  const summary = await runWorkload(config, db.url, { drainSeconds: 1, onSample: (s) => void samples.push({ phase: s.phase, metrics: s.metrics }) });
  const facts = stepFacts(summary, samples, rate, { name: "write", label: "insert" }, null);
  const goal = parseSlo("p99<10s");
  assert.ok(goal.ok);
  const v = judgeStep(facts, goal.slo);
  const miss = v.failures.find((f) => f.condition === "rate");
  assert.ok(miss, `the situation: the step misses ${rate} rows/s (${JSON.stringify(v.failures)})`);
  assert.match(miss.message, /row\/s of the 200,000 row\/s target/, miss.message);
  assert.doesNotMatch(miss.message, /msg|message/, miss.message);
});
