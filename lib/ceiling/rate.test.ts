// What a ceiling search raises, per workload, from its field table.
import assert from "node:assert/strict";
import { test } from "node:test";
import { WorkloadConfig } from "../workloads/config";
import { rateKnob } from "./rate";

test("broker workloads raise their write limit and judge the writes; open-loop workloads their target rate and all requests", () => {
  const queue = rateKnob("queue")!;
  assert.equal(queue.paced, "write");
  assert.deepEqual(queue.fields, ["throttleWritesPerSec"]);
  const q = queue.set(WorkloadConfig.parse({ kind: "queue" }), 1234);
  assert.equal((q as { throttleWritesPerSec: number }).throttleWritesPerSec, 1234);
  assert.equal(WorkloadConfig.safeParse(q).success, true);

  const cache = rateKnob("cache")!;
  assert.equal(cache.paced, "total", "the rate paces all requests together");
  const c = cache.set(WorkloadConfig.parse({ kind: "cache" }), 800) as Record<string, unknown>;
  assert.deepEqual([c.load, c.rate], ["rate", 800], "a closed-loop config becomes open loop at the step's rate");
  assert.equal(WorkloadConfig.safeParse(c).success, true);

  const inserts = rateKnob("inserts")!;
  assert.deepEqual(inserts.fields, ["rate"], "an always-open-loop workload: its rate alone");
  const i = inserts.set(WorkloadConfig.parse({ kind: "inserts" }), 2500) as Record<string, unknown>;
  assert.equal(i.rate, 2500);
  assert.equal(WorkloadConfig.safeParse(i).success, true);
});
