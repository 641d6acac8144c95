// An A/B with its noise: the balanced order, the t-interval of pair differences on known numbers, and a short
// real A/B of two pairs on the embedded target: pooled percentiles from merged histograms, spread across runs,
// an interval per measure and the closed loop's work stated beside the deltas.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { runWorkload } from "../../runner/engine";
import { TOTAL_OP } from "../../workloads/yong/fields";
import { mergeEncoded, percentilesOf } from "../measurement/histogram";
import { histogramOf, latencyOf, throughputOf } from "../measurement/operations";
import type { RunSummary } from "../measurement/summary";
import { testDatabase } from "../testing";
import { WorkloadConfig } from "../workloads/config";
import { abOrder, orderText, Pairs } from "./ab-order";
import { type AbPairRuns, abStats, abStatsText, fmtInterval, medianInterval, resolveNeeds, tInterval } from "./ab-stats";

let target: { url: string; drop: () => Promise<void> };
before(async () => {
  target = await testDatabase("ab_stats_target");
});
after(async () => {
  await target.drop();
});

test("variants run in balanced ABBA order, 3 pairs unless asked", () => {
  assert.deepEqual(abOrder(3), [
    { pair: 1, variant: "baseline" },
    { pair: 1, variant: "modded" },
    { pair: 2, variant: "modded" },
    { pair: 2, variant: "baseline" },
    { pair: 3, variant: "baseline" },
    { pair: 3, variant: "modded" },
  ]);
  assert.equal(orderText(abOrder(4)), "AB BA AB BA");
  assert.equal(Pairs.parse(undefined), 3);
  assert.match(Pairs.safeParse(0).error?.issues[0].message ?? "", /^pairs must be at least 1/);
  assert.match(Pairs.safeParse(11).error?.issues[0].message ?? "", /^pairs must be at most 10/);
});

test("the interval is Student's t over the pair differences (known numbers)", () => {
  // mean 2, sd 1, n 3: half-width 4.303 / √3 = 2.4843.
  const i = tInterval([1, 2, 3])!;
  assert.equal(i.mean, 2);
  assert.equal(i.sd, 1);
  assert.ok(Math.abs(i.low - -0.4843) < 1e-3 && Math.abs(i.high - 4.4843) < 1e-3, JSON.stringify(i));
  // Two pairs: t(1) = 12.706; differences 10 and 14: mean 12, sd 2.828, half 25.41.
  const two = tInterval([10, 14])!;
  assert.ok(Math.abs(two.high - (12 + 25.41)) < 0.01, JSON.stringify(two));
  assert.equal(tInterval([5]), null, "one pair has no interval");
});

const fakeRun = (id: string, p50: number, count: number): { id: string; summary: RunSummary } => ({
  id,
  summary: {
    config: { kind: "cache", load: "vus" },
    window: { measuredSeconds: 10, warmupSeconds: 0 },
    operations: {
      [TOTAL_OP]: {
        count,
        perSecond: count / 10,
        errors: 0,
        latency: { fromSend: { p50, p95: p50 * 2, mean: p50, p90: 0, p99: 0, p999: 0, max: 0, count } },
      },
    },
    histograms: {},
  } as unknown as RunSummary,
});

test("the median's interval is two order statistics with the binomial's confidence (known numbers)", () => {
  const upTo = (n: number) => Array.from({ length: n }, (_, i) => n - i); // given in reverse: the order is its own
  // 20 values: x(6)…x(15), 95.9 %; 10: x(2)…x(9), 97.9 % (x(3)…x(8) would be 89.1 %); 6: the extremes, 96.9 %.
  const twenty = medianInterval(upTo(20))!;
  assert.deepEqual([twenty.median, twenty.low, twenty.high], [10.5, 6, 15]);
  assert.ok(Math.abs(twenty.confidence - (1 - (2 * (1 + 20 + 190 + 1140 + 4845 + 15504)) / 2 ** 20)) < 1e-12);
  const ten = medianInterval(upTo(10))!;
  assert.deepEqual([ten.median, ten.low, ten.high], [5.5, 2, 9]);
  assert.ok(Math.abs(ten.confidence - (1 - (2 * 11) / 1024)) < 1e-12);
  assert.ok(Math.abs(medianInterval(upTo(6))!.confidence - (1 - 2 / 64)) < 1e-12);
  // Fewer than 6 cannot reach 95 %: the extremes, with what they have.
  assert.deepEqual(medianInterval([3, 1, 2]), { n: 3, median: 2, low: 1, high: 3, confidence: 0.75 });
  assert.equal(medianInterval([5])?.n, undefined);
});

test("a difference whose interval includes zero is within noise; one that excludes it is not", () => {
  const pair = (n: number, b: number, m: number, cb = 1000, cm = 1000): AbPairRuns => ({
    pair: n,
    first: n % 2 ? "baseline" : "modded",
    runs: { baseline: fakeRun(`b${n}`, b, cb), modded: fakeRun(`m${n}`, m, cm) },
  });
  // p50 differences +1, −2, +1.5 ms: within noise.
  const noisy = abStats([pair(1, 10, 11), pair(2, 10, 8), pair(3, 10, 11.5)]);
  const p50 = noisy.rows.find((r) => r.key === "p50")!;
  assert.deepEqual(p50.pairDiffs, [1, -2, 1.5]);
  assert.equal(p50.finding, "within noise");
  assert.equal(p50.baseline.min, 10);
  assert.equal(p50.modded.max, 11.5);
  // p50 differences −5, −6, −5.5 ms on a 10 ms baseline: modded lower, about −50 % … −60 %.
  const real = abStats([pair(1, 10, 5), pair(2, 10, 4), pair(3, 10, 4.5)]);
  const r = real.rows.find((x) => x.key === "p50")!;
  assert.equal(r.finding, "modded lower");
  assert.equal(fmtInterval(r), "−67.4 % … −42.6 %");
  assert.equal(real.order, "AB BA AB");
  // Unequal work in a closed loop is stated with its counts.
  const unequal = abStats([pair(1, 10, 11, 11477, 9843), pair(2, 10, 11, 1000, 1000)]);
  assert.ok(
    unequal.notes.includes(
      "Unequal work (closed loop): baseline ran 12,477 requests and modded 10,843 (−13.1 %) over equal windows, so each variant's latencies were measured under a different load.",
    ),
    unequal.notes.join("\n"),
  );
  assert.ok(abStats([pair(1, 10, 11)]).notes[0].startsWith("One pair: no interval"));
  // Flagged runs are named beside the deltas, once each: the one client rule (verdict and runner-load check
  // alike), a flag stored under the earlier rule labelled so, a host-bound verdict.
  const flagged = pair(2, 10, 11);
  // The modded run's runner at its limit (97% of a core) in a closed loop (no rate asked): client-bound.
  const loop = { loopDelayMs: { p50: 0.01, p99: 2, max: 104 }, exposedDelayMs: 3, maxCpuCores: 1, judgedAgainst: { metric: "request", p99: 5, p50: 1 } };
  (flagged.runs.modded.summary as { runnerLoad?: unknown }).runnerLoad = { ...loop, cpuCores: 0.97, clientBound: true, rule: "starvation" };
  (flagged.runs.modded.summary as { telemetry?: unknown }).telemetry = { verdict: { category: "client-bound" } };
  (flagged.runs.baseline.summary as { telemetry?: unknown }).telemetry = { verdict: { category: "host-bound" } };
  const stored = pair(3, 10, 11);
  (stored.runs.baseline.summary as { runnerLoad?: unknown }).runnerLoad = { ...loop, cpuCores: 0.3, clientBound: true };
  const notes = abStats([pair(1, 10, 11), flagged, stored]).notes;
  assert.ok(
    notes.includes(
      "Flagged runs, 3 of 6 (their latencies carry the runner's or the host's delay): b2 (baseline, pair 2: verdict host-bound); m2 (modded, pair 2: client-bound); b3 (baseline, pair 3: runner's delay up to 104 ms in its latencies (as stored, by the earlier rule)).",
    ),
    notes.join("\n"),
  );
});

test("an interval too wide to resolve its difference says how many pairs or how long a window would, estimated from the measured spread", () => {
  const pair = (n: number, b: number, m: number): AbPairRuns => ({
    pair: n,
    first: n % 2 ? "baseline" : "modded",
    runs: { baseline: fakeRun(`b${n}`, b, 1000), modded: fakeRun(`m${n}`, m, 1000) },
  });
  // A quick look of 2 pairs of 10 s: p50 differences +1 and +3 ms on a 10 ms baseline. Mean 2, sd √2, t(1) = 12.706:
  // half-width 12.706 ms, the interval −107.1 % … +147.1 %, within noise.
  const quick = abStats([pair(1, 10, 11), pair(2, 10, 13)]);
  const p50 = quick.rows.find((r) => r.key === "p50")!;
  assert.equal(fmtInterval(p50), "−107.1 % … +147.1 %");
  assert.equal(p50.finding, "within noise");
  // Pairs: the smallest n with t(n − 1) · √2 ÷ √n < 2: n = 4 gives 3.182 · 1.414 ÷ 2 = 2.25, n = 5 gives 1.755: 5 pairs.
  // Window: keeping 2 pairs, 10 s × (12.706 ÷ 2)² = 403.6 s: 404 s.
  assert.deepEqual(resolveNeeds(p50.ci!, 10), { pairs: 5, windowSeconds: 404 });
  const advice = quick.advice.find((a) => a.startsWith("p50:"));
  assert.equal(
    advice,
    "p50: the interval (−107.1 % … +147.1 %) is too wide to resolve the difference +20.0 %: run 5 pairs or 2 pairs of 404 s windows (sd of the pair differences 1.41 ms).",
  );
  // What the numbers are, said once below them.
  assert.equal(
    quick.adviceBasis,
    "Estimates from the measured spread of the 2 pair differences (10 s windows): an interval narrows as 1 ÷ √pairs, and as 1 ÷ √window while the noise is sampling noise (a drift between runs only more pairs average out); the next pairs' spread will differ.",
  );
  assert.ok(abStatsText(quick).includes(`- ${advice}`), "the CLI prints it too");
  assert.equal(abStatsText(quick).split("Estimates from the measured spread").length - 1, 1, "the basis once");
  // A rate's spread with its unit: request counts 1,000 → 1,000 and 1,200 over 10 s, pair differences 0 and 20 req/s.
  const rates = abStats([pair(1, 10, 11), { ...pair(2, 10, 13), runs: { baseline: fakeRun("b2", 10, 1000), modded: fakeRun("m2", 13, 1200) } }]);
  // Mean 10, sd 14.14 req/s: t(10) · 14.14 ÷ √11 = 9.50 < 10 (at 10 pairs 10.12); 10 s × (127.06 ÷ 10)² = 1,614.4 s.
  assert.equal(
    rates.advice.find((a) => a.startsWith("requests/s:")),
    "requests/s: the interval (−117.1 % … +137.1 %) is too wide to resolve the difference +10.0 %: run 11 pairs or 2 pairs of 1,615 s windows (sd of the pair differences 14 req/s; one A/B runs at most 10 pairs: run several, or lengthen the windows).",
  );
  // A smaller difference in the same noise: beyond one A/B's 10 pairs, said so.
  const small = resolveNeeds({ n: 2, mean: 0.5, sd: Math.SQRT2, low: 0, high: 0 }, 10)!;
  assert.equal(small.pairs, 34); // t(33) = 2.032: 2.032 · 1.414 ÷ √34 = 0.493 < 0.5; at 33 pairs 0.501
  assert.equal(small.windowSeconds, 6458);
  const tiny = abStats([pair(1, 10, 10.5), pair(2, 10, 10.6), pair(3, 10, 9.1)]).advice.find((a) => a.startsWith("p50:"))!;
  assert.match(tiny, /run (\d+) pairs .*; one A\/B runs at most 10 pairs: run several, or lengthen the windows\)\.$/);
  assert.equal(resolveNeeds({ n: 2, mean: 0.001, sd: 10, low: 0, high: 0 }, 10)!.pairs, null, "beyond 1,000 pairs: no number claimed");
  // A resolved difference has no advice: −5, −6, −5.5 ms is modded lower.
  const resolved = abStats([pair(1, 10, 5), pair(2, 10, 4), pair(3, 10, 4.5)]);
  assert.equal(resolved.rows.find((r) => r.key === "p50")!.finding, "modded lower");
  assert.ok(!resolved.advice.some((a) => a.startsWith("p50:")), resolved.advice.join("\n"));
  // One pair has no spread to estimate from: the note says to run 3 or more, no advice is made up.
  assert.deepEqual(abStats([pair(1, 10, 11)]).advice, []);
  assert.equal(abStats([pair(1, 10, 11)]).adviceBasis, null);
});

test("a short real A/B of two pairs: pooled percentiles from merged histograms, spread across runs, an interval per measure", async () => {
  const base = WorkloadConfig.parse({ kind: "cache", vus: 2, thinkMs: 2, keys: 200, pool: 2, durationSeconds: 1, warmupSeconds: 0 });
  const pairs = new Map<number, AbPairRuns>();
  for (const slot of abOrder(2)) {
    const summary = await runWorkload(WorkloadConfig.parse({ ...base, variant: slot.variant }), target.url);
    const p = pairs.get(slot.pair) ?? ({ pair: slot.pair, first: slot.variant, runs: {} } as AbPairRuns);
    p.runs[slot.variant] = { id: `r_${slot.variant}_${slot.pair}`, summary };
    pairs.set(slot.pair, p);
  }
  const st = abStats([...pairs.values()]);
  assert.equal(st.pairs, 2);
  assert.equal(st.order, "AB BA");
  const runs = (v: "baseline" | "modded") => [...pairs.values()].map((p) => p.runs[v].summary);
  for (const row of st.rows) {
    assert.equal(row.pairDiffs.length, 2, row.key);
    assert.ok(row.ci && row.ci.low <= row.ci.high, `${row.key}: ${JSON.stringify(row.ci)}`);
    assert.ok(row.finding, row.key);
    assert.equal(row.baseline.perRun.length, 2);
  }
  // Percentiles are never averaged: the pooled p95 is the merged histograms' p95.
  const merged = percentilesOf(mergeEncoded(runs("modded").map((s) => histogramOf(s.histograms, TOTAL_OP)!)));
  assert.equal(st.rows.find((r) => r.key === "p95")!.modded.pooled, merged.p95);
  assert.deepEqual(
    st.rows.find((r) => r.key === "p50")!.baseline.perRun,
    runs("baseline").map((s) => latencyOf(s, TOTAL_OP)!.p50),
  );
  // The closed loop's work, per variant, beside the deltas.
  const count = (v: "baseline" | "modded") => runs(v).reduce((a, s) => a + throughputOf(s, TOTAL_OP)!.count, 0);
  assert.ok(
    st.notes.some((n) =>
      n.includes(`baseline ran ${count("baseline").toLocaleString("en-US")} requests and modded ${count("modded").toLocaleString("en-US")}`),
    ),
    st.notes.join("\n"),
  );
  assert.match(abStatsText(st), /^2 pairs, order AB BA\nall requests +baseline \(runs' range\)/);
});
