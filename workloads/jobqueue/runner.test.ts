// The job queue on a real (embedded) Postgres, both variants: every job the producers inserted is in the table
// with the status the consumers gave it, verification passes, and it fails when the table is tampered with.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import pg from "pg";
import { RunSummary } from "../../lib/measurement/summary";
import { testDatabase } from "../../lib/testing";
import { WorkloadConfig, type WorkloadInput } from "../../lib/workloads/config";
import { runWorkload, verificationError } from "../../runner/harness";
import { latencyOf } from "../../lib/measurement/operations";

let db: { url: string; drop: () => Promise<void> };
let admin: pg.Client;
before(async () => {
  db = await testDatabase("jobqueue");
  admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
});
after(async () => {
  await admin.end();
  await db.drop();
});

const BASE = { kind: "jobqueue", producers: 4, consumers: 2, thinkMs: 2, durationSeconds: 1, warmupSeconds: 0, pool: 4 } as const;

async function run(input: WorkloadInput, during?: (schema: string) => Promise<unknown>) {
  let schema = "";
  let tamper: Promise<unknown> | undefined;
  const summary = await runWorkload(WorkloadConfig.parse(input), db.url, {
    keepSchema: true,
    onSchema: (s) => (schema = `"${s}"`),
    onPhase: (p) => {
      if (p === "measuring" && during) tamper = during(schema);
    },
  });
  await tamper;
  return { summary, schema };
}
const drop = (schema: string) => admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
const count = async (sql: string) => Number((await admin.query(sql)).rows[0].n);

describe("job queue: counts equal the target and verification passes", () => {
  const cases: [string, WorkloadInput][] = [
    ["baseline (full index)", { ...BASE, variant: "baseline" }],
    ["modded (partial index), 20,000 completed jobs preloaded", { ...BASE, variant: "modded", preload: 20_000 }],
    ["modded, open loop", { ...BASE, variant: "modded", rate: 300 }],
  ];
  for (const [name, input] of cases)
    test(name, async () => {
      const { summary, schema } = await run(input);
      try {
        RunSummary.parse(summary);
        assert.equal(verificationError(summary), null);
        const c = summary.config as Extract<WorkloadConfig, { kind: "jobqueue" }>;
        const indexes = (
          await admin.query(`SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname <> 'job_queue_pkey'`, [schema.replace(/"/g, "")])
        ).rows[0].indexdef as string;
        if (c.variant === "modded") assert.match(indexes, /\(created_at\) WHERE \(status = 'pending'::text\)/);
        else assert.match(indexes, /\(status, created_at\)$/);
        const r = summary.operations;
        const ops = summary.totals!.operations!;
        const preloaded = c.preload;
        const rows = await count(`SELECT count(*) AS n FROM ${schema}.job_queue`);
        const completed = await count(`SELECT count(*) AS n FROM ${schema}.job_queue WHERE status = 'completed'`);
        const pending = await count(`SELECT count(*) AS n FROM ${schema}.job_queue WHERE status = 'pending'`);
        // The whole run's requests (those that ended after the window are not in its rates).
        const taken = ops.dequeue - ops.empty;
        assert.equal(rows - preloaded, ops.enqueue, "jobs in the table = enqueues counted");
        assert.equal(completed - preloaded, taken, "completed jobs = dequeues that got a job");
        assert.equal(pending, ops.enqueue - taken);
        assert.equal(ops.total, ops.enqueue + ops.dequeue);
        assert.ok(r.enqueue.count > 0 && r.dequeue.count > 0 && taken > 0);
        assert.ok(r.enqueue.count <= ops.enqueue && r.total.count === r.enqueue.count + r.dequeue.count);
        const delivery = latencyOf(summary, "delivery");
        assert.ok(delivery && delivery.count > 0 && delivery.count <= taken, "a delivery latency per job dequeued in the window");
        assert.equal(summary.verification.checked, ops.enqueue);
      } finally {
        await drop(schema);
      }
    });
});

describe("job queue: verification fails when the table is tampered with", () => {
  test("a foreign pending job, a deleted job and a completed job reopened", async () => {
    // 4 s measured, the tampering 1 s in, each statement again until it finds its row: on a busy machine a second of
    // 1 s could end before a job was pending or completed, or before the consumers took the foreign and reopened ones.
    const once = async (sql: string) => {
      for (const t0 = Date.now(); (await admin.query(sql)).rowCount !== 1; ) {
        assert.ok(Date.now() - t0 < 2000, `no row for: ${sql}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const { summary, schema } = await run({ ...BASE, variant: "modded", producers: 2, consumers: 1, thinkMs: 20, durationSeconds: 4 }, async (s) => {
      await new Promise((r) => setTimeout(r, 1000));
      await admin.query(`INSERT INTO ${s}.job_queue (payload, created_at) VALUES ('{"n": 999999}', now() - interval '1 hour')`);
      await once(`DELETE FROM ${s}.job_queue WHERE id = (SELECT max(id) FROM ${s}.job_queue WHERE status = 'pending' AND payload->>'n' <> '999999')`);
      await once(
        `UPDATE ${s}.job_queue SET status = 'pending', created_at = now() - interval '2 hours' WHERE id = (SELECT min(id) FROM ${s}.job_queue WHERE status = 'completed')`,
      );
    });
    await drop(schema);
    const v = summary.verification;
    assert.equal(v.ok, false);
    const problems = v.problems.join("\n");
    assert.match(problems, /consumers dequeued 1 job that no producer of this run inserted/);
    assert.match(problems, /1 job the producers inserted (?:is|are) missing from job_queue/);
    assert.match(problems, /1 dequeue took a job that had been dequeued already/);
  });
});
