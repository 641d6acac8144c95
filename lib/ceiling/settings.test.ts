// A ceiling search's longest total, stated on the form before it starts: every step a run of the config's
// warm-up, the step's window and up to the drain, at most the maximum number of steps, and up to 3 confirmation
// runs (each 60 s or 4 steps' length by default).
import assert from "node:assert/strict";
import { test } from "node:test";
import { MAX_DRAIN_SECONDS, runTimeOf } from "../workloads/config";
import { CeilingSettings, ceilingSecondsAtMost } from "./settings";

test("the longest a search loads the target is its maximum steps times one step's run, and its confirmations", () => {
  const defaults = CeilingSettings.parse({ slo: "p99<50ms" });
  // 16 steps × (5 s warm-up + 30 s + up to 10 s draining), and 3 confirmations × (5 s + 4 × 30 s + 10 s).
  assert.equal(ceilingSecondsAtMost(defaults, 5), 16 * (5 + 30 + MAX_DRAIN_SECONDS) + 3 * (5 + 120 + MAX_DRAIN_SECONDS));
  const one = (durationSeconds: number) => runTimeOf({ warmupSeconds: 0, durationSeconds }).total;
  assert.equal(ceilingSecondsAtMost({ stepSeconds: 10, maxSteps: 4 }, 0), 4 * one(10) + 3 * one(60));
  assert.equal(ceilingSecondsAtMost({ stepSeconds: 10, maxSteps: 4, confirmSeconds: 20 }, 0), 4 * one(10) + 3 * one(20));
});
