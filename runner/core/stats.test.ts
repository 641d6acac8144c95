// A declared operation's counters and latencies, per second and over the measured window (./stats.ts).
import assert from "node:assert/strict";
import { test } from "node:test";
import { mibPerSec } from "../../lib/measurement/metrics";
import { SampleMetrics } from "../../lib/measurement/sample";
import { RunStats } from "./stats";
import { throughputOf, latencyOf } from "../../lib/measurement/operations";

test("a declared operation is counted and timed by its name: per second, and over the measured window only", () => {
  let now = 0;
  const stats = new RunStats(["g0"], 100, () => now);
  const get = stats.op("get");
  assert.equal(stats.op("get"), get, "one counter per name");
  get.done(3);
  get.failed();
  get.latency.record(2000);
  get.latency.record(4000);
  now += 1000;
  const first = SampleMetrics.parse(stats.tick("measuring"));
  assert.deepEqual(throughputOf(first, "get"), { count: 3, perSecond: 3, mibPerSec: mibPerSec(3, 100), errors: 1 });
  assert.equal(latencyOf(first, "get")?.count, 2);
  get.done(5);
  now += 500;
  const drain = stats.tick("draining");
  assert.equal(throughputOf(drain, "get")!.perSecond, 10, "5 in half a second");
  assert.equal(latencyOf(drain, "get"), undefined, "no latency recorded that interval");
  assert.deepEqual([get.measured.count, get.measured.errors, get.total.count], [3, 1, 8], "the drain is not in the measured window");
  assert.equal(stats.cumulative("get").totalCount, 2);
  assert.throws(() => stats.op("read"), /broker's own counters/);
});

test("without declared operations a sample has no rates field (pub/sub and queue samples are as before)", () => {
  let now = 0;
  const stats = new RunStats(["g0"], 100, () => now);
  now += 1000;
  assert.equal("rates" in stats.tick("measuring"), false);
});

test("batches are counted apart where items go in batches: pub/sub's write transactions and polls, an insert batch's rows", () => {
  let now = 0;
  const stats = new RunStats(["g0", "g1"], 100, () => now);
  // Two write transactions of 100 messages; g0 polls 150 then 50, g1 polls 200 at once.
  stats.wrote(100);
  stats.wrote(100);
  stats.groups[0].read(150);
  stats.groups[0].read(50);
  stats.groups[1].read(200);
  // A declared operation done in batches (a search's rows of two queries), and one done an item a call.
  stats.op("rows").done(7);
  stats.op("rows").done(3);
  stats.op("get").done();
  stats.op("get").done();
  now += 1000;
  const sample = SampleMetrics.parse(stats.tick("measuring"));
  assert.equal(sample.operations.write.count, 200);
  assert.equal(sample.operations.write.batches, 2);
  assert.equal(sample.operations.read.count, 400);
  assert.equal(sample.operations.read.batches, 3, "pub/sub reads sum the groups' polls");
  assert.equal(sample.groups?.find((g) => g.group === "g1")?.operations.read.batches, 1);
  assert.equal(sample.operations.rows.batches, 2);
  assert.equal(sample.operations.get.batches, undefined, "an item a call: no batches counted apart");
  // An insert benchmark's batch of 3 rows, each its own transaction: the batch counted with its first row.
  for (let i = 0; i < 3; i++) stats.wrote(1, i === 0 ? 1 : 0);
  now += 1000;
  stats.tick("measuring");
  const w = stats.windowFigures(2);
  assert.equal(w.operations.write.count, 203);
  assert.equal(w.operations.write.batches, 3, "the measured window's write batches: two transactions and one insert batch");
  assert.equal(w.operations.read.batches, 3);
});
