// The notes a throttled run gets when its writers fall behind schedule or catch up over the limit; a declared
// operation's counters.
import assert from "node:assert/strict";
import { test } from "node:test";
import { mibPerSec } from "../lib/measurement/metrics";
import { SampleMetrics } from "../lib/measurement/sample";
import { BEHIND_SCHEDULE_NOTE_SECONDS, RunStats, ScheduleWatch } from "./stats";
import type { Slot } from "./pacing";
import { throughputOf, latencyOf } from "../lib/measurement/operations";

/** A watch of a 1,000 msg/s throttle with 4 writers of batch 1 (slack 5 messages), fed whole-second intervals.
 *  A second is "above the limit" from 1,000 × 1.05 + 5 = 1,055 messages on. */
function watch(intervals: [behindMs: number, written: number][], sec = 1) {
  const w = new ScheduleWatch(1000, 5);
  for (const [behind, written] of intervals) w.interval(behind, written, sec);
  return w;
}

test("on schedule: no note (write latency, batch rounding and a few ms of pause caught up are not worth one)", () => {
  const w = watch([
    [3, 1000],
    [2, 1004],
    [4, 996],
    [2, 1040],
  ]);
  assert.deepEqual(w.notes(12, 4040, 4), []);
});

test("behind at the end of the window: how far, the most during it, the throttle and the achieved rate", () => {
  const w = watch([
    [900, 120],
    [1900, 110],
    [2900, 115],
  ]);
  assert.deepEqual(w.notes(2800, 345, 3), [
    "writes were 2.90 s behind schedule when the measured window ended, up to 2.90 s during it (writers did not keep up with the 1,000 msg/s throttle: 115 msg/s achieved, 12% of it)",
  ]);
});

test("behind mid-window, caught up by the end: one note for the lag, one for the rate above the limit", () => {
  const w = watch([
    [2, 1000],
    [1000, 0],
    [3, 2000],
    [2, 1000],
  ]);
  // The write that waited out the stall ended 1.2 s late, between two ticks: the histogram's max counts.
  const notes = w.notes(1200, 4000, 4);
  assert.deepEqual(notes, [
    "writes fell up to 1.20 s behind schedule during the measured window and caught up by its end (writers stalled or slowed, then went faster than the throttle)",
    "writes ran above the 1,000 msg/s throttle: peak 2,000 msg/s over 1.0 s, 1,000 msg/s over the measured window (writers caught up after falling up to 1.20 s behind schedule)",
  ]);
});

test("a window that starts behind and catches up averages above the limit, and says so", () => {
  const w = watch([
    [1500, 2500],
    [2, 1000],
  ]);
  const notes = w.notes(1500, 3500, 2);
  assert.equal(notes.length, 2);
  assert.match(notes[1], /^writes ran above the 1,000 msg\/s throttle: peak 2,500 msg\/s over 1\.0 s, 1,750 msg\/s over the measured window/);
});

test("the threshold: just under it is no note, just over it is", () => {
  const under = BEHIND_SCHEDULE_NOTE_SECONDS * 1000 - 1;
  assert.deepEqual(watch([[under, 1000]]).notes(under, 1000, 1), []);
  assert.equal(watch([[under + 2, 1000]]).notes(0, 1000, 1).length, 1);
});

test("a short last interval is not quoted as a peak rate (6 messages in 3 ms are not 2,000 msg/s)", () => {
  const w = new ScheduleWatch(1000, 5);
  w.interval(2, 1000, 1);
  w.interval(2, 6, 0.003);
  assert.deepEqual(w.notes(3, 1006, 1.003), []);
});

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

test("the throttle not reached while on schedule (failed writes): a note with the rate and its share of the throttle", () => {
  const w = watch(Array(4).fill([0, 800]));
  assert.deepEqual(w.notes(3, 3200, 4), [
    "writes reached 800 msg/s over the measured window, 80% of the 1,000 msg/s throttle (under 95% of it, and not for being behind schedule at the window's end: failed writes are not retried, and count against it)",
  ]);
  // Within 5%: no note.
  assert.deepEqual(watch(Array(20).fill([0, 960])).notes(3, 19_200, 20), []);
  // More than 5% short, but less than half a second of the schedule (a short window): noise, no note.
  assert.deepEqual(watch([[0, 800]]).notes(3, 800, 1), []);
});

test("one writer of four behind its own share while the others kept theirs: named, with how far", () => {
  const w = new ScheduleWatch(1000, 5);
  w.interval(0, 1000, 1, [0, 0, 0, 0]);
  w.interval(1500, 1000, 1, [1500, 0, 0, 0]);
  w.interval(0, 1000, 1, [1480, 0, 0, 0]);
  const notes = w.notes(1500, 3000, 3);
  assert.equal(notes.length, 2, notes.join("\n"));
  assert.match(notes[0], /^writes fell up to 1\.50 s behind schedule/);
  assert.match(notes[1], /^writer 0 fell up to 1\.50 s behind its own share of the schedule \(250 msg\/s each\) while the other writers kept theirs/);
  // Every writer behind alike: the schedule's notes say it, no per-writer note.
  const all = new ScheduleWatch(1000, 5);
  all.interval(1500, 0, 1, [1500, 1500, 1500, 1500]);
  all.interval(0, 2000, 1, [0, 0, 0, 0]);
  assert.ok(all.notes(1500, 2000, 2).every((n) => !/own share/.test(n)));
});

test("the schedule's notes speak of the throttled operation's own items: workflows, not messages or partitions", () => {
  // Queued workflows' enqueuers under a 1,000 workflows/s throttle: one fell behind its share, all fell short.
  const w = new ScheduleWatch(1000, 5, { unit: "workflow", items: "enqueues", doers: "enqueuers" });
  w.interval(600, 700, 1, [1500, 0]);
  w.interval(1200, 700, 1, [2500, 0]);
  const notes = w.notes(1200, 1400, 2);
  assert.ok(notes.length >= 2, notes.join("\n"));
  assert.match(notes[0], /did not keep up with the 1,000 workflow\/s throttle: 700 workflow\/s achieved/);
  assert.ok(
    notes.some((n) => /500 workflow\/s each/.test(n)),
    notes.join("\n"),
  );
  for (const n of notes) assert.doesNotMatch(n, /msg\/s|partition/);
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
