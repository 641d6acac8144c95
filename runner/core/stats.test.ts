// A declared operation's counters and latencies, per second and over the measured window (./stats.ts), and an
// operation timing itself (./operation.ts).
import assert from "node:assert/strict";
import { test } from "node:test";
import { mibPerSec } from "../../lib/measurement/metrics";
import { SampleMetrics } from "../../lib/measurement/sample";
import { throughputOf, latencyOf } from "../../lib/measurement/operations";
import type { Slot } from "./pacing";
import { RunStats } from "./stats";

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
  // No name is reserved: the broker's write is an operation like any other, and a per-group one is per group only.
  assert.equal(stats.op("write").name, "write");
  assert.equal(stats.perGroup("read").length, 1);
  assert.throws(() => stats.op("read"), /per-group operation/);
  assert.throws(() => stats.perGroup("get"), /run-wide operation/);
});

/** The broker's operations as its workloads declare them (workloads/runtime.ts brokerOperations). */
function broker(stats: RunStats) {
  const write = stats.op("write");
  const read = stats.perGroup("read", { counters: ["emptyPolls"], drains: { operation: "write", idle: "emptyPolls" } });
  return { write, read };
}

test("an operation times itself: from its send to its answer, and through the pacer's slot from its schedule", async () => {
  let now = 0;
  const stats = new RunStats([], 0, () => now);
  const write = stats.op("write");
  const slots: [number, number][] = [];
  const slot = { answered: (sent: number, done: number) => void slots.push([sent, done]) } as unknown as Slot;
  const sent = write.send();
  await new Promise((r) => setTimeout(r, 20));
  const done = write.answered(sent, 4, slot);
  assert.ok(done - sent >= 15, `${done - sent} ms`);
  assert.deepEqual(slots, [[sent, done]], "the slot is told the send and the answer, for the latency from schedule");
  write.failed(2);
  assert.deepEqual([write.total.count, write.total.errors], [4, 2]);
  now += 1000;
  const sample = stats.tick("measuring");
  assert.equal(sample.operations.write.count, 4);
  assert.equal(sample.operations.write.latency.fromSend?.count, 1);
  assert.ok((sample.operations.write.latency.fromSend?.p50 ?? 0) >= 15);
  // Timed only (a claim): a latency, never a count of its own.
  const claim = stats.op("claim", { counted: false });
  claim.timed(claim.send());
  now += 1000;
  assert.equal(stats.tick("measuring").operations.claim.count, 1, "counted by its latency samples");
});

test("the pacer's schedule latency lands on the paced operation: <op>Scheduled, and the writer lag beside it", () => {
  let now = 0;
  const stats = new RunStats([], 0, () => now);
  stats.op("workflow").done();
  stats.recordScheduled(10, 12, 15, undefined, "workflow");
  stats.recordScheduled(10, 11, 14, 250);
  now += 1000;
  const ops = stats.tick("measuring").operations;
  assert.equal(ops.workflow.latency.fromSchedule?.count, 1);
  assert.equal(ops.write.latency.fromSchedule?.count, 1, "the write by default");
  assert.equal(ops.write.latency.writerLag?.count, 1);
  assert.equal(stats.recordScheduled(20, 19, 25), undefined);
  assert.equal(stats.sentEarly, 1, "sent before its due time: counted, never a latency");
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
  const { write, read } = broker(stats);
  // Two write transactions of 100 messages; g0 polls 150 then 50, g1 polls 200 at once.
  write.done(100);
  write.done(100);
  read[0].done(150);
  read[0].done(50);
  read[1].done(200);
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
  for (let i = 0; i < 3; i++) write.done(1, i === 0 ? 1 : 0);
  now += 1000;
  stats.tick("measuring");
  const w = stats.windowFigures(2);
  assert.equal(w.operations.write.count, 203);
  assert.equal(w.operations.write.batches, 3, "the measured window's write batches: two transactions and one insert batch");
  assert.equal(w.operations.read.batches, 3);
});
