// A ceiling search queued as the app queues it, claimed and executed by the runner's claim loop against a
// real control store and target: steps stored as they finish, the step in progress shown, the outcome stored;
// a cancel keeps the steps done.
import assert from "node:assert/strict";
import { test } from "node:test";
import { prisma } from "../../lib/db";
import { bracketOf } from "../../lib/ceiling/search";
import { CeilingSettings } from "../../lib/ceiling/settings";
import { createSearch, requestSearchCancel, type SearchOutcome, type StepProgress } from "../../lib/ceiling/store";
import { WorkloadConfig } from "../../lib/workloads/config";
import type { CeilingStep } from "./driver";
import { runnerLoopFixture } from "../testing";

const _f = runnerLoopFixture("ceiling", "ceiling-runner");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const config = WorkloadConfig.parse({ kind: "queue", writers: 1, readers: 1, warmupSeconds: 1, durationSeconds: 3 });
const queueSearch = (settings: Record<string, unknown>) =>
  createSearch(
    { config, settings: CeilingSettings.parse({ slo: "p90<1s", stepSeconds: 3, confirmSeconds: 3, ...settings }), targetLabel: "test target" },
    prisma(),
  );

test("a queued search runs its steps in the runner, each stored as it finishes, and stores its outcome", async () => {
  // Two steps, 20 then 40 msg/s: what is checked here is the recording, whatever their verdicts.
  const s = await queueSearch({ startRate: 20, maxRate: 40, maxSteps: 2 });
  const progressSeen: StepProgress[] = [];
  const stepsSeen = new Set<number>();
  const end = Date.now() + 60_000;
  let row = await prisma().ceilingSearch.findUniqueOrThrow({ where: { id: s.id } });
  while (Date.now() < end) {
    row = await prisma().ceilingSearch.findUniqueOrThrow({ where: { id: s.id } });
    if (row.progress) progressSeen.push(row.progress as unknown as StepProgress);
    stepsSeen.add(await prisma().ceilingStepRow.count({ where: { searchId: s.id } }));
    if (!["queued", "running"].includes(row.status)) break;
    await sleep(100);
  }
  assert.equal(row.status, "completed", row.error ?? "");
  assert.ok(stepsSeen.has(1), `the first step was stored before the search ended (counts seen: ${[...stepsSeen]})`);
  assert.ok(
    progressSeen.some((p) => p.phase === "measuring" && p.sample && p.rate === 20),
    "the step in progress showed its live sample",
  );
  assert.equal(row.progress, null, "no step in progress once finished");
  const steps = await prisma().ceilingStepRow.findMany({ where: { searchId: s.id }, orderBy: { index: "asc" } });
  const judged = steps.map((x) => x.step as unknown as CeilingStep);
  assert.deepEqual(
    judged.filter((x) => !x.confirmation && !x.starved).map((x) => x.rate),
    [20, 40],
  );
  // The stored outcome is the one its stored steps give, the confirmation run among them.
  const result = row.result as unknown as SearchOutcome;
  assert.deepEqual(result.bracket, bracketOf(judged));
  assert.equal(result.ceiling, bracketOf(judged).low);
  assert.ok(
    judged.some((x) => x.confirmation),
    "the rate found was confirmed by one more run",
  );
  if (result.confirmation != null) assert.equal(judged[result.confirmation].confirmation, true);
  const first = steps[0].step as unknown as CeilingStep;
  assert.equal(first.goal.name, "e2eScheduled", "the goal is checked on e2e from each message's scheduled time");
  assert.equal(first.sustained, steps[0].sustained);
  assert.ok(first.achievedRate > 19, `achieved ${first.achievedRate}`);
  assert.equal((steps[0].summary as { histograms?: unknown }).histograms, undefined, "stored without histograms");
});

test("a cancel stops the search within a few seconds and keeps the steps done", async () => {
  const s = await queueSearch({ startRate: 10, maxRate: 1000, stepSeconds: 3 });
  const end = Date.now() + 60_000;
  while (Date.now() < end && (await prisma().ceilingStepRow.count({ where: { searchId: s.id } })) < 1) await sleep(100);
  assert.equal(await requestSearchCancel(s.id, prisma()), "requested");
  const asked = Date.now();
  let row = await prisma().ceilingSearch.findUniqueOrThrow({ where: { id: s.id } });
  while (Date.now() - asked < 15_000 && row.status === "running") {
    await sleep(100);
    row = await prisma().ceilingSearch.findUniqueOrThrow({ where: { id: s.id } });
  }
  assert.equal(row.status, "cancelled");
  assert.ok(Date.now() - asked < 5000, `stopped ${Date.now() - asked} ms after the request`);
  assert.match(row.error ?? "", /steps done are kept/);
  const steps = await prisma().ceilingStepRow.findMany({ where: { searchId: s.id } });
  assert.ok(steps.length >= 1);
  assert.equal((row.result as unknown as SearchOutcome).stop, "cancelled");
  assert.deepEqual((row.result as unknown as SearchOutcome).bracket, bracketOf(steps));
  assert.equal(await requestSearchCancel(s.id, prisma()), "finished");
});
