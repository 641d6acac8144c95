// A step's latency goal is decided only on clear evidence (lib/ceiling/interval.ts): real HDR histograms of
// built samples, and the per-second figures the engine would report of them.
import assert from "node:assert/strict";
import { test } from "node:test";
import { newHistogram, percentilesOf } from "../measurement/histogram";
import { boundEvidence, quantileRanks, samplesToBound } from "./interval";
import { parseSlo } from "./slo";

const p99Under = (ms: number) => {
  const r = parseSlo(`p99<${ms}ms`);
  assert.ok(r.ok);
  return r.slo[0];
};

/** Seconds of samples (ms each), as a step's histogram and its per-second figures. */
function step(seconds: number[][]) {
  const all = newHistogram();
  const figures = seconds.map((values) => {
    const h = newHistogram();
    for (const v of values) {
      h.recordValue(v * 1000);
      all.recordValue(v * 1000);
    }
    return percentilesOf(h);
  });
  return { h: all, figures };
}
const second = (n: number, ms: number, slow = 0, slowMs = 0) => [...Array(n - slow).fill(ms), ...Array(slow).fill(slowMs)];

test("the interval's ranks follow the binomial: a p99 needs about 260 samples to be bounded above", () => {
  assert.equal(samplesToBound(0.99), 268);
  assert.ok(samplesToBound(0.999) > 2600);
  const r = quantileRanks(10_000, 0.99);
  assert.ok(r.low < 9900 && r.high > 9900 && r.high - r.low < 40, JSON.stringify(r));
});

test("too few samples never show a p99 held, however fast they were", () => {
  // 8 s at 9 rows/s: 72 samples of 2 ms under a 20 ms goal.
  const { h, figures } = step(Array.from({ length: 8 }, () => second(9, 2)));
  const e = boundEvidence(p99Under(20), h, figures);
  assert.equal(e.decision, "unclear");
  assert.equal(e.highMs, null);
  // The same speed over enough samples is clearly met.
  const more = step(Array.from({ length: 8 }, () => second(100, 2)));
  assert.equal(boundEvidence(p99Under(20), more.h, more.figures).decision, "met");
});

test("a p99 near the limit is unclear; far over it, with the slow samples in every second, is missed", () => {
  // 1.2% of 1,000 samples slow: the p99 is the slow value, but 1.2% is within the interval of 1%.
  const near = step(Array.from({ length: 10 }, (_, i) => second(100, 2, i < 2 ? 2 : 1, 30)));
  const e = boundEvidence(p99Under(20), near.h, near.figures);
  assert.ok(percentilesOf(near.h).p99 >= 20, "the point p99 misses the goal");
  assert.equal(e.decision, "unclear", JSON.stringify(e));
  // 5% slow, spread over every second: a capacity, not a burst.
  const far = step(Array.from({ length: 10 }, () => second(100, 2, 5, 30)));
  assert.equal(boundEvidence(p99Under(20), far.h, far.figures).decision, "missed");
});

test("a miss carried by one second is a burst: unclear, measured longer, never a capacity", () => {
  // 3% of the samples slow, every one of them in one second (a checkpoint's fsync, another process's spike).
  const burst = step(Array.from({ length: 10 }, (_, i) => second(100, 2, i === 6 ? 30 : 0, 60)));
  const e = boundEvidence(p99Under(20), burst.h, burst.figures);
  assert.ok(e.lowMs >= 20, `the whole window's interval is over the goal: ${e.lowMs} ms`);
  assert.equal(e.decision, "unclear", JSON.stringify(e));
  assert.equal(e.worstSecond?.count, 100);
});

test("max is decided on what was seen", () => {
  const { h, figures } = step([second(10, 2, 1, 40), second(10, 2)]);
  const max = parseSlo("max<30ms");
  assert.ok(max.ok);
  assert.equal(boundEvidence(max.slo[0], h, figures).decision, "missed");
});
