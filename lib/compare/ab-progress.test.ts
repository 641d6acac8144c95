// An A/B set's progress and time left, from its runs' own times: measured durations of the finished runs, the
// running run's elapsed time, the planned load of the runs to come and the overhead measured on the finished ones.
import assert from "node:assert/strict";
import { test } from "node:test";
import { type AbProgressRun, abProgress } from "./ab-progress";

const T0 = Date.parse("2026-11-28T06:00:00Z");
const at = (s: number) => new Date(T0 + s * 1000).toISOString();
/** A run of the quick look's shape: 2 s warm-up + 10 s measured = 12 s of planned load. */
const run = (status: string, started: number | null = null, finished: number | null = null): AbProgressRun => ({
  status,
  startedAt: started === null ? null : at(started),
  finishedAt: finished === null ? null : at(finished),
  config: { warmupSeconds: 2, durationSeconds: 10 },
});

test("before any run ends: runs done of total, and a time left that is the planned load only, said to be a lower bound", () => {
  const p = abProgress([run("running", 0), run("queued"), run("queued"), run("queued")], T0 + 4_000);
  assert.equal(p.done, 0);
  assert.equal(p.total, 4);
  // 12 − 4 s of the running run, then 3 × 12 s.
  assert.equal(p.leftSeconds, 44);
  assert.equal(p.leftIsLowerBound, true);
  assert.equal(p.overheadSeconds, null);
  assert.equal(p.fraction, 4 / 48);
});

test("after a run ends, what it took beyond its load is measured and added to each run to come", () => {
  // Run 1 took 15 s for 12 s of load: 3 s of set-up, drain and verifying. Run 2 has run 5 s.
  const p = abProgress([run("completed", 0, 15), run("running", 15.5), run("queued"), run("queued")], T0 + 20_500);
  assert.equal(p.done, 1);
  assert.equal(p.overheadSeconds, 3);
  // (12 + 3 − 5) + 2 × (12 + 3) = 40 s left, 15 + 5 = 20 s spent.
  assert.equal(p.leftSeconds, 40);
  assert.equal(p.leftIsLowerBound, false);
  assert.equal(p.spentSeconds, 20);
  assert.equal(p.fraction, 20 / 60);
  // The bar advances as the running run's clock runs: 2 s later, 22 of 60.
  const later = abProgress([run("completed", 0, 15), run("running", 15.5), run("queued"), run("queued")], T0 + 22_500);
  assert.equal(later.leftSeconds, 38);
  assert.ok(later.fraction > p.fraction);
});

test("a run past its expected length has a moment left, never a negative; failed runs do not set the overhead", () => {
  const p = abProgress([run("failed", 0, 40), run("completed", 40, 52), run("running", 52)], T0 + 80_000);
  assert.equal(p.overheadSeconds, 0, "only the completed run's 12 s for 12 s of load");
  assert.equal(p.leftSeconds, 1);
  assert.equal(p.done, 2);
});

test("when every run has ended nothing is left and the bar is full; a deleted or never-started run counts as ended", () => {
  const p = abProgress([run("completed", 0, 14), run("cancelled"), null, run("completed", 14, 27)], T0 + 60_000);
  assert.equal(p.done, 4);
  assert.equal(p.leftSeconds, null);
  assert.equal(p.leftIsLowerBound, false);
  assert.equal(p.fraction, 1);
  assert.equal(p.spentSeconds, 27);
});
