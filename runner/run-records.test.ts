// What the control store keeps of a run or a ceiling search that did not complete, on a real control store and
// target with the runner's claim loop: a run that failed while measuring keeps that phase (not "done"); a
// search whose runner was stopped or died names the step and the phase it was in, as a run names its phase.
import assert from "node:assert/strict";
import os from "node:os";
import { test } from "node:test";
import pg from "pg";
import { CeilingSettings } from "../lib/ceiling/settings";
import { createSearch, interruptSearchesOfProcess, markInterruptedSearches, type StepProgress } from "../lib/ceiling/store";
import { prisma } from "../lib/db";
import { createRun } from "../lib/runs/store";
import { WorkloadConfig } from "../lib/workloads/config";
import { runnerLoopFixture } from "./testing";

const RUNNER = "records-runner";
const f = runnerLoopFixture("records", RUNNER);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const v = await check();
    if (v) return v;
    await sleep(100);
  }
  throw new Error(`timed out after ${ms / 1000} s waiting for ${what}`);
}
const config = WorkloadConfig.parse({ kind: "queue", writers: 1, readers: 1, warmupSeconds: 0, durationSeconds: 60, throttleWritesPerSec: 100 });

test("a run that fails while measuring keeps the phase it failed in", async () => {
  const run = await createRun({ config, targetLabel: "test target" }, prisma());
  await until("the run to measure", async () => (await prisma().run.findUniqueOrThrow({ where: { id: run.id } })).phase === "measuring");
  // The writer's and reader's connections are cut: the run fails; its admin connection still tears it down.
  const c = new pg.Client({ connectionString: f.target.url });
  await c.connect();
  await c.query(
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name IN ('pgbb writer 0', 'pgbb reader 0') AND datname = current_database()",
  );
  await c.end();
  const r = await until("the run to end", async () => {
    const x = await prisma().run.findUniqueOrThrow({ where: { id: run.id } });
    return x.status !== "running" && x;
  });
  assert.equal(r.status, "failed");
  assert.match(r.error ?? "", /lost/);
  assert.equal(r.phase, "measuring", "not done: it failed while measuring");
});

test("a search whose runner died names the step and the phase it was in; a silent runner's search too", async () => {
  const db = prisma();
  const settings = CeilingSettings.parse({ slo: "p99<1s", stepSeconds: 3 });
  const progress: StepProgress = { index: 2, rate: 4000, phase: "measuring" };
  // A runner process as npm start's supervisor sees it die: its host and pid.
  await db.runner.create({ data: { id: "dead-runner", host: os.hostname(), pid: 999_999, version: "t", lastHeartbeat: new Date(), startedAt: new Date() } });
  const s = await createSearch({ config, settings, targetLabel: "t", status: "running" }, db);
  await db.ceilingSearch.update({ where: { id: s.id }, data: { runnerId: "dead-runner", progress: progress as object } });
  assert.deepEqual(await interruptSearchesOfProcess(os.hostname(), 999_999, "the runner process died (SIGKILL)", db), [s.id]);
  const row = await db.ceilingSearch.findUniqueOrThrow({ where: { id: s.id } });
  assert.equal(row.status, "interrupted");
  assert.equal(row.error, "the runner process died (SIGKILL) while measuring step 3 (at 4,000/s); the steps it finished are kept");

  // A runner that went silent (its heartbeat stale) is found by the sweep, with the same precision.
  await db.runner.create({ data: { id: "silent", host: "elsewhere", pid: 1, version: "t", lastHeartbeat: new Date(0), startedAt: new Date(0) } });
  const t = await createSearch({ config, settings, targetLabel: "t", status: "running" }, db);
  await db.ceilingSearch.update({ where: { id: t.id }, data: { runnerId: "silent", progress: { ...progress, phase: "draining" } as object } });
  assert.equal(await markInterruptedSearches(db), 1);
  assert.match(
    (await db.ceilingSearch.findUniqueOrThrow({ where: { id: t.id } })).error ?? "",
    /^the runner executing this search stopped heart-beating \(it was killed or lost its connection\) while draining step 3 \(at 4,000\/s\)/,
  );
});

test("a search (or run) on the app's own control store is refused by the runner, naming why", async () => {
  // Saved before targets were checked on saving: the runner refuses it anyway, writing nothing there.
  const t = await prisma().target.create({ data: { id: "t_ownstore01", name: "own store", connectionString: f.control.url } });
  const settings = CeilingSettings.parse({ slo: "p99<1s", stepSeconds: 3, startRate: 20, maxRate: 40, maxSteps: 2 });
  const s = await createSearch({ config, settings, targetId: t.id, targetLabel: t.name }, prisma());
  const run = await createRun({ config, targetId: t.id, targetLabel: t.name }, prisma());
  const ended = (x: { status: string }) => x.status !== "queued" && x.status !== "running";
  const row = await until("the search to end", async () => {
    const x = await prisma().ceilingSearch.findUniqueOrThrow({ where: { id: s.id } });
    return ended(x) && x;
  });
  assert.equal(row.status, "failed");
  assert.match(row.error ?? "", /this is the app's own control store database; benchmark runs would write into it/);
  const r = await until("the run to end", async () => {
    const x = await prisma().run.findUniqueOrThrow({ where: { id: run.id } });
    return ended(x) && x;
  });
  assert.equal(r.status, "failed");
  assert.match(r.error ?? "", /^this is the app's own control store database/);
  assert.equal(r.phase, "setup");
  const c = new pg.Client({ connectionString: f.control.url });
  await c.connect();
  const schemas = await c.query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'pgbb_%'");
  await c.end();
  assert.equal(schemas.rowCount, 0, "nothing was written into the control store");
});

test("a search whose runner is stopped mid-step names the step and its phase", async () => {
  const s = await createSearch(
    {
      config: WorkloadConfig.parse({ kind: "queue", writers: 1, readers: 1, warmupSeconds: 0, durationSeconds: 3 }),
      settings: CeilingSettings.parse({ slo: "p99<1s", stepSeconds: 30, startRate: 20, maxRate: 40, maxSteps: 2 }),
      targetLabel: "test target",
    },
    prisma(),
  );
  await until("the first step to measure", async () => {
    const row = await prisma().ceilingSearch.findUniqueOrThrow({ where: { id: s.id } });
    return (row.progress as StepProgress | null)?.phase === "measuring";
  });
  await f.loop.stop("the runner was stopped (SIGTERM)");
  const row = await prisma().ceilingSearch.findUniqueOrThrow({ where: { id: s.id } });
  assert.equal(row.status, "interrupted");
  assert.equal(row.error, "the runner was stopped (SIGTERM) while measuring step 1 (at 20/s); the steps it finished are kept");
});
