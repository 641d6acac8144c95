import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import pg from "pg";
import { prisma } from "../db";
import { launchRun } from "./launch";
import { getRun } from "../runs/store";
import { testControlStore, testDatabase } from "../testing";
import { budgetProblem } from "./capacity";
import { WorkloadConfig } from "../workloads/config";
import { addTarget, deleteTarget, listTargets, resolveTarget, targetInfo } from "./store";

let ctl: Awaited<ReturnType<typeof testControlStore>>;
let target: Awaited<ReturnType<typeof testDatabase>>;

before(async () => {
  ctl = await testControlStore("targets_ctl");
  target = await testDatabase("targets_tgt");
  process.env.TARGET_DATABASE_URL = target.url;
  process.env.TARGET_IS_EMBEDDED = "1";
});
after(async () => {
  await prisma().$disconnect();
  await ctl.drop();
  const admin = new pg.Client({ connectionString: target.url });
  await admin.connect();
  await admin.query(`DROP ROLE IF EXISTS pgbb_tgt_${process.pid}`);
  await admin.end();
  await target.drop();
});

test("the default target is listed first, masked, and never stored", async () => {
  const list = await listTargets();
  assert.equal(list[0].id, "default");
  assert.equal(list[0].name, "embedded default");
  assert.ok(!list[0].maskedUrl.includes(new URL(target.url).password || "\u0000"), "password must be masked");
  assert.equal(await prisma().target.count(), 0);
});

test("a saved target keeps its password on the server and shows it masked", async () => {
  const role = `pgbb_tgt_${process.pid}`;
  const admin = new pg.Client({ connectionString: target.url });
  await admin.connect();
  await admin.query(`DROP ROLE IF EXISTS ${role}`);
  await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD 's3cret-pw'`);
  await admin.end();
  const url = new URL(target.url);
  url.username = role;
  url.password = "s3cret-pw";
  const r = await addTarget({ name: "local copy", connectionString: url.toString() });
  assert.ok(r.ok, JSON.stringify(r));
  assert.match(r.target.maskedUrl, /:\*\*\*\*@/);
  assert.ok(!JSON.stringify(await listTargets()).includes("s3cret-pw"));
  const resolved = await resolveTarget(r.target.id);
  assert.equal(resolved?.url, url.toString());
  const again = await addTarget({ name: "local copy", connectionString: url.toString() });
  assert.deepEqual(again, { ok: false, errors: { name: 'a target named "local copy" already exists; choose another name or delete that one' } });
});

test("a bad or unreachable connection string is refused with the cause, and nothing is saved", async () => {
  const before = await prisma().target.count();
  const bad = await addTarget({ connectionString: "mysql://x@y/z" });
  assert.ok(!bad.ok && /scheme "mysql"/.test(bad.errors.connectionString));
  const closed = await addTarget({ connectionString: "postgresql://u:pw@127.0.0.1:1/db" }, prisma(), 2000);
  assert.ok(!closed.ok && /connection refused/.test(closed.errors.connectionString), JSON.stringify(closed));
  assert.ok(!closed.ok && !closed.errors.connectionString.includes(":pw@"), "the error must not echo the password");
  assert.equal(await prisma().target.count(), before);
});

test("targetInfo reads the connection limits; budgetProblem at launch blocks only beyond what the server can ever allow", async () => {
  const info = await targetInfo(target.url);
  assert.ok(info.maxConnections >= 10);
  assert.equal(info.usable, info.maxConnections - info.reservedConnections, "a superuser: max_connections binds");
  assert.equal(info.binding.limit, "max_connections");
  assert.ok(info.inUse >= 0 && info.available <= info.usable);
  // connections = writers + readers + 2 for set-up and telemetry
  const fits = WorkloadConfig.parse({ kind: "queue", writers: info.usable - 3, readers: 1 });
  assert.equal(budgetProblem(fits, info, "ever"), null);
  const over = budgetProblem(WorkloadConfig.parse({ kind: "queue", writers: info.usable - 2, readers: 1 }), info, "ever");
  assert.match(over?.message ?? "", /needs \d+ connections .* the target allows at most \d+: max_connections/);
  assert.equal(over?.limit, "max_connections");
});

test("launchRun: same field messages as the schema, unknown or unreachable targets named, valid input queued", async () => {
  const bad = await launchRun({ config: { kind: "pubsub", writers: 0 } });
  assert.ok(!bad.ok);
  assert.deepEqual(bad.fields, { writers: "Writers must be at least 1" });
  const mismatch = await launchRun({ config: { kind: "pubsub", partitions: 2, readers: 3 } });
  assert.ok(!mismatch.ok && /^Readers per group \(3\) must equal Partitions \(2\)/.test(mismatch.fields.readers));

  const unknown = await launchRun({ config: { kind: "queue" }, targetId: "t_nope" });
  assert.ok(!unknown.ok && /target "t_nope" does not exist/.test(unknown.fields.targetId));

  const huge = await launchRun({ config: { kind: "queue", writers: 1000, readers: 1000 } });
  assert.ok(!huge.ok && huge.error === "too many connections" && /needs 2002 connections/.test(huge.fields.connections));

  const ok = await launchRun({ config: { kind: "pubsub", writers: 2, partitions: 2, durationSeconds: 5 } });
  assert.ok(ok.ok);
  const run = await getRun(ok.id);
  assert.equal(run?.status, "queued");
  assert.equal(run?.targetId, null);
  assert.equal(run?.targetLabel, "embedded default");
  assert.deepEqual((run!.config as { readers: number }).readers, 2);
});

test("a saved target with a queued run cannot be deleted (its run would silently move to the default)", async () => {
  const t = await addTarget({ name: "busy", connectionString: target.url });
  assert.ok(t.ok);
  const r = await launchRun({ config: { kind: "queue", durationSeconds: 5 }, targetId: t.target.id });
  assert.ok(r.ok);
  assert.equal(await deleteTarget(t.target.id), "in-use");
  await prisma().run.update({ where: { id: r.id }, data: { status: "cancelled" } });
  assert.equal(await deleteTarget(t.target.id), "deleted");
  assert.equal(await deleteTarget(t.target.id), "missing");
  assert.equal(await deleteTarget("default"), "default");
  // The run keeps its label; its id is gone, so it no longer claims to be on the default target.
  const { toRunView } = await import("../runs/view");
  const view = toRunView((await getRun(r.id))!);
  assert.equal(view.targetLabel, "busy");
  assert.equal(view.targetId, null);
});
