// The ceiling search end to end on the embedded Postgres: the queue workload, steps of a few seconds, on a target
// whose capacity is set (./ceiling-testing.ts says how and why). Its answer, and that it holds with steps twice as
// long; ./ceiling-paths.test.ts has the search's other paths (two files, so that neither waits for the other).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { findCeiling } from "./driver";
import { capacity, lines, options, stall, stoppedStarved, useCapacityTarget } from "./ceiling-testing";

useCapacityTarget("ceiling");

describe("ceiling search on the embedded Postgres", () => {
  test("finds the queue's ceiling, confirms it by a longer run, and finds the same with steps twice as long", async () => {
    await capacity(0.05);
    // The runner stalls 150 ms a second throughout, as on a loaded machine: under a 1 s goal that decides
    // nothing, so no step may be charged for it (nor may the stall be held against 10% of the goal).
    const stop = stall(150, 1000);
    const results = [];
    try {
      for (const stepSeconds of [2, 4]) {
        const told: string[] = [];
        const r = await findCeiling({
          ...options({ stepSeconds, confirmSeconds: 2 * stepSeconds }),
          // A step this loaded machine starved is run again: the steps judged are these.
          onStep: (s) => void (s.starved || told.push(`${s.confirmation ? "c" : ""}${s.rate}`)),
        });
        const text = lines(r.steps);
        if (stoppedStarved(r, text)) continue;
        assert.equal(r.stop, "converged", text);
        // 90 is found and confirmed; on a machine whose other work starves the runner (not to the point of being
        // called starved) the confirmation at 90 may fall short: then 90 is not reported and 30 is confirmed.
        const confirmedLower = told.includes("c30");
        assert.deepEqual(told, ["30", "90", "270", "c90", ...(confirmedLower ? ["c30"] : [])], `every step is told as it is judged\n${text}`);
        const found = confirmedLower ? 30 : 90;
        assert.equal(r.ceiling, found, text);
        assert.deepEqual(r.bracket, confirmedLower ? { low: 30, high: 90 } : { low: 90, high: 270 });
        // The confirmation: a run twice a step's length at the rate found, sustained, with its numbers.
        const c = r.confirmation!;
        assert.ok(c, text);
        assert.equal(c.rate, found);
        assert.ok(c.measuredSeconds >= 2 * stepSeconds - 0.1, `confirmation window ${c.measuredSeconds} s`);
        assert.ok(c.achievedRate > found * 0.98, `confirmation achieved ${c.achievedRate}`);
        assert.ok(c.goal.stats && c.goal.stats.p99 < 1000);
        // The step above says what failed, with its numbers: 10 writers of 50 ms inserts cannot make 270 a second.
        const above = r.failedAbove!;
        assert.equal(above.rate, 270);
        assert.ok(
          above.verdict.failures.some((f) => f.condition === "rate" && /achieved [\d.]+ msg\/s of the 270 msg\/s target/.test(f.message)),
          text,
        );
        assert.ok(above.achievedRate < 205, `10 writers of 50 ms inserts allow at most 200 msg/s: ${above.achievedRate}`);
        for (const s of r.steps) {
          assert.ok(s.client && s.client.cpuCores > 0, `step ${s.rate}: runner load measured`);
          assert.equal(s.goal.name, "e2eScheduled", "the goal is checked on e2e from each message's scheduled time");
          assert.ok(s.bottleneck?.statement, `step ${s.rate}: its run's telemetry verdict is kept`);
        }
        results.push(r);
      }
    } finally {
      stop();
    }
    // Only the step length changed: both answers are confirmed and their brackets overlap (the true ceiling lies
    // in both), so the answer does not depend on the step length beyond its stated bracket.
    if (results.length < 2) return;
    const [short, long] = results;
    const said = `[${short.bracket.low}, ${short.bracket.high}] with 2 s steps, [${long.bracket.low}, ${long.bracket.high}] with 4 s steps`;
    assert.ok(short.confirmation && long.confirmation, `both confirmed: ${said}`);
    assert.ok(short.bracket.low! < long.bracket.high! && long.bracket.low! < short.bracket.high!, `the brackets overlap: ${said}`);
  });
});
