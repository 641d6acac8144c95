// The CLI's text, the live line and the summary, for a run whose latencies reach seconds: every latency carries
// its unit, seconds from a second on ("16.2 s"), never a bare "16,245" under an "(ms)" header. The summary is a
// recorded run's (fixtures/client-bound-run.json) with a stalled end-to-end tail and a long event-loop stall.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import type { LatencyStats } from "../lib/measurement/metrics";
import { RunSummary } from "../lib/measurement/summary";
import { PROJECT_ROOT } from "../lib/paths";
import { liveLine, summaryText } from "./format";
import type { Report } from "./core/stats";

const recorded = RunSummary.parse(JSON.parse(readFileSync(path.join(PROJECT_ROOT, "fixtures/client-bound-run.json"), "utf8")).run.summary);

const stalled: LatencyStats = { p50: 1.581, p90: 2_400.5, p95: 9_994, p99: 16_244.735, p999: 59_900, max: 125_000, mean: 1_204.4, count: 12_345 };
const summary: RunSummary = {
  ...recorded,
  operations: { ...recorded.operations, e2e: { ...recorded.operations.e2e!, latency: { fromSend: stalled } } },
  runnerLoad: { ...recorded.runnerLoad!, loopDelayMs: { p50: 0.002, p99: 147.155, max: 2_148.597 }, exposedDelayMs: 1_500 },
};

test("the CLI summary: multi-second latencies in seconds, each cell with its unit, thousands separated", () => {
  const text = summaryText(summary, "embedded default");
  const row = text.split("\n").find((l) => /^end-to-end\b/.test(l));
  assert.ok(row, text);
  assert.deepEqual(
    row
      .trim()
      .split(/\s{2,}/)
      .slice(1),
    ["1.581 ms", "2.4 s", "9.99 s", "16.2 s", "59.9 s", "125 s", "1.2 s", "12,345"],
  );
  assert.match(text, /^latency\s+p50\s+p90/m, "the header names no unit: each cell carries its own");
  assert.doesNotMatch(text, /latency \(ms\)/);
  assert.match(text, /runner event loop: delay p50 0\.002 ms p99 147\.155 ms max 2\.15 s \(1\.5 s or more over 1% of the time\)/);
  assert.doesNotMatch(text, /\d{1,3},\d{3}(\.\d+)? ms/, "never a latency such as 16,244.735 ms");
});

test("the CLI's live line: each latency with its unit, a second-long one in seconds", () => {
  const report = {
    elapsedSec: 12,
    phase: "measuring",
    writesPerSec: 1_500,
    readsPerSec: 1_480,
    rates: {},
    backlog: 20,
    latencyMs: { write: { ...stalled, p50: 0.8, p99: 3.25 }, read: { ...stalled, p50: 1.1, p99: 4 }, e2e: stalled },
    errors: 0,
    runnerLoad: { loopDelayMaxMs: 1_250, cpuCores: 0.4, clientBound: true },
  } as unknown as Report;
  const line = liveLine(report, "queue");
  assert.match(line, /e2e p50 1\.581 ms p99 16\.2 s/);
  assert.match(line, /write p50 0\.8 ms p99 3\.25 ms/);
  assert.match(line, /loop max 1\.25 s/);
  assert.doesNotMatch(line, /16,24\d/);
});
