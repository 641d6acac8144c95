// How runs are described in words (the runs list, the run page, chart legends) and which samples the charts may
// draw as a rate. Pure functions: no database.
import assert from "node:assert/strict";
import { test } from "node:test";
import { overTimeOf } from "../compare/build";
import { metricModel, rateLabel } from "../measurement/operations";
import { fmtChange, fmtLatencies, fmtLatency, fmtPercent, knobsLabel, knobsParts } from "./format";
import { isRateSample, SampleMetrics } from "../measurement/sample";
import { WorkloadConfig } from "../workloads/config";

test("a run's knobs are spelled out in words, one part per knob", () => {
  const pubsub = WorkloadConfig.parse({
    kind: "pubsub",
    writers: 4,
    partitions: 2,
    consumerGroups: 2,
    writeBatch: 100,
    readBatch: 200,
    throttleWritesPerSec: 2900,
    durationSeconds: 60,
  });
  assert.deepEqual(knobsParts(pubsub), [
    "4 writers",
    "2 partitions",
    "2 consumer groups of 2 readers",
    "write batch 100",
    "read batch 200",
    "2,900 msg/s limit",
    "60 s measured",
  ]);
  assert.equal(
    knobsLabel(pubsub),
    "4 writers · 2 partitions · 2 consumer groups of 2 readers · write batch 100 · read batch 200 · 2,900 msg/s limit · 60 s measured",
  );

  // One of each reads in the singular; a payload other than the default 1 KiB is named; no throttle says so.
  const queue = WorkloadConfig.parse({ kind: "queue", writers: 1, readers: 1, payloadBytes: 4096, throttleWritesPerSec: 0, durationSeconds: 1800 });
  assert.deepEqual(knobsParts(queue), ["1 writer", "1 reader", "4 KiB payload", "unthrottled", "1,800 s measured"]);
  assert.deepEqual(knobsParts(null), []);
  const nominal = WorkloadConfig.parse({ kind: "queue", backoff: "nominal" });
  assert.equal(knobsParts(nominal).at(-1), "nominal back-off", "a non-default back-off is named");
  const phased = WorkloadConfig.parse({ kind: "queue", durationSeconds: 60, phases: "pause-workers@40s+5s hold-xmin@10s+20s" });
  assert.equal(knobsParts(phased).at(-1), "phases hold-xmin@10s+20s, pause-workers@40s+5s", "a run's phases are named, in order");
});

test("the read rate is 'all groups' only for pub/sub with several consumer groups", () => {
  // As the run page's headline and charts name it, from each workload's declared read operation.
  const read = (kind: string) => metricModel(kind)!.operations.find((o) => o.name === "read")!;
  assert.equal(rateLabel(read("pubsub"), 3), "read (all groups)");
  assert.equal(rateLabel(read("pubsub"), 1), "read");
  assert.equal(rateLabel(read("queue"), 1), "read");
});

const sample = (elapsedSec: number, intervalSec: number, msgs: number, latencyMs = {}): SampleMetrics =>
  // The old stored shape, read through the schema (which converts it).
  SampleMetrics.parse({
    elapsedSec,
    intervalSec,
    writes: { count: msgs, msgPerSec: msgs / intervalSec, mibPerSec: msgs / intervalSec / 1024, errors: 0 },
    reads: { count: msgs, msgPerSec: msgs / intervalSec, mibPerSec: msgs / intervalSec / 1024, errors: 0, emptyPolls: 0 },
    groups: [{ group: "queue", msgPerSec: msgs / intervalSec, backlog: 0 }],
    backlog: 0,
    latencyMs,
    errors: [],
  });

test("a sample shorter than a tenth of the 1 s period is not a rate: by its measured length, not its place", () => {
  assert.equal(isRateSample(sample(1, 1.003, 1000)), true);
  assert.equal(isRateSample(sample(2, 0.1, 100)), true);
  assert.equal(isRateSample(sample(2.0027, 0.0027, 0)), false); // the 2.7 ms drain that drew a plunge to 0
  assert.equal(isRateSample(sample(2.05, 0.05, 400)), false); // 400 msgs in 50 ms would draw a spike of 8,000/s
});

test("the compare over-time points leave a too-short interval's rates out (null), keeping its latencies and time", () => {
  const points = overTimeOf([
    { seq: 0, phase: "measuring", metrics: sample(1, 1, 1000) },
    { seq: 1, phase: "measuring", metrics: sample(2, 1, 1000) },
    {
      seq: 2,
      phase: "draining",
      metrics: sample(2.0027, 0.0027, 2, { e2e: { p50: 3, p90: 4, p95: 4, p99: 5, p999: 5, max: 5, mean: 3.5, count: 2 } }),
    },
  ]);
  assert.deepEqual(points[2].latency?.e2e, { p50: 3, p95: 4, p99: 5, max: 5 });
  assert.deepEqual(
    points.map((p) => [p.t, p.rates.write, p.rates.read]),
    [
      [1, 1000, 1000],
      [2, 1000, 1000],
      [2, null, null],
    ],
  );
});

test("a latency reads in milliseconds below a second and in seconds from a second on, thousands separated", () => {
  const cases: [number, string][] = [
    [0.41234, "0.412 ms"],
    [27.5, "27.5 ms"],
    [999.1, "999.1 ms"],
    [1000, "1 s"],
    [1204.4, "1.2 s"],
    [16_244.735, "16.2 s"],
    [192_180, "192 s"],
    [1_624_400, "1,624 s"],
  ];
  for (const [v, s] of cases) assert.equal(fmtLatency(v), s, String(v));
  assert.equal(fmtLatency(null), "–");
});

test("a change beyond ±50 % reads as a factor above 1 (× larger, ÷ smaller), smaller ones as a percentage", () => {
  const cases: [number, string][] = [
    [5.23, "+5.2 %"],
    [-13.24, "−13.2 %"],
    [0.01, "±0.0 %"],
    [50, "+50.0 %"],
    [-50, "−50.0 %"],
    [60, "×1.6"],
    [-60, "÷2.5"],
    [100, "×2"],
    [130, "×2.3"],
    [-67.74, "÷3.1"],
    [-99.9, "÷1,000"],
    [13_300, "×134"],
    [199_900, "×2,000"],
    [3_320, "×34.2"],
  ];
  for (const [v, s] of cases) assert.equal(fmtChange(v), s, String(v));
  assert.equal(fmtChange(13_300, "requests/s"), "×134 the requests/s");
  // 11.4 s against 5.07 ms, and the other way round (which read "−100.0 %").
  assert.equal(fmtChange((11_400 / 5.07 - 1) * 100), "×2,250");
  assert.equal(fmtChange((5.07 / 11_400 - 1) * 100), "÷2,250");
});

test("a latency's edges: zero, sub-ms, exactly a second, just under a minute, minutes and hours in seconds, negatives, unknown", () => {
  const cases: [number, string][] = [
    [0, "0 ms"],
    [0.0004, "0 ms"], // below the histograms' microsecond
    [0.001, "0.001 ms"],
    [0.5, "0.5 ms"],
    [999.9996, "1 s"], // rounds to a second: never "1,000 ms"
    [1000, "1 s"],
    [1000.4, "1 s"],
    [1005, "1.01 s"],
    [9_994, "9.99 s"],
    [59_900, "59.9 s"],
    [59_960, "60 s"],
    [125_000, "125 s"], // minutes stay in seconds: one unit per column of latencies
    [3_600_000, "3,600 s"],
    [-0.25, "−0.25 ms"],
    [-16_244.735, "−16.2 s"],
    [-0.0001, "0 ms"], // no minus on a zero
  ];
  for (const [v, s] of cases) assert.equal(fmtLatency(v), s, String(v));
  for (const v of [null, undefined, Number.NaN, Number.POSITIVE_INFINITY]) {
    assert.equal(fmtLatency(v), "–", String(v));
    assert.equal(fmtLatency(v, "—"), "—", `${v}: where a source does not publish it`);
  }
  assert.equal(fmtLatencies([4.2, 1_204.4, null]), "4.2 ms / 1.2 s / –");
});

test("a change's edges and a share in percent", () => {
  assert.equal(fmtChange(0), "±0.0 %");
  assert.equal(fmtChange(-100), "−100.0 %", "down to zero: no factor");
  assert.equal(fmtChange(-250), "−250.0 %", "across zero (a difference's sign changed): no factor");
  assert.equal(fmtChange(50.04), "×1.5", "just beyond +50 %: a factor");
  assert.equal(fmtChange(Number.NaN), "—");
  assert.equal(fmtPercent(12.345), "12.3 %");
  assert.equal(fmtPercent(0.4211), "0.42 %");
  assert.equal(fmtPercent(1234.5), "1,234.5 %");
  assert.equal(fmtPercent(null), "–");
});
