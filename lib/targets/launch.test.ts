// POST /api/runs as a client sees it: every bad field at once, in the form's words; absent optional fields
// take their defaults, present but unusable ones are refused. Real control store and target, no mocks.
import assert from "node:assert/strict";
import os from "node:os";
import { test } from "node:test";
import { POST } from "../../app/api/runs/route";
import { prisma } from "../db";
import { getRun } from "../runs/store";
import { registerRunner } from "../status/runners";
import { WorkloadConfig } from "../workloads/config";
import { partsProblem } from "../workloads/parts";
import { appDatabases } from "../app-testing";

appDatabases("launch");

async function post(config: unknown): Promise<{ status: number; body: { error?: string; fields?: Record<string, string>; id?: string } }> {
  const res = await POST(
    new Request("http://127.0.0.1/api/runs", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ config }) }),
  );
  return { status: res.status, body: await res.json() };
}

test("the API answers every bad field at once, as the form does", async () => {
  const r = await post({ kind: "pubsub", writers: 0, readers: 3, partitions: 2 });
  assert.equal(r.status, 400);
  assert.deepEqual(r.body, {
    error: "invalid config",
    fields: {
      writers: "Writers must be at least 1",
      readers:
        "Readers per group (3) must equal Partitions (2): each consumer group has exactly one reader per partition, as in the reference tool. Set readers to 2, or leave it out to follow partitions",
    },
  });
  const q = await post({ kind: "queue", writers: 0, readers: 0, durationSeconds: 0, warmupSeconds: -1 });
  assert.deepEqual(q.body.fields, {
    writers: "Writers must be at least 1",
    readers: "Readers must be at least 1",
    durationSeconds: "Measured duration must be at least 1 s",
    warmupSeconds: "Warm-up must be at least 0 s",
  });
});

test("a blank, null, non-numeric or misspelt field is refused, never replaced by its default", async () => {
  const r = await post({ kind: "queue", writers: "", readers: null, durationSeconds: "abc", writer: 2 });
  assert.equal(r.status, 400);
  assert.equal(r.body.fields?.writers, "Writers is required: enter a whole number");
  assert.equal(r.body.fields?.readers, "Readers is required: enter a whole number");
  assert.equal(r.body.fields?.durationSeconds, 'Measured duration must be a whole number, not "abc"');
  assert.match(r.body.fields?.writer ?? "", /^"writer" is not a field of a queue workload/);
  assert.equal(await prisma().run.count(), 0, "nothing was queued");
});

test("a run over the runner's memory budget is refused beside the field to lower, before any connection", async () => {
  process.env.RUNNER_MEMORY_BUDGET_MB = "256";
  try {
    // 1 writer × write batch 50 × 10 MiB × 4 alone is 2,000 MiB.
    const r = await post({ kind: "pubsub", writers: 1, writeBatch: 50, payloadBytes: 10 * 1048576, partitions: 1, readBatch: 1 });
    assert.equal(r.status, 400);
    assert.equal(r.body.error, "over the runner's memory budget");
    assert.deepEqual(Object.keys(r.body.fields ?? {}), ["payloadBytes"]);
    assert.match(
      r.body.fields!.payloadBytes,
      /^this run would hold about 2\.1 GiB of message data in the runner \(1 writer × write batch 50 × 10 MiB payload × 4 .*over the runner's 256 MiB memory budget: lower Payload, Write batch, Writers, Read batch, Partitions or Consumer groups, or raise RUNNER_MEMORY_BUDGET_MB \(now 256\)$/,
    );
    assert.equal(await prisma().run.count(), 0, "nothing was queued");
    // The same config passes once the user raises the budget.
    process.env.RUNNER_MEMORY_BUDGET_MB = "3000";
    const ok = await post({ kind: "pubsub", writers: 1, writeBatch: 50, payloadBytes: 10 * 1048576, partitions: 1, readBatch: 1, durationSeconds: 1 });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    await prisma().run.update({ where: { id: ok.body.id! }, data: { status: "cancelled" } });
  } finally {
    delete process.env.RUNNER_MEMORY_BUDGET_MB;
  }
});

test("absent fields take their defaults; pub/sub readers per group follow partitions", async () => {
  const r = await post({ kind: "pubsub", partitions: 3, durationSeconds: 5 });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const run = await getRun(r.body.id!);
  assert.deepEqual(run?.config, {
    kind: "pubsub",
    writers: 4,
    payloadBytes: 1024,
    durationSeconds: 5,
    warmupSeconds: 5,
    throttleWritesPerSec: 0,
    reportIntervalSeconds: 5,
    consumerGroups: 1,
    partitions: 3,
    writeBatch: 100,
    readBatch: 100,
    readers: 3,
    processes: 1,
    backoff: "reference-effective",
  });
  await prisma().run.update({ where: { id: r.body.id! }, data: { status: "cancelled" } });
});

test("processes its workload cannot split over is refused under the processes field, in partsProblem's words, before any run is queued", async () => {
  const before = await prisma().run.count();
  const config = { kind: "pubsub", writers: 1, partitions: 1, processes: 2 };
  const r = await post(config);
  const want = partsProblem(WorkloadConfig.parse(config));
  assert.ok(want, "one partition cannot be carried by 2 processes");
  assert.equal(r.status, 400);
  assert.deepEqual(r.body, { error: "cannot be split over its processes", fields: { processes: want } });
  assert.match(want, /processes/);
  assert.equal(await prisma().run.count(), before, "nothing was queued");
});

test('processes "auto" is the cores of the live runner, resolved at launch; without one it is refused under the field', async () => {
  await prisma().runner.deleteMany({});
  const none = await post({ kind: "pubsub", writers: 1, partitions: 1, processes: "auto" });
  assert.equal(none.status, 400);
  assert.match(
    none.body.fields?.processes ?? "",
    /^Runner processes auto means the cores of the runner that will take the run, and no live runner has recorded them/,
  );
  await registerRunner(prisma(), "launch-auto-runner");
  const cores = os.availableParallelism();
  const config = { kind: "pubsub", writers: 1, partitions: 1, processes: "auto" };
  const r = await post(config);
  const split = partsProblem(WorkloadConfig.parse({ ...config, processes: cores }));
  if (split) assert.deepEqual(r.body.fields, { processes: split }, "the cores, judged as a number");
  else {
    assert.equal(r.status, 201);
    const stored = await getRun(r.body.id!);
    assert.equal((stored?.config as { processes?: number } | undefined)?.processes, cores, "the stored config holds the number");
  }
});
