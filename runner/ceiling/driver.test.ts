// The driver's reading of a step's run, pure: the runner's load judged against the goal, and the telemetry
// verdict carried into the step.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { RunSummary } from "../../lib/measurement/summary";
import { parseSlo, type Slo } from "../../lib/ceiling/slo";
import { bottleneckOf, clientLoadOf } from "./driver";

const goal = (t: string): Slo => (parseSlo(t) as { ok: true; slo: Slo }).slo;
/** A summary carrying only what these read: the runner's load over the window (as the engine records it). */
const withLoad = (delayMs: number, cpuCores: number) =>
  ({
    runnerLoad: {
      loopDelayMs: { p50: delayMs / 2, p99: delayMs, max: delayMs },
      exposedDelayMs: delayMs,
      cpuCores,
      maxCpuCores: cpuCores,
      clientBound: false,
      judgedAgainst: { metric: "write", p99: 2 },
    },
  }) as unknown as RunSummary;

test("the runner's delay is judged against the goal's latency or its limit, whichever is larger", () => {
  const e2e = { label: "e2e from schedule", p99Ms: 30 };
  // 4 ms beside a 1 s goal: cannot move the verdict (the run page, against a 2 ms write p99, says client-bound).
  assert.equal(clientLoadOf(withLoad(4, 0.3), e2e, goal("p99<1s"))!.clientBound, false);
  // 4 ms beside a 20 ms goal (the measured 30 ms p99 is larger: 10% is 3 ms): it can.
  const tight = clientLoadOf(withLoad(4, 0.3), e2e, goal("p99<20ms"))!;
  assert.equal(tight.clientBound, true);
  assert.match(tight.reason, /against a e2e from schedule p99 of 30\.0 ms/);
  // A core's worth of CPU is client-bound whatever the goal.
  assert.equal(clientLoadOf(withLoad(0.5, 0.95), e2e, goal("p99<1s"))!.clientBound, true);
  // A run that did not record the runner's load: nothing to judge.
  assert.equal(clientLoadOf({} as RunSummary, e2e, goal("p99<1s")), null);
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
