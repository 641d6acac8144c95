// CI gates over recorded runs (fixtures/client-bound-run.json, a queue at 200 msg/s; fixtures/old-runs/queue.json, one
// at 500 msg/s): a gate reads the figure the summary shows (any percentile from the same merged histogram), fails
// with a line naming it as written, its goal and its value, and a baseline flags what moved the wrong way beyond
// the bound, in both directions a figure can regress.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { decodeHistogram } from "../measurement/histogram";
import { RunSummary } from "../measurement/summary";
import { PROJECT_ROOT } from "../paths";
import {
  checkGates,
  checkRegressions,
  defaultRegressionMetrics,
  figureText,
  type Gate,
  gateFailureLine,
  parseGate,
  parseMaxRegression,
  regressionLine,
} from "./gate";
import { parseMetric } from "./metric";
import { outcomeMarkdown } from "./report";

const summaryIn = (file: string) => RunSummary.parse(JSON.parse(readFileSync(path.join(PROJECT_ROOT, "fixtures", file), "utf8")).run.summary);
const Q200 = summaryIn("client-bound-run.json");
const Q500 = summaryIn("old-runs/queue.json");

const gate = (text: string): Gate => {
  const g = parseGate(text);
  if (typeof g === "string") throw new Error(g);
  return g;
};

test("a gate's percentile is the summary's, read from the same histogram; p99.99 and p100 too", () => {
  const e2e = Q200.operations.e2e.latency.fromSend!;
  const [p99, p999, max, mean] = checkGates(Q200, [gate("e2e.p99<1s"), gate("e2e.p99.9<1s"), gate("e2e.p100<1s"), gate("e2e.mean<1s")]);
  assert.equal(p99.value, e2e.p99);
  assert.equal(p999.value, e2e.p999);
  assert.equal(max.value, e2e.max);
  assert.equal(mean.value, e2e.mean);
  // Beyond the summary's columns, straight from the merged histogram of the window, in ms as the summary rounds.
  const h = decodeHistogram(Q200.histograms.e2e.fromSend!);
  const [p9999] = checkGates(Q200, [gate("e2e.p99.99<1s")]);
  assert.equal(p9999.value, Math.round(h.getValueAtPercentile(99.99)) / 1000);
  assert.ok(p9999.value! >= e2e.p999 && p9999.value! <= e2e.max);
  // From the schedule is its own histogram.
  const [sched] = checkGates(Q200, [gate("e2e.fromSchedule.p99<1s")]);
  assert.equal(sched.value, Q200.operations.e2e.latency.fromSchedule!.p99);
});

test("a failed gate says itself as written, its goal and its value; a met one passes", () => {
  const e2e99 = Q200.operations.e2e.latency.fromSend!.p99;
  const rate = Q200.operations.write.perSecond;
  const results = checkGates(Q200, [gate(`e2e.p99 < ${e2e99}ms`), gate(`e2e.p99<=${e2e99}ms`), gate("write.perSecond>4000"), gate("write.errors<=0")]);
  assert.deepEqual(
    results.map((r) => r.passed),
    [false, true, false, true],
  );
  assert.equal(results[0].gate, `e2e.p99<${e2e99}ms`);
  assert.equal(gateFailureLine(results[2]), `gate failed: write.perSecond>4000: goal > 4,000 msg/s, value ${figureText(rate, "msg/s")}`);
  assert.ok(rate < 4000);
  // A unit scales the goal: 0.5s is 500 ms.
  assert.equal(checkGates(Q200, [gate("e2e.p50<0.5s")])[0].goal, "< 500 ms");
});

test("a gate the run cannot answer fails, saying why: a latency from the schedule of an unpaced run", () => {
  const unpaced = structuredClone(Q200);
  delete unpaced.histograms.e2e.fromSchedule;
  const [r] = checkGates(unpaced, [gate("e2e.fromSchedule.p99<1s")]);
  assert.equal(r.passed, false);
  assert.match(gateFailureLine(r), /measured from the schedule only in a paced run/);
});

test("malformed gates and bounds are refused naming what is wrong and how to write it", () => {
  const bad: [string, RegExp][] = [
    ["e2e.p99", /no comparison: write METRIC<GOAL/],
    ["e2e.p99<50", /give the latency's unit, as 50ms/],
    ["e2e.p99<50kg", /"kg" is not a unit of time/],
    ["e2e.p0<5ms", /a percentile is above 0 and at most 100/],
    ["e2e.p101<5ms", /at most 100/],
    ["e2e.q99<5ms", /is not a metric: write OPERATION\.STAT/],
    ["write.fromSchedule.perSecond>5", /perSecond is the operation's/],
    ["write.perSecond>5ms", /perSecond is a rate, written as a number/],
    ["e2e.p99<fast", /the goal "fast" is not a number with its unit/],
  ];
  for (const [text, message] of bad) {
    const g = parseGate(text);
    assert.equal(typeof g, "string", text);
    assert.match(g as string, message, text);
  }
  assert.equal(parseMaxRegression("10%"), 10);
  assert.match(parseMaxRegression("10") as string, /not a percentage: write it as 10%/);
  assert.match(parseMaxRegression("0%") as string, /above 0%/);
});

test("against a baseline: a rate that fell and latencies that rose beyond the bound regress; within it they do not", () => {
  // 500 msg/s as the baseline, 200 msg/s now: the rate fell by 60 %.
  const metrics = defaultRegressionMetrics(Q200, Q500);
  assert.ok(metrics.some((m) => m.text === "write.perSecond"));
  assert.ok(metrics.some((m) => m.text === "e2e.p99"));
  const { regressions } = checkRegressions(Q200, Q500, metrics, 10);
  const write = regressions.find((r) => r.metric === "write.perSecond")!;
  assert.equal(write.passed, false);
  assert.ok(Math.abs(write.worsePct - ((Q500.operations.write.perSecond - Q200.operations.write.perSecond) / Q500.operations.write.perSecond) * 100) < 1e-9);
  const [was, now] = [Q500.operations.write.perSecond, Q200.operations.write.perSecond];
  assert.equal(
    regressionLine(write, "run r_base", 10),
    `regression: write.perSecond: baseline ${figureText(was, "msg/s")} (run r_base), value ${figureText(now, "msg/s")}, ${(((was - now) / was) * 100).toFixed(1)}% worse (bound 10%)`,
  );
  // A claim's polls are no rate the workload counts (their number follows how often the queue was empty).
  assert.ok(!metrics.some((m) => m.text === "claim.perSecond" || m.text === "e2e.perSecond"));
  // The other way round the rate rose: better, never a regression, whatever the bound.
  const back = checkRegressions(Q500, Q200, [parseMetric("write.perSecond") as never], 1).regressions[0];
  assert.ok(back.worsePct < 0 && back.passed);
  // A run against itself moves nothing.
  assert.ok(checkRegressions(Q200, Q200, metrics, 0.001).regressions.every((r) => r.passed && r.worsePct === 0));
});

test("the Markdown names each gate and figure with its value, and what failed first", () => {
  const gates = checkGates(Q200, [gate("write.perSecond>4000"), gate("e2e.p99<10s")]);
  const { regressions, skipped } = checkRegressions(Q200, Q500, defaultRegressionMetrics(Q200, Q500), 10);
  const md = outcomeMarkdown({
    run: { id: "r_000000000001", workload: "queue", measuredSeconds: 10, repeats: 1 },
    gates,
    baseline: { name: "run r_000000000002", maxRegressionPct: 10, regressions, skipped, noise: "noise line", configDiffers: [] },
    passed: false,
  });
  assert.match(md, /^### ❌ Benchmark gates failed: 1 gate, \d+ regressions? \(r_000000000001\)/);
  const rate = (s: typeof Q200) => figureText(s.operations.write.perSecond, "msg/s");
  assert.ok(md.includes(`| \`write.perSecond>4000\` | > 4,000 msg/s | ${rate(Q200)} | ❌ |`), md);
  assert.ok(md.includes(`| \`e2e.p99<10s\` | < 10,000 ms | ${figureText(Q200.operations.e2e.latency.fromSend!.p99, "ms")} | ✅ |`), md);
  assert.match(md, new RegExp(`\\| write\\.perSecond \\| ${rate(Q500)} \\| ${rate(Q200)} \\| \\d+\\.\\d% worse \\| ❌ \\|`));
});

test("over repeats a figure is their median, and a change beyond the bound fails only with the baseline outside its interval", () => {
  const p99 = parseMetric("e2e.p99") as never;
  const [low, high] = [Q200.operations.e2e.latency.fromSend!.p99, Q500.operations.e2e.latency.fromSend!.p99];
  assert.ok(high > low * 1.1, "the 500 msg/s run's e2e p99 is beyond 10 % of the 200 msg/s run's");
  // Two repeats like the worse run, one like the better: the baseline (the better) lies inside [min, max].
  const noisy = checkRegressions([Q500, Q200, Q500], Q200, [p99], 10).regressions[0];
  assert.equal(noisy.value, high, "the median of the repeats");
  assert.ok(noisy.worsePct > 10 && noisy.withinNoise && noisy.passed, "beyond the bound, within the noise measured");
  assert.deepEqual([noisy.interval?.low, noisy.interval?.high, noisy.interval?.confidence], [low, high, 0.75]);
  // Every repeat like the worse run: no noise covers the baseline, and it regressed.
  const clear = checkRegressions([Q500, Q500, Q500], Q200, [p99], 10).regressions[0];
  assert.ok(!clear.withinNoise && !clear.passed);
  assert.match(regressionLine(clear, "run r_base", 10), /median of 3 repeats [\d.]+ ms \([\d.]+–[\d.]+ ms at 75%, the baseline outside it\)/);
  // Gates on repeats read the pooled figure: every repeat's histograms merged, a rate over all their seconds.
  const [rate] = checkGates([Q200, Q500], [gate("write.perSecond>1")]);
  const pooled = (Q200.operations.write.count + Q500.operations.write.count) / (Q200.window.measuredSeconds + Q500.window.measuredSeconds);
  assert.equal(rate.value, pooled);
});
