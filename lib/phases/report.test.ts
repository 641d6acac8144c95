import assert from "node:assert/strict";
import { test } from "node:test";
import { recoveryOf, recoveryRuleText } from "./report";

const before = { seconds: 10, perSecond: 1000, backlogMax: 50 };
const second = (fromSec: number, perSecond: number, backlog?: number) => ({ fromSec, perSecond, ...(backlog !== undefined ? { backlog } : {}) });

test("recovered: the start of the first 3 seconds in a row at ≥ 90% of the rate before, the backlog back near its level", () => {
  // Catching up: the rate is high at once, but the backlog drains only by the third second.
  const after = [second(0, 3000, 5000), second(1, 3000, 2000), second(2, 1200, 90), second(3, 950, 60), second(4, 1000, 40), second(5, 990, 30)];
  assert.equal(recoveryOf(after, before), 2);
  // Never three good seconds in a row: not recovered.
  assert.equal(recoveryOf([second(0, 950, 10), second(1, 950, 10), second(2, 100, 10), second(3, 950, 10), second(4, 950, 10)], before), null);
  // No backlog kept: the rate alone.
  assert.equal(recoveryOf([second(0, 500), second(1, 900), second(2, 950), second(3, 1000)], { seconds: 10, perSecond: 1000 }), 1);
  assert.match(recoveryRuleText(before, "msg"), /back at ≥ 900 msg\/s \(90% of the 1,000 before it\) with a backlog of at most 100, 3 s in a row/);
  assert.match(recoveryRuleText(null, "msg"), /no rate before the phase to recover to/);
});
