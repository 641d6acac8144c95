// The runner process's claim loop end to end: a real control store, a real target, runs created as the app
// creates them.
import assert from "node:assert/strict";
import { test } from "node:test";
import pg from "pg";
import { prisma } from "../lib/db";
import { createRun, requestCancel } from "../lib/runs/store";
import { RunSummary } from "../lib/measurement/summary";
import { WorkloadConfig, type WorkloadInput } from "../lib/workloads/config";
import { runnerLoopFixture } from "./testing";
import { CANCEL_POLL_MS } from "./main";
import { CANCEL_DEADLINE_MS } from "./run-context";
import { RUNNER_STOP_MS } from "./stop";
import { factOf } from "../lib/measurement/verification";
import { throughputOf } from "../lib/measurement/operations";
import { SampleMetrics } from "../lib/measurement/sample";

const RUNNER = "test-runner";
const f = runnerLoopFixture("main", RUNNER);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const queue = (input: WorkloadInput) => createRun({ config: WorkloadConfig.parse(input), targetLabel: "test target" }, prisma());
async function waitFor(id: string, pred: (r: { status: string; phase: string | null }) => boolean, ms = 30_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const r = await prisma().run.findUniqueOrThrow({ where: { id } });
    if (pred(r)) return r;
    await sleep(50);
  }
  throw new Error(`run ${id} did not reach the expected state in ${ms} ms`);
}
const short: WorkloadInput = { kind: "queue", writers: 2, readers: 2, durationSeconds: 2, warmupSeconds: 0, throttleWritesPerSec: 300 };

test("a queued run is claimed, runs with live samples and phases, and completes with its summary", async () => {
  const run = await queue(short);
  const seen = new Set<string>();
  const end = Date.now() + 30_000;
  let r: Awaited<ReturnType<ReturnType<typeof prisma>["run"]["findUniqueOrThrow"]>> | undefined;
  while (Date.now() < end) {
    r = await prisma().run.findUniqueOrThrow({ where: { id: run.id } });
    if (r.phase) seen.add(r.phase);
    if (r.status === "completed" || r.status === "failed") break;
    await sleep(50);
  }
  assert.equal(r!.status, "completed", r!.error ?? "");
  assert.equal(r!.runnerId, RUNNER);
  assert.ok(seen.has("measuring"), `phases seen: ${[...seen]}`);
  const summary = RunSummary.parse(r!.summary);
  assert.equal(summary.verification.ok, true);
  const samples = await prisma().sample.findMany({ where: { runId: run.id }, orderBy: { seq: "asc" } });
  assert.ok(samples.length >= 2);
  assert.deepEqual(
    samples.map((s) => s.seq),
    samples.map((_, i) => i),
  );
  const measured = samples.filter((s) => s.phase === "measuring").reduce((a, s) => a + (throughputOf(SampleMetrics.parse(s.metrics), "write")?.count ?? 0), 0);
  assert.equal(measured, throughputOf(summary, "write")!.count);
});

test("a cancel request stops a running run: read within its poll, ended within the cancel's deadline", async (t) => {
  const run = await queue({ ...short, durationSeconds: 120 });
  await waitFor(run.id, (r) => r.phase === "measuring");
  await sleep(500);
  const asked = Date.now();
  assert.equal(await requestCancel(run.id, prisma()), "requested");
  const r = await waitFor(run.id, (x) => x.status !== "running", 10_000);
  const took = Date.now() - asked;
  assert.equal(r.status, "cancelled");
  // The bound whatever the machine does: the flag read within its poll, the run ended within the engine's deadline (and
  // a second to store it). About 1 s here on a quiet machine (docs/operations.md: within 2 s); a clean-clone CI run's
  // busy cores may take more, which is the machine, not the cancel.
  t.diagnostic(`cancelled after ${took} ms`);
  assert.ok(took < CANCEL_POLL_MS + CANCEL_DEADLINE_MS + 1000, `cancelled after ${took} ms`);
});

test("failing runs are marked failed in words and never stop the runner", async () => {
  // A config the app would refuse (stored by hand), an unreachable saved target, then a good run.
  const bad = await prisma().run.create({
    data: { id: "r_badconfig001", workload: "pubsub", config: { kind: "pubsub", readers: 3, partitions: 4 }, targetLabel: "x", status: "queued" },
  });
  const t = await prisma().target.create({ data: { id: "t_unreach", name: "unreachable", connectionString: "postgresql://u:pw@127.0.0.1:1/db" } });
  const unreachable = await createRun({ config: WorkloadConfig.parse(short), targetId: t.id, targetLabel: t.name }, prisma());
  const good = await queue(short);
  const r1 = await waitFor(bad.id, (r) => r.status !== "queued" && r.status !== "running");
  assert.equal(r1.status, "failed");
  assert.match((r1 as { error: string | null }).error ?? "", /invalid workload config: readers: Readers per group \(3\) must equal Partitions \(4\)/);
  const r2 = await waitFor(unreachable.id, (r) => r.status !== "queued" && r.status !== "running");
  assert.equal(r2.status, "failed");
  assert.match((r2 as { error: string | null }).error ?? "", /cannot connect to the target postgresql:\/\/u:\*\*\*\*@127\.0\.0\.1:1\/db/);
  assert.equal((await waitFor(good.id, (r) => r.status !== "queued" && r.status !== "running")).status, "completed");
});

test("a queued run over the runner's memory budget fails with the estimate before it connects", async () => {
  // Queued by hand (as a run launched before the budget was lowered): 1 writer × 50 × 10 MiB × 4 = 2,000 MiB of
  // writer batches alone, with the loop's budget at most 2 GiB (the default) and readers on top.
  const big = await queue({
    kind: "pubsub",
    writers: 1,
    writeBatch: 50,
    payloadBytes: 10 * 1048576,
    partitions: 1,
    readBatch: 100,
    durationSeconds: 1,
    warmupSeconds: 0,
  });
  const r = await waitFor(big.id, (x) => x.status !== "queued" && x.status !== "running");
  assert.equal(r.status, "failed");
  assert.match(
    (r as { error: string | null }).error ?? "",
    /^this run would hold about [\d.]+ GiB of message data in the runner \(1 writer × write batch 50 × 10 MiB payload × 4 .* or raise RUNNER_MEMORY_BUDGET_MB/,
  );
  assert.equal(await prisma().sample.count({ where: { runId: big.id } }), 0, "it never started");
});

test("a run whose verification fails is marked failed, loudly, and keeps its summary", async () => {
  const run = await queue({
    kind: "pubsub",
    writers: 2,
    partitions: 2,
    consumerGroups: 1,
    writeBatch: 10,
    durationSeconds: 2,
    warmupSeconds: 0,
    throttleWritesPerSec: 1000,
  });
  await waitFor(run.id, (r) => r.phase === "measuring");
  await sleep(300);
  const c = new pg.Client({ connectionString: f.target.url });
  await c.connect();
  await c.query(`UPDATE "pgbb_${run.id}".consumer_offsets SET next_offset = next_offset + 7 WHERE group_id = 'g0' AND topic_id = 1`);
  await c.end();
  const r = await waitFor(run.id, (x) => x.status !== "running");
  assert.equal(r.status, "failed");
  assert.match((r as { error: string | null }).error ?? "", /^verification FAILED: 7 messages lost in group g0 partition 1/);
  assert.equal(r.phase, "verifying", "it failed while verifying, not done");
  const summary = RunSummary.parse((r as { summary: unknown }).summary);
  assert.equal(factOf(summary.verification, "lost"), 7);
});

test("stopping the runner mid-run marks that run interrupted", async () => {
  const run = await queue({ ...short, durationSeconds: 120 });
  await waitFor(run.id, (r) => r.phase === "measuring");
  const t0 = Date.now();
  await f.loop.stop();
  assert.ok(Date.now() - t0 < RUNNER_STOP_MS, `stopped after ${Date.now() - t0} ms`);
  const r = await prisma().run.findUniqueOrThrow({ where: { id: run.id } });
  assert.equal(r.status, "interrupted");
  assert.match(r.error ?? "", /runner was stopped/);
});
