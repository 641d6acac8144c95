import assert from "node:assert/strict";
import { test } from "node:test";
import { recoveryOf, recoveryRuleText } from "./report";
import { phasesOf } from "./shape";
import { phasesClause, phasesInWindow } from "./window";

const before = { seconds: 10, perSecond: 1000, backlogMax: 50 };
const second = (fromSec: number, perSecond: number, backlog?: number) => ({ fromSec, perSecond, ...(backlog !== undefined ? { backlog } : {}) });

test("recovered: the start of the first 3 seconds in a row at ≥ 90% of the rate before together, each backlog back near its level", () => {
  // Catching up: the rate is high at once, but the backlog drains only by the third second.
  const after = [second(0, 3000, 5000), second(1, 3000, 2000), second(2, 1200, 90), second(3, 950, 60), second(4, 1000, 40), second(5, 990, 30)];
  assert.equal(recoveryOf(after, before), 2);
  // A consumer fetching in batches: bursty second by second, at the rate over the three together.
  assert.equal(recoveryOf([second(0, 400, 30), second(1, 1700, 20), second(2, 900, 40), second(3, 1000, 10)], before), 0);
  // A slow second pulls three seconds below the floor, and a backlog over its ceiling in any one of them: not back.
  assert.equal(recoveryOf([second(0, 950, 10), second(1, 950, 10), second(2, 100, 10), second(3, 950, 10), second(4, 950, 10)], before), null);
  assert.equal(recoveryOf([second(0, 1000, 10), second(1, 1000, 500), second(2, 1000, 10), second(3, 1000, 10)], before), null);
  // No backlog kept: the rate alone.
  assert.equal(recoveryOf([second(0, 500), second(1, 900), second(2, 950), second(3, 1000)], { seconds: 10, perSecond: 1000 }), 1);
  assert.match(recoveryRuleText(before, "msg"), /back at ≥ 900 msg\/s over 3 s in a row \(90% of the 1,000 before it\), the backlog at most 100 in each/);
  assert.match(recoveryRuleText(null, "msg"), /no rate before the phase to recover to/);
  // A paced run whose seconds before the phase caught up above the rate asked: back means back at the rate asked.
  const caughtUp = { seconds: 3, perSecond: 380, backlogMax: 1 };
  const steady = [second(0, 300, 2), second(1, 301, 1), second(2, 299, 3)];
  assert.equal(recoveryOf(steady, caughtUp), null);
  assert.equal(recoveryOf(steady, caughtUp, 300), 0);
  assert.match(recoveryRuleText(caughtUp, "msg", 300), /back at ≥ 270 msg\/s over 3 s in a row \(90% of the 300 asked; 380 before it\)/);
});

test("the phases inside the measured window, with the seconds of it each covered, and the words conclusions add", () => {
  const config = { phases: "hold-xmin@2s+5s, pause-workers@30s+20s", warmupSeconds: 5, durationSeconds: 40 };
  // The hold began in the warm-up (2 of its 5 s in the window); the pause ends after the window (15 of its 20 s in it).
  assert.deepEqual(phasesInWindow(config), [
    { text: "hold-xmin@2s+5s", kind: "hold-xmin", seconds: 2 },
    { text: "pause-workers@30s+20s", kind: "pause-workers", seconds: 15 },
  ]);
  assert.deepEqual(phasesInWindow({ ...config, phases: "hold-xmin@0s+5s" }), []);
  // An instant covers no seconds: it is in the window when it acts in it, and the words say when.
  const kill = { ...config, phases: "kill-backend@4s, kill-backend@12s" };
  assert.deepEqual(phasesInWindow(kill), [{ text: "kill-backend@12s", kind: "kill-backend", seconds: 0, atSec: 12 }]);
  assert.match(phasesClause(phasesInWindow(kill), 40), /^the run's own phase kill-backend@12s terminated one of its backends at 12 s of the 40 s window/);
  // Given the run's reports: a phase that never began did nothing to the window (the verdict must not say it did), and
  // one cut short covered the seconds it really lasted.
  const [hold, pause] = phasesOf(config);
  const reports = [
    { phase: hold, startedSec: null, endedSec: null },
    { phase: pause, startedSec: 30.1, endedSec: 38.2 },
  ];
  const carried = phasesInWindow(config, reports);
  assert.deepEqual(
    carried.map((p) => p.text),
    ["pause-workers@30s+20s"],
  );
  assert.ok(Math.abs(carried[0].seconds - 8.1) < 1e-9, String(carried[0].seconds));
  assert.deepEqual(phasesInWindow(kill, [{ phase: phasesOf(kill)[1], startedSec: null, endedSec: null }]), []);
  assert.equal(
    phasesClause(phasesInWindow(config), 40),
    "the run's own phases hold-xmin@2s+5s held a snapshot open for 2 s, pause-workers@30s+20s paused the consumers for 15 s of the 40 s window, and these figures include them: each phase's before, during and after are in its report",
  );
});
