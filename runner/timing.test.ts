import assert from "node:assert/strict";
import { test } from "node:test";
import { clock, jitterMicros, sleepMicros, sleepUntil, Stopper, Throttle } from "./timing";

test("the throttle has no start-up burst: message k is due at start + k/rate", () => {
  const t = new Throttle(5000);
  t.begin(1000);
  // A batch of 100 is due when its 100th message is: 20 ms after the start, not at once (the reference's
  // token bucket started full: 5,000 messages at t=0).
  assert.equal(t.next(100), 1020);
  assert.equal(t.next(100), 1040);
  for (let i = 0; i < 48; i++) t.next(100);
  assert.equal(t.next(100), 2020, "51 batches = 5,100 messages take 1.02 s");
});

test("jitter is uniform in [min, max) and dithered sleeps keep the requested mean", async () => {
  let min = Infinity;
  let max = 0;
  for (let i = 0; i < 10_000; i++) {
    const j = jitterMicros(100, 2000);
    min = Math.min(min, j);
    max = Math.max(max, j);
  }
  assert.ok(min >= 100 && min < 150 && max < 2000 && max > 1950);
  const stop = new Stopper();
  const n = 300;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await sleepMicros(300, stop);
  const meanMs = (performance.now() - t0) / n;
  // Node's 1 ms timers fire after 1–2 ms, so the mean lands between 0.3 and ~0.7 ms, never 0 or ≥ 1 ms.
  assert.ok(meanMs > 0.15 && meanMs < 0.9, `mean sleep ${meanMs} ms`);
});

test("a stopper wakes its sleepers at once", async () => {
  const stop = new Stopper();
  const t0 = performance.now();
  const p = stop.sleep(10_000);
  setTimeout(() => stop.stop(), 20);
  await p;
  assert.ok(performance.now() - t0 < 1000);
  await stop.sleep(10_000); // already stopped: returns immediately
});

test("the throttle knows how far behind schedule the writers are: the oldest due write not yet finished", () => {
  const t = new Throttle(1000);
  t.begin(0);
  assert.equal(t.behindMs(0), 0, "nothing handed out");
  const a = t.next(1); // due at 1
  const b = t.next(1); // due at 2
  assert.equal(t.behindMs(0.5), 0, "not due yet: waiting is not being behind");
  assert.equal(t.behindMs(1502), 1501, "a stalled write counts while it runs");
  t.done(a);
  assert.equal(t.behindMs(1502), 1500);
  t.done(b);
  assert.equal(t.behindMs(1502), 0, "all finished: on schedule");
  t.next(1);
  t.begin(5000);
  assert.equal(t.behindMs(9000), 0, "begin() forgets what was handed out before");
});

test("sleepUntil never returns before the due time, though Node's timers fire early", async () => {
  const stop = new Stopper();
  let early = 0;
  let worstLateMs = 0;
  for (let i = 0; i < 300; i++) {
    const due = clock() + Math.random() * 5; // 0–5 ms: the gaps between writes at a few hundred msg/s
    await sleepUntil(due, stop);
    const late = clock() - due;
    if (late < 0) early++;
    worstLateMs = Math.max(worstLateMs, late);
  }
  assert.equal(early, 0, `${early} of 300 sleeps returned before their due time`);
  assert.ok(worstLateMs < 200, `a sleep overran its due time by ${worstLateMs} ms`);
  stop.stop();
  const t0 = clock();
  await sleepUntil(t0 + 10_000, stop);
  assert.ok(clock() - t0 < 100, "a stopped stopper ends the wait at once");
});
