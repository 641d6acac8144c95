// The driver's reading of a step's run, pure: the runner's starvation facts, and the telemetry
// verdict carried into the step.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { RunSummary } from "../../lib/measurement/summary";
import { bottleneckOf, clientLoadOf, schedTimesNs } from "./driver";

/** A summary carrying only what these read: the runner's load over the window (as the engine records it), and
 *  a queue's write latency. */
const withLoad = (delayMs: number, cpuCores: number) =>
  ({
    config: { kind: "queue" },
    operations: {
      write: { count: 100, perSecond: 10, errors: 0, latency: { fromSend: { p50: 1.5, p90: 2, p95: 2, p99: 3, p999: 4, max: 5, mean: 1.6, count: 100 } } },
    },
    runnerLoad: {
      loopDelayMs: { p50: delayMs / 2, p99: delayMs, max: delayMs },
      exposedDelayMs: delayMs,
      cpuCores,
      maxCpuCores: cpuCores,
      clientBound: false,
      judgedAgainst: { metric: "write", p99: 2 },
    },
  }) as unknown as RunSummary;

test("the runner's starvation facts: its stall over 1% of the window, its CPU, its run-queue wait, the operation's service time", () => {
  const l = clientLoadOf(withLoad(440, 0.3), { run: 0.2, wait: 0.12 })!;
  assert.deepEqual(l, { cpuCores: 0.3, eventLoopP99Ms: 440, exposedDelayMs: 440, runQueueShare: 0.12, mainRunShare: 0.2, serviceMs: 1.5 });
  // A run that did not record the runner's load: nothing to judge.
  assert.equal(clientLoadOf({} as RunSummary, null), null);
});

test("the main thread's run and run-queue wait are read from /proc/self/schedstat where Linux has it", () => {
  const t = schedTimesNs();
  if (process.platform === "linux") assert.ok(t !== null && t.run > 0 && t.wait >= 0, `read ${JSON.stringify(t)}`);
});

test("a step carries its run's telemetry verdict when the run recorded one", () => {
  const t = {
    telemetry: {
      verdict: {
        category: "wal-flush-bound",
        statement: "WAL-flush-bound: 6 of 10 backends waited on WALWrite",
        evidence: [],
        also: [],
        findings: [],
        blindSpots: [],
      },
    },
  };
  assert.deepEqual(bottleneckOf(t as unknown as RunSummary), {
    category: "wal-flush-bound",
    statement: "WAL-flush-bound: 6 of 10 backends waited on WALWrite",
  });
  assert.equal(bottleneckOf({} as RunSummary), undefined);
});
