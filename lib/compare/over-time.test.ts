// The compare view's over-time points of a long run: downsampled into buckets that keep every second's extremes,
// so a one-second spike or stall survives (keeping every k-th second dropped it). Pure: no database.
import assert from "node:assert/strict";
import { test } from "node:test";
import { MAX_TIME_POINTS, overTimeOf, type SampleRecord } from "./build";
import { SampleMetrics } from "../measurement/sample";

const second = (t: number, msgs: number, e2eP99: number): SampleMetrics =>
  // The old stored shape, read through the schema (which converts it).
  SampleMetrics.parse({
    elapsedSec: t,
    intervalSec: 1,
    writes: { count: msgs, msgPerSec: msgs, mibPerSec: msgs / 1024, errors: 0 },
    reads: { count: msgs, msgPerSec: msgs, mibPerSec: msgs / 1024, errors: 0, emptyPolls: 0 },
    groups: [{ group: "queue", msgPerSec: msgs, backlog: 0 }],
    backlog: 0,
    latencyMs: { e2e: { p50: e2eP99 / 2, p90: e2eP99, p95: e2eP99, p99: e2eP99, p999: e2eP99, max: e2eP99, mean: e2eP99 / 2, count: msgs } },
    errors: [],
  });

/** A 3,600 s run at 1,000 msg/s and 5 ms e2e p99, but for one second ending at 1,838 s: a 900 ms stall at 100 msg/s. */
function hourWithSpike(): SampleRecord[] {
  return Array.from({ length: 3600 }, (_, i) => {
    const spike = i === 1837; // not a multiple of 3: the old every-3rd-second pick skipped it
    return { seq: i, phase: "measuring", metrics: second(i + 1, spike ? 100 : 1000, spike ? 900 : 5) };
  });
}

test("a run longer than 1,200 s is downsampled, and a one-second spike survives in its bucket", () => {
  const points = overTimeOf(hourWithSpike());
  assert.ok(points.length <= MAX_TIME_POINTS, `${points.length} points`);
  assert.equal(points.length, 1200); // 3 s a bucket
  const worst = Math.max(...points.map((p) => p.latency?.e2e?.p99 ?? 0));
  assert.equal(worst, 900, "the stalled second's p99 is the highest point: each bucket keeps its worst second");
  const spiked = points.find((p) => p.latency?.e2e?.p99 === 900)!;
  assert.equal(spiked.seconds, 3);
  assert.deepEqual(spiked.rateRange?.write, { min: 100, max: 1000 }, "the rate's envelope reaches down to the stalled second");
  assert.equal(spiked.rates.write, 700, "the bucket's rate is its time-weighted mean: (1000 + 100 + 1000) / 3");
  // No second is dropped: the buckets' seconds add up to the run.
  assert.equal(
    points.reduce((a, p) => a + (p.seconds ?? 1), 0),
    3600,
  );
});

test("buckets never span two phases, and a short run keeps one point per second", () => {
  const samples = hourWithSpike().map((s, i) => ({ ...s, phase: i < 1000 ? "warmup" : "measuring" }));
  const points = overTimeOf(samples);
  assert.ok(points.every((p) => p.phase === "warmup" || p.phase === "measuring"));
  // 1,000 warm-up seconds in buckets of 3 leave one bucket of 1 second before the phase changes.
  const lastWarmup = points.filter((p) => p.phase === "warmup").at(-1)!;
  assert.equal(lastWarmup.t, 1000);
  assert.equal(lastWarmup.seconds, undefined, "a bucket of one second is a plain point");

  const short = overTimeOf(hourWithSpike().slice(0, 600));
  assert.equal(short.length, 600);
  assert.ok(short.every((p) => p.seconds === undefined && p.rateRange === undefined));
});
