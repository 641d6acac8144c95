// A ceiling search where the runner, not the target, is the limit, as on a laptop running the target and the
// runner side by side with other work: six busy loops pinned to CPU 0 with this process (the runner), the
// target's Postgres free on the other CPU. The search grows ×4 until the runner cannot drive a rate (each try
// starved), and must then end with the rate below confirmed by a longer run: a confirmed lower bound, with what
// stopped it and what to do, in the words every surface shows (lib/ceiling/answer.ts).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { answerOfResult } from "../../lib/ceiling/answer";
import { goalMetric } from "../../lib/ceiling/facts";
import { SEARCH_DEFAULTS } from "../../lib/ceiling/search";
import { parseSlo } from "../../lib/ceiling/slo";
import { type CpuHogs, cpuHogs, testDatabase } from "../../lib/testing";
import { WorkloadConfig } from "../../lib/workloads/config";
import { findCeiling } from "./driver";

let db: { url: string; drop: () => Promise<void> };
let hogs: CpuHogs;

before(async () => {
  db = await testDatabase("hog_ceiling");
  hogs = await cpuHogs(6);
});
after(async () => {
  hogs?.stop();
  await db.drop();
});

// The goal is on p90, which 2 s steps decide without running longer: what ends this search is the runner.
test("beside a CPU hog the search ends with a confirmed lower bound, what stopped it and what to do", { timeout: 15 * 60_000 }, async () => {
  const slo = parseSlo("p90<2s");
  const metric = goalMetric("queue");
  assert.ok(slo.ok && metric.ok);
  const lines: string[] = [];
  const r = await findCeiling({
    base: WorkloadConfig.parse({ kind: "queue", writers: 4, readers: 2, payloadBytes: 100, durationSeconds: 3, warmupSeconds: 1 }),
    targetUrl: db.url,
    slo: slo.slo,
    metric: metric.metric,
    stepSeconds: 2,
    confirmSeconds: 4,
    warmupSeconds: 1,
    search: { ...SEARCH_DEFAULTS, startRate: 50, maxRate: 1_000_000, growth: 4, precision: 0.5, maxSteps: 10 },
    log: (l) => lines.push(l),
  });
  const text = r.steps
    .map(
      (s) =>
        `${s.confirmation ? "confirm " : ""}${s.rate}: ${s.sustained ? "sustained" : s.starved ? `starved: ${s.verdict.starved}` : s.verdict.failures.map((f) => f.message).join("; ")}`,
    )
    .join("\n");
  assert.equal(r.stop, "starved", `the runner, not the target, ended it\n${text}`);
  // The search's own steps: the confirmation may be starved too, and is run again (then measured) on its own account.
  const starved = r.steps.filter((s) => s.starved && !s.confirmation);
  assert.ok(starved.length >= 3, text);
  // The rate the runner could not drive: starved on its last three tries (a lower one may have been starved once and then measured).
  const limit = starved.at(-1)!.rate;
  assert.ok(
    starved.slice(-3).every((s) => s.rate === limit),
    text,
  );
  // The hogs may starve every longer run too (a clean-clone CI run: the runner's main thread ran 11–14 % of each of
  // three): then nothing is confirmed, and the answer says why rather than confirming what it could not measure.
  const confirmations = r.steps.filter((s) => s.confirmation);
  if (!r.confirmation && confirmations.length >= 3 && confirmations.every((s) => s.starved)) {
    const a = answerOfResult(r, slo.slo, metric.metric.label, "msg");
    assert.equal(a.kind, "unconfirmed-lower-bound", text);
    assert.match(JSON.stringify(a), new RegExp(`starved each of the ${confirmations.length} times it was run`), text);
    return;
  }
  // The rate below the one the runner could not drive is confirmed by a longer run and reported as a lower bound.
  assert.ok(r.confirmation, `a longer run confirmed the rate found\n${text}`);
  assert.ok(r.confirmation.rate < limit && r.confirmation.measuredSeconds >= 3.9, text);
  assert.equal(r.ceiling, r.confirmation.rate);
  const a = answerOfResult(r, slo.slo, metric.metric.label, "msg");
  assert.equal(a.kind, "confirmed-lower-bound", text);
  assert.match(a.status, /confirmed lower bound/);
  // What stopped it, and what to do: more runner processes, another machine, or a lower goal.
  assert.match(a.stopped ?? "", /the runner could not drive a higher rate/);
  assert.match(a.stopped ?? "", /--processes/);
  assert.match(a.stopped ?? "", /another machine/);
  assert.match(a.stopped ?? "", /lower goal/);
});
