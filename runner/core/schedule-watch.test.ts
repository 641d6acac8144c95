// The notes a throttled run gets when its writers fall behind schedule or catch up over the limit
// (./schedule-watch.ts).
import assert from "node:assert/strict";
import { test } from "node:test";
import { BEHIND_SCHEDULE_NOTE_SECONDS, ScheduleWatch } from "./schedule-watch";

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
