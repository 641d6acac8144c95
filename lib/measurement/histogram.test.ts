import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeHistogram, encodeHistogram, mergeEncoded, mergeHistograms, newHistogram, percentilesOf, recordMicros } from "./histogram";

test("percentiles of known values, in ms from µs, within HDR's 3 significant digits", () => {
  const h = newHistogram();
  for (let v = 1; v <= 1000; v++) recordMicros(h, v * 1000); // 1 … 1000 ms
  const s = percentilesOf(h);
  assert.equal(s.count, 1000);
  for (const [got, want] of [
    [s.p50, 500],
    [s.p90, 900],
    [s.p95, 950],
    [s.p99, 990],
    [s.p999, 999],
    [s.max, 1000],
    [s.mean, 500.5],
  ] as const)
    assert.ok(Math.abs(got - want) / want < 0.001, `${got} vs ${want}`);
});

test("an empty histogram gives zeros, and sub-µs values still count", () => {
  assert.deepEqual(percentilesOf(newHistogram()), { p50: 0, p90: 0, p95: 0, p99: 0, p999: 0, max: 0, mean: 0, count: 0 });
  const h = newHistogram();
  recordMicros(h, 0.2);
  recordMicros(h, 5, 3);
  assert.equal(percentilesOf(h).count, 4);
});

test("encode/decode round-trips exactly; merging equals recording everything in one", () => {
  const a = newHistogram();
  const b = newHistogram();
  const all = newHistogram();
  for (let i = 0; i < 5000; i++) {
    const v = Math.round(100 + ((i * 7919) % 100_000));
    (i % 3 ? a : b).recordValue(v);
    all.recordValue(v);
  }
  recordMicros(b, 90_000_000); // 90 s: beyond the initial 60 s range, auto-resized
  recordMicros(all, 90_000_000);
  assert.deepEqual(percentilesOf(decodeHistogram(encodeHistogram(a))), percentilesOf(a));
  assert.deepEqual(percentilesOf(mergeHistograms([a, b])), percentilesOf(all));
  assert.deepEqual(percentilesOf(mergeEncoded([encodeHistogram(a), encodeHistogram(b)])), percentilesOf(all));
  assert.ok(percentilesOf(all).max >= 90_000 && percentilesOf(all).max < 90_100);
});

test("a bad encoded histogram is a clear error", () => {
  assert.throws(() => decodeHistogram("not-a-histogram"), /not a valid encoded HDR histogram/);
});
