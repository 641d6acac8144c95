// The wait sampler's cost budget: how often it may read for what a reading costs and what the target spends.
import assert from "node:assert/strict";
import { test } from "node:test";
import { budgetPeriodMs, WAITS_COST_SHARE } from "./waits";

test("the sampler reads 10 times a second on a busy target, less on a light one, never under once a second", () => {
  // A reading costs the target 0.3 ms (the runner's side is the runner's own CPU, not the target's).
  const cost = 0.0003;
  // Two busy cores: 10 readings a second cost 3 ms a second, 0.15 % of 2 cores: the full rate.
  assert.equal(budgetPeriodMs(cost, 2, 100, 100), 100);
  // A tenth of a core: 0.9 % of it is 0.9 ms a second, 3 readings of 0.3 ms.
  const light = budgetPeriodMs(cost, 0.1, 100, 100);
  assert.ok(Math.abs(light - 1000 / 3) < 1e-9, `period ${light} ms`);
  assert.ok(((cost * 1000) / light) * 100 <= 100 * WAITS_COST_SHARE * 0.1 + 1e-12);
  // Nearly idle: the slowest, once a second.
  assert.equal(budgetPeriodMs(cost, 0.01, 100, 100), 1000);
  // Nothing measured (a remote target, the first sample): the period stays.
  assert.equal(budgetPeriodMs(0, 1, 100, 200), 200);
  assert.equal(budgetPeriodMs(cost, 0, 100, 200), 200);
});
