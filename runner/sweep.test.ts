import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import pg from "pg";
import { prisma } from "../lib/db";
import { CeilingSettings } from "../lib/ceiling/settings";
import { createSearch, finishSearch } from "../lib/ceiling/store";
import { createRun, finishRun } from "../lib/runs/store";
import { testControlStore, testDatabase } from "../lib/testing";
import { WorkloadConfig } from "../lib/workloads/config";
import { runWorkload } from "./engine";
import { GRACE_MS, schemaComment, sweepSchemas } from "./sweep";
import { throughputOf } from "../lib/measurement/operations";

let ctl: Awaited<ReturnType<typeof testControlStore>>;
let target: Awaited<ReturnType<typeof testDatabase>>;
before(async () => {
  ctl = await testControlStore("sweep_ctl");
  target = await testDatabase("sweep_target");
});
after(async () => {
  await prisma().$disconnect();
  await ctl.drop();
  await target.drop();
});

async function onTarget<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: target.url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

test("drops schemas of final runs and old unknown ones; keeps running runs' and young unknown ones", async () => {
  const config = WorkloadConfig.parse({ kind: "queue" });
  const done = await createRun({ config, targetLabel: "t" });
  await finishRun(done.id, { status: "failed", error: "x" });
  const running = await createRun({ config, targetLabel: "t", status: "running" });
  const old = new Date(Date.now() - GRACE_MS - 60_000);
  await onTarget(async (c) => {
    for (const [name, comment] of [
      [`pgbb_${done.id}`, schemaComment(done.id)],
      [`pgbb_${running.id}`, schemaComment(running.id)],
      ["pgbb_cli_old", schemaComment(undefined, old)],
      ["pgbb_cli_young", schemaComment(undefined)],
      ["pgbb_nocomment", null],
    ] as const) {
      await c.query(`CREATE SCHEMA ${name}`);
      if (comment) await c.query(`COMMENT ON SCHEMA ${name} IS '${comment}'`);
    }
    await c.query("CREATE SCHEMA someone_else");
  });
  const r = await sweepSchemas(prisma(), target.url);
  assert.deepEqual(r.problems, []);
  assert.equal(r.dropped.length, 2, r.dropped.join("; "));
  assert.match(r.dropped.join("; "), new RegExp(`pgbb_${done.id} on .* \\(run ${done.id} is failed\\)`));
  const left = await onTarget(async (c) =>
    (await c.query<{ n: string }>("SELECT nspname AS n FROM pg_namespace WHERE nspname LIKE 'pgbb%' OR nspname = 'someone_else' ORDER BY 1")).rows.map(
      (x) => x.n,
    ),
  );
  assert.deepEqual(left, ["pgbb_cli_young", "pgbb_nocomment", `pgbb_${running.id}`, "someone_else"].sort());
});

test("an unreachable target is reported, not thrown", async () => {
  const r = await sweepSchemas(prisma(), "postgresql://u:secret@127.0.0.1:1/x");
  assert.equal(r.dropped.length, 0);
  assert.match(r.problems.join(), /127\.0\.0\.1:1/);
  assert.doesNotMatch(r.problems.join(), /secret/);
});

test("a ceiling search's step schemas follow their search: dropped once it is final, kept while it runs", async () => {
  const config = WorkloadConfig.parse({ kind: "queue" });
  const settings = CeilingSettings.parse({ slo: "p99<50ms" });
  const finished = await createSearch({ config, settings, targetLabel: "t" });
  await finishSearch(finished.id, { status: "interrupted", error: "the runner died" });
  const running = await createSearch({ config, settings, targetLabel: "t", status: "running" });
  await onTarget(async (c) => {
    for (const id of [`${finished.id}_s3`, `${running.id}_s0`]) {
      await c.query(`CREATE SCHEMA pgbb_${id}`);
      await c.query(`COMMENT ON SCHEMA pgbb_${id} IS '${schemaComment(id)}'`);
    }
  });
  const r = await sweepSchemas(prisma(), target.url);
  assert.match(r.dropped.join("; "), new RegExp(`pgbb_${finished.id}_s3 on .* \\(ceiling search ${finished.id} is interrupted\\)`));
  const left = await onTarget(async (c) =>
    (await c.query<{ n: string }>("SELECT nspname AS n FROM pg_namespace WHERE nspname LIKE 'pgbb\\_c\\_%'")).rows.map((x) => x.n),
  );
  assert.deepEqual(left, [`pgbb_${running.id}_s0`]);
});

test("a schema in use is never dropped, however old its comment says it is; one nobody holds is", async () => {
  // A CLI run (unknown to this control store) whose schema claims to be two hours old, as a run longer than the
  // grace would be: the sweep runs in the middle of its measured window.
  const config = WorkloadConfig.parse({ kind: "queue", writers: 1, readers: 1, throttleWritesPerSec: 50, warmupSeconds: 0, durationSeconds: 2 });
  const old = new Date(Date.now() - 2 * GRACE_MS);
  let schema = "";
  let sweep: Promise<Awaited<ReturnType<typeof sweepSchemas>>> | undefined;
  const run = runWorkload(config, target.url, {
    telemetry: false,
    onSchema: (s) => (schema = s),
    onPhase: (p) => {
      if (p !== "measuring") return;
      sweep = (async () => {
        await onTarget(async (c) => {
          await c.query(`COMMENT ON SCHEMA ${schema} IS '${schemaComment(undefined, old)}'`);
          // Left by a run that is gone: nobody holds its lock.
          await c.query("CREATE SCHEMA pgbb_cli_orphan");
          await c.query(`COMMENT ON SCHEMA pgbb_cli_orphan IS '${schemaComment(undefined, old)}'`);
        });
        return sweepSchemas(prisma(), target.url);
      })();
    },
  });
  const summary = await run;
  const r = await sweep!;
  assert.deepEqual(r.problems, []);
  assert.match(r.dropped.join("; "), /pgbb_cli_orphan on .* \(an unknown run's, older than an hour\)/);
  assert.doesNotMatch(r.dropped.join("; "), new RegExp(schema));
  assert.match(r.inUse.join("; "), new RegExp(`^${schema} on `));
  // The run went on with its schema to the end, and verified what it wrote.
  assert.equal(summary.verification.ok, true, summary.verification.problems.join("; "));
  assert.ok(throughputOf(summary, "write")!.count > 0);
});
