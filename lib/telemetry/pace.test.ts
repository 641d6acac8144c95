// The stall finder on hand-made seconds: a lock's dip and catch-up, a run behind schedule throughout or slowing
// down (a missed rate, not a stall), a single slow second (noise), a stall still going at the window's end.
import assert from "node:assert/strict";
import { test } from "node:test";
import { paceFacts, type PaceSecond, type PaceSpec } from "./pace";

const spec: PaceSpec = { kind: "throttle", targetPerSec: 100, unit: "msg", operation: "write", label: "write", backlog: false, writerLag: "writerLag" };
/** "done:behindMs" a second, space-separated. */
const secs = (rows: string): PaceSecond[] =>
  rows.split(" ").map((r, i) => {
    const [done, behindMs] = r.split(":").map(Number);
    return { t: i, sec: 1, done, behindMs };
  });
const stalls = (rows: string) => paceFacts(spec, secs(rows)).stalls;

test("a 2 s lock: the dip, how far behind, and the catch-up after it", () => {
  const found = stalls("100:5 100:5 100:5 50:600 0:1600 250:300 100:5 100:5");
  assert.equal(found.length, 1);
  const s = found[0];
  assert.equal(s.startSec, 4);
  // As far further behind as the writers fell: longer than the one whole second at 0.
  assert.ok(Math.abs(s.seconds - 1.595) < 1e-9, String(s.seconds));
  assert.equal(s.maxBehindMs, 1600);
  assert.equal(s.catchUpSeconds, 1);
  assert.equal(s.catchUpPeakRate, 250);
  assert.equal(s.caughtUp, true);
});

test("behind to the end, or slowing down while behind, is a missed rate; one slow second is noise; blocked at the end is a stall", () => {
  assert.equal(stalls("50:500 50:1000 50:1500 50:2000 50:2500").length, 0);
  assert.equal(stalls("60:400 60:1200 60:2000 60:2800 25:3900 25:5000").length, 0);
  assert.equal(stalls("100:5 40:400 100:5 100:5").length, 0);
  const end = stalls("100:5 100:5 100:5 0:1000 0:2000");
  assert.equal(end.length, 1);
  assert.equal(end[0].caughtUp, false);
});
