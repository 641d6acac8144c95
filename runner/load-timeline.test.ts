// The two timelines of the load step (runner/load-timeline.ts): a run in one process cuts each second a second
// after the previous cut; the parts of a run over several processes cut the shared timeline's whole seconds, each
// slot once, and a phase's end only when no slot was cut there already.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ownTimeline, sharedTimeline } from "./load-timeline";
import { clock } from "./core/timing";

test("one process: the next second is due a second after the last cut; a phase's end is always cut", async () => {
  const t = ownTimeline();
  const at = await t.start();
  assert.ok(Math.abs(at - clock()) < 50);
  assert.equal(t.due(), at + 1000);
  t.cut(at + 1000, at + 1003);
  assert.equal(t.due(), at + 2003, "the next second counts from when the last was cut");
  assert.equal(t.cutsAt(at + 2003, t.due(), at + 2500), true);
  assert.equal(t.cutsAt(at + 2600, t.due(), at + 2500), false, "woken past the phase's end: its last interval takes that time");
  assert.equal(t.lastOpen(at + 2500), true);
  assert.equal(t.measureEnd(at, 3000) >= clock() + 2990, true, "the window lasts its duration from now");
});

test("parts: whole seconds from the barrier, each slot cut once, late or not", async () => {
  const t = sharedTimeline(async () => 10_000);
  assert.equal(await t.start(), 10_000);
  assert.equal(t.due(), 11_000);
  // Woken late, past the phase's end: the slot before the end is still cut (the coordinator pairs parts by it).
  assert.equal(t.cutsAt(13_500, 11_000, 12_000), true);
  t.cut(11_000, 13_500);
  assert.equal(t.due(), 12_000);
  assert.equal(t.cutsAt(13_500, 12_000, 12_000), false, "the phase's end is cut as its last interval, not as a second");
  assert.equal(t.lastOpen(12_000), true);
  t.cut(12_000, 13_501);
  t.phaseEnded(12_000);
  assert.equal(t.due(), 13_000);
  // A drain's end the part had already cut as a whole second: not cut twice.
  t.cut(13_000, 13_002);
  assert.equal(t.lastOpen(13_000), false);
  t.phaseEnded(13_000);
  assert.equal(t.due(), 14_000);
  assert.equal(t.measureEnd(11_000, 5000), 16_000, "the window ends at a fixed instant of the timeline");
});
