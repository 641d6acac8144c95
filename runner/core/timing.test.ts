import assert from "node:assert/strict";
import { test } from "node:test";
import { Backoff, clock, goSleepMs, jitterMicros, referenceJitterMicros, sleepMicros, sleepUntil, Stopper, Throttle } from "./timing";

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

test("each writer's lag behind its own share: 0 on schedule, and a stalled writer stays behind by the turns it lost", () => {
  // 400 msg/s shared by 4 writers, batches of 10: each writer's share is 100 msg/s, a batch every 100 ms.
  const t = new Throttle(400);
  t.begin(0, 4);
  const due: number[] = [];
  for (let w = 0; w < 4; w++) due.push(t.next(10, w)); // 25, 50, 75, 100 ms
  // On schedule: every writer ends its write 2 ms after its due time: at most that write's latency behind.
  for (let w = 0; w < 4; w++) assert.ok(t.writerLagMs(w, due[w] + 2) <= 2, `writer ${w} on schedule`);
  // Writer 0 is stuck in its first write for 1.5 s; the others keep taking turns (each its own due).
  let now = 0;
  for (let turn = 0; turn < 60; turn++) {
    const w = 1 + (turn % 3);
    const d = t.next(10, w);
    now = d + 1;
    t.done(d);
  }
  assert.equal(now > 1500, true);
  assert.ok(Math.abs(t.writerLagMs(0, now) - (now - 100)) < 1e-9, "writer 0: its share covered its one batch at 100 ms");
  for (let w = 1; w < 4; w++) assert.equal(t.writerLagMs(w, now), 0, `writer ${w} took writer 0's turns: ahead of its share`);
  // Released, writer 0 takes the next turn like the others: it does not win back what it lost.
  t.done(due[0]);
  const d = t.next(10, 0);
  assert.ok(t.writerLagMs(0, d + 1) > 1400);
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
  // What a dithered sleep asks of the timers, counted rather than timed (a loaded machine stretches a timer's
  // millisecond, not the choice): 300 µs is a 1 ms sleep 30% of the time and a yield otherwise, so its mean is
  // 0.3 ms; 1,300 µs is 1 ms 70% of the time and 2 ms 30%.
  const asked: number[] = [];
  class Counting extends Stopper {
    override sleep(ms: number) {
      asked.push(ms);
      return Promise.resolve();
    }
  }
  const stop = new Counting();
  const n = 4000;
  const meanAsked = async (micros: number) => {
    asked.length = 0;
    for (let i = 0; i < n; i++) await sleepMicros(micros, stop);
    return asked.reduce((a, b) => a + b, 0) / n;
  };
  // Binomial sampling: the mean's standard error is under 0.01 ms at n = 4,000; 0.05 is five of them.
  const m300 = await meanAsked(300);
  assert.ok(Math.abs(m300 - 0.3) < 0.05, `300 µs dithered asks ${m300.toFixed(3)} ms on average`);
  const m1300 = await meanAsked(1300);
  assert.ok(Math.abs(m1300 - 1.3) < 0.05, `1,300 µs dithered asks ${m1300.toFixed(3)} ms on average`);
  assert.ok(
    asked.every((ms) => ms === 1 || ms === 2),
    "only the whole milliseconds either side are asked",
  );
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
  const lateMs: number[] = [];
  for (let i = 0; i < 300; i++) {
    const due = clock() + Math.random() * 5; // 0–5 ms: the gaps between writes at a few hundred msg/s
    await sleepUntil(due, stop);
    const late = clock() - due;
    if (late < 0) early++;
    lateMs.push(late);
  }
  assert.equal(early, 0, `${early} of 300 sleeps returned before their due time`);
  // Not early is exact; how late is the machine's (a clean-clone CI run, the cores busy with Playwright and other
  // files, once woke one sleep 217 ms late). A sleep that overshot by design (a whole extra timer, a wrong unit) would
  // make the typical one late, which the median shows whatever a busy moment did to a few.
  lateMs.sort((a, b) => a - b);
  const median = lateMs[lateMs.length >> 1];
  assert.ok(median < 50, `the median sleep overran its due time by ${median.toFixed(1)} ms (the worst by ${lateMs.at(-1)!.toFixed(1)} ms)`);
  stop.stop();
  const t0 = clock();
  await sleepUntil(t0 + 10_000, stop);
  assert.ok(clock() - t0 < 100, "a stopped stopper ends the wait at once");
});

test("the reference's jitter is computed as its Go code does, sign bug included", () => {
  // Expected values computed with Go's int64 semantics (wrapping shifts, arithmetic >>, % keeping the sign).
  assert.equal(referenceJitterMicros(100, 2000, 1763866800123456789n).toFixed(3), "-93.105");
  assert.equal(referenceJitterMicros(100, 2000, 1763866808765432101n).toFixed(3), "1209.127");
  assert.equal(referenceJitterMicros(100, 2000, 1700000000000000000n).toFixed(3), "-464.064");
  // Spread over a year of wall-clock time, about half are ≤ 0 (methodology: P(sleep > 0) ≈ 0.52).
  let zero = 0;
  const n = 20_000;
  for (let i = 0; i < n; i++) if (referenceJitterMicros(100, 2000, 1_735_689_600_000_000_000n + BigInt(Math.floor(Math.random() * 3.15e16))) <= 0) zero++;
  assert.ok(zero / n > 0.4 && zero / n < 0.56, `share ≤ 0: ${zero / n}`);
  // Timestamps close together share their sign: either nearly all sleep, or nearly none do.
  const t = 1_763_866_800_000_000_000n + BigInt(Math.floor(Math.random() * 1e15));
  let z = 0;
  for (let i = 0; i < 1000; i++) if (referenceJitterMicros(100, 2000, t + BigInt(i * 1000)) <= 0) z++;
  assert.ok(z === 0 || z >= 900, `${z} of 1000 close-together jitters ≤ 0`);
  assert.equal(goSleepMs(0.2), 1.1);
  assert.equal(goSleepMs(2).toFixed(1), "2.2");
  assert.equal(goSleepMs(-0.05), 0);
});

/** Sleep lengths actually taken (ms, measured with the clock) by `n` calls of `sleep`. */
async function lengths(n: number, sleep: () => Promise<void>) {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = clock();
    await sleep();
    out.push(clock() - t0);
  }
  return out.sort((a, b) => a - b);
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

// Sleep lengths on a shared machine are only ever LONGER than asked (another process holds the core): the checks
// below bound them from below, and compare the two modes with each other in the same moment, never against a
// wall-clock ceiling that a busy machine would break.
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

test("the reference-effective back-off sleeps what the reference really sleeps: ~1.1 ms for 200 µs, half the jitters zero", async () => {
  const stop = new Stopper();
  // Queue: time.Sleep(200µs) took 1,081-1,169 µs (p10-p99), mean ~1.1 ms; never a bare yield.
  const fixed = await lengths(300, () => new Backoff("reference-effective", stop).fixed(200));
  const short = fixed.filter((x) => x < 0.5).length;
  assert.ok(short <= 15, `${short} of 300 fixed back-offs shorter than 0.5 ms`);
  assert.ok(median(fixed) > 0.8, `median fixed back-off ${median(fixed)} ms`);
  // Pub/sub: jitter(100µs, 2ms) seeded by spread-out clocks: ~48% zero sleeps; the others mean ~1.63 ms, ≥ ~1.1 ms.
  // Each call's seed is kept, so every measured sleep is paired with what the reference would have slept.
  let seed = 0n;
  const spread = () => (seed = 1_735_689_600_000_000_000n + BigInt(Math.floor(Math.random() * 3.15e16)));
  const b = new Backoff("reference-effective", stop, spread);
  const pairs: { asked: number; took: number }[] = [];
  for (let i = 0; i < 400; i++) {
    const t0 = clock();
    await b.jitter(100, 2000);
    pairs.push({ asked: goSleepMs(referenceJitterMicros(100, 2000, seed) / 1000), took: clock() - t0 });
  }
  const zeroShare = pairs.filter((p) => p.asked === 0).length / pairs.length;
  assert.ok(zeroShare > 0.35 && zeroShare < 0.62, `share of zero sleeps ${zeroShare}`);
  const slept = pairs.filter((p) => p.asked > 0);
  assert.ok(mean(slept.map((p) => p.asked)) > 1.3 && mean(slept.map((p) => p.asked)) < 2.3, "mean positive jitter sleep asked");
  // sleepAbout ends up to 0.5 ms early by design (BACKOFF_SLACK_MS), never more.
  const early = slept.filter((p) => p.took < p.asked - 0.55).length;
  assert.ok(early <= slept.length * 0.02, `${early} of ${slept.length} positive jitter sleeps ended early`);
  // A zero jitter is a bare yield: it takes less than the positive sleeps taken in the same moments.
  const zeroTook = median(pairs.filter((p) => p.asked === 0).map((p) => p.took));
  assert.ok(zeroTook < median(slept.map((p) => p.took)), `zero jitters took ${zeroTook} ms (median), as long as real sleeps`);
  // The nominal back-off is what the code asks for: 200 µs on average, mostly bare yields: less than the reference's.
  const nominal = await lengths(300, () => new Backoff("nominal", stop).fixed(200));
  const again = await lengths(300, () => new Backoff("reference-effective", stop).fixed(200));
  assert.ok(median(nominal) < median(again), `nominal back-off ${median(nominal)} ms (median) vs reference-effective ${median(again)} ms`);
});
