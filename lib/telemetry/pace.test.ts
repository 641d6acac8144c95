// The stall finder on hand-made seconds: a lock's dip and catch-up, a run behind schedule throughout (a missed
// rate, not a stall), a single slow second (noise, not a stall).
import assert from "node:assert/strict";
import { test } from "node:test";
import { paceFacts, type PaceSecond, type PaceSpec } from "./pace";

const spec: PaceSpec = { kind: "throttle", targetPerSec: 100, unit: "msg", operation: "write", label: "write", backlog: false, writerLag: "writerLag" };
const secs = (rows: [number, number][]): PaceSecond[] => rows.map(([done, behindMs], i) => ({ t: i, sec: 1, done, behindMs }));

test("a 2 s lock: the dip, how far behind, and the catch-up after it", () => {
  const f = paceFacts(
    spec,
    secs([
      [100, 5],
      [100, 5],
      [100, 5],
      [50, 600],
      [0, 1600],
      [250, 300],
      [100, 5],
      [100, 5],
    ]),
  );
  assert.equal(f.stalls.length, 1);
  const s = f.stalls[0];
  assert.equal(s.startSec, 4);
  assert.equal(s.seconds, 1.6); // as far behind as the writers fell: longer than the one whole second at 0
  assert.equal(s.maxBehindMs, 1600);
  assert.equal(s.catchUpSeconds, 1);
  assert.equal(s.catchUpPeakRate, 250);
  assert.equal(s.caughtUp, true);
});

test("behind schedule to the end at a steady rate is a missed rate, not a stall; one slow second is noise", () => {
  assert.equal(
    paceFacts(
      spec,
      secs([
        [50, 500],
        [50, 1000],
        [50, 1500],
        [50, 2000],
        [50, 2500],
      ]),
    ).stalls.length,
    0,
  );
  assert.equal(
    paceFacts(
      spec,
      secs([
        [100, 5],
        [40, 400],
        [100, 5],
        [100, 5],
      ]),
    ).stalls.length,
    0,
  );
});
