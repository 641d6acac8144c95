// Queued workflows on a real Postgres: every profile and queue shape completes what it enqueued, exactly once,
// with the runner's counts equal to the rows; tampering with workflow_status mid-run is caught.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import pg from "pg";
import { testDatabase } from "../../lib/testing";
import { WorkloadConfig, type WorkloadInput } from "../../lib/workloads/config";
import { runWorkload, verificationError } from "../../runner/harness";
import { expandIdList } from "./sql";
import { queueNames } from "./runner";
import { factOf } from "../../lib/measurement/verification";
import { throughputOf, latencyOf } from "../../lib/measurement/operations";

let db: { url: string; drop: () => Promise<void> };
let admin: pg.Client;
before(async () => {
  db = await testDatabase("qw");
  admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
});
after(async () => {
  await admin.end();
  await db.drop();
});

const base = { kind: "queued-workflows", enqueuers: 2, workers: 2, executors: 2, pollMs: 200, durationSeconds: 2, warmupSeconds: 0 } as const;

/** Runs `input`, keeping the schema; `during` runs once the measured window has started. */
async function run(input: Partial<WorkloadInput> & Record<string, unknown>, during?: (schema: string) => Promise<void>) {
  let schema = "";
  let tamper: Promise<void> | undefined;
  const summary = await runWorkload(WorkloadConfig.parse({ ...base, ...input }), db.url, {
    keepSchema: true,
    drainSeconds: 3,
    onSchema: (s) => (schema = `"${s}"`),
    onPhase: (p) => {
      if (p === "measuring" && during) tamper = new Promise((r) => setTimeout(r, 700)).then(() => during(schema));
    },
  });
  await tamper;
  return { summary, schema };
}

/** Rows of workflow_status per status, and how many of them were started exactly once. */
async function rowsBy(schema: string) {
  const r = await admin.query<{ status: string; n: string; once: string }>(
    `SELECT status, count(*) AS n, count(*) FILTER (WHERE recovery_attempts = 1) AS once FROM ${schema}.workflow_status GROUP BY status`,
  );
  const out: Record<string, { n: number; once: number }> = {};
  for (const row of r.rows) out[row.status] = { n: Number(row.n), once: Number(row.once) };
  return out;
}

describe("every enqueued workflow is completed exactly once, or still queued at the end", () => {
  const shapes: [string, Record<string, unknown>][] = [
    ["2.17, one queue", { profile: "2.17", throttleWritesPerSec: 300 }],
    ["2.17, 3 queues", { profile: "2.17", queues: 3, throttleWritesPerSec: 300 }],
    ["2.17, partitioned (20 keys)", { profile: "2.17", queuePartitions: 20, throttleWritesPerSec: 100 }],
    ["current, one queue", { profile: "current", throttleWritesPerSec: 300 }],
    ["current, 3 queues, worker concurrency 5", { profile: "current", queues: 3, workerConcurrency: 5, throttleWritesPerSec: 300 }],
    ["current, partitioned (20 keys)", { profile: "current", queuePartitions: 20, throttleWritesPerSec: 100 }],
  ];
  for (const [name, input] of shapes)
    test(name, async () => {
      const { summary, schema } = await run(input);
      try {
        assert.equal(verificationError(summary), null);
        const t = summary.totals!;
        const rows = await rowsBy(schema);
        // Something was enqueued (how much depends on how busy the machine is); what follows holds for any count.
        assert.ok(t.operations.write > 0, `enqueued ${t.operations.write}`);
        assert.equal(rows.SUCCESS?.n ?? 0, t.operations.read, "SUCCESS rows = completions the runner counted");
        assert.equal(rows.SUCCESS?.once, rows.SUCCESS?.n, "every completed workflow was started once (recovery_attempts = 1)");
        const open = (rows.ENQUEUED?.n ?? 0) + (rows.PENDING?.n ?? 0);
        assert.equal(rows.SUCCESS!.n + open, t.operations.write, "every enqueued workflow is completed or still queued");
        assert.equal(open, t.measures.unreadAtEnd);
        assert.deepEqual(
          Object.keys(rows).filter((s) => !["SUCCESS", "ENQUEUED", "PENDING"].includes(s)),
          [],
        );
        // Spread over the queue names the study's scripts use.
        const queues = (await admin.query<{ queue_name: string }>(`SELECT DISTINCT queue_name FROM ${schema}.workflow_status ORDER BY 1`)).rows.map(
          (r) => r.queue_name,
        );
        assert.deepEqual(queues, queueNames({ queues: (input.queues as number) ?? 1, queuePartitions: (input.queuePartitions as number) ?? 0 }).sort());
        if (input.queuePartitions) {
          const keys = await admin.query(`SELECT count(DISTINCT queue_partition_key) AS n FROM ${schema}.workflow_status`);
          assert.ok(Number(keys.rows[0].n) > 1);
          // Each enqueuer takes its own turns of the throttle's schedule (the pacer's loop index): none is told
          // it stalled behind its share while the other took its turns (a light load, 100 workflows/s).
          const share = (summary.notes ?? []).filter((n) => /own share of the schedule/.test(n));
          assert.deepEqual(share, [], "an enqueuer reported behind its own share of the throttle");
        }
        // What it measures: enqueue and completion rates, the dequeue poll, enqueue-to-completion per workflow.
        assert.ok(throughputOf(summary, "write")!.perSecond > 0 && throughputOf(summary, "read")!.perSecond > 0);
        assert.ok(latencyOf(summary, "claim")!.count > 0 && latencyOf(summary, "e2e")!.count === throughputOf(summary, "read")!.count);
        assert.ok((summary.notes ?? []).some((n) => /^backlog (of|per queue)/.test(n)));
      } finally {
        await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      }
    });
});

describe("tampering with workflow_status mid-run makes verification fail", () => {
  const failing = async (input: Record<string, unknown>, tamper: (schema: string) => Promise<unknown>, expect: RegExp) => {
    const { summary, schema } = await run(input, async (s) => void (await tamper(s)));
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    assert.equal(summary.verification.ok, false, "verification must fail");
    assert.match(verificationError(summary)!, expect);
    return summary;
  };

  test("a completed workflow deleted", async () => {
    await failing(
      { profile: "2.17", throttleWritesPerSec: 300 },
      (s) =>
        admin.query(`DELETE FROM ${s}.workflow_status WHERE workflow_uuid = (SELECT workflow_uuid FROM ${s}.workflow_status WHERE status = 'SUCCESS' LIMIT 1)`),
      /completed \d+ workflows? but workflow_status holds \d+ SUCCESS/,
    );
  });

  test("a foreign workflow inserted on a queue of the run", async () => {
    await failing(
      { profile: "current", throttleWritesPerSec: 300 },
      (s) =>
        admin.query(
          `INSERT INTO ${s}.workflow_status (workflow_uuid, status, queue_name, recovery_attempts) VALUES ('not-one-of-ours', 'SUCCESS', 'bench-queue', 1)`,
        ),
      /not a UUID this run generated/,
    );
  });

  test("a completed workflow put back on the queue: it runs twice", async () => {
    const s = await failing(
      { profile: "2.17", throttleWritesPerSec: 300 },
      (sc) =>
        admin.query(
          `UPDATE ${sc}.workflow_status SET status = 'ENQUEUED' WHERE workflow_uuid = (SELECT workflow_uuid FROM ${sc}.workflow_status WHERE status = 'SUCCESS' LIMIT 1)`,
        ),
      /started more than once|not in flight/,
    );
    assert.ok(Number(factOf(s.verification, "run more than once")) >= 1);
  });

  test("a queued workflow's status changed to one that is neither final nor queued", async () => {
    await failing(
      { profile: "current", throttleWritesPerSec: 300, pollMs: 1000 },
      (s) =>
        admin.query(
          `UPDATE ${s}.workflow_status SET status = 'CANCELLED' WHERE workflow_uuid = (SELECT workflow_uuid FROM ${s}.workflow_status WHERE status = 'ENQUEUED' LIMIT 1)`,
        ),
      /with status CANCELLED: neither completed nor still queued/,
    );
  });
});

test("workers slower than the enqueuers: the backlog and what is still queued at the end are reported, not failed", async () => {
  // One worker with one executor (three transactions a workflow) that first polls 4.75–5.25 s after it starts,
  // about when the 2 s window's 3 s drain ends: its workflows are still queued or claimed then, however fast or
  // loaded this machine is.
  const { summary, schema } = await run({ profile: "2.17", enqueuers: 2, workers: 1, executors: 1, pollMs: 5000, throttleWritesPerSec: 1000 });
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  assert.equal(summary.verification.ok, true, verificationError(summary) ?? "");
  const t = summary.totals!;
  assert.ok(t.measures.unreadAtEnd > 0, "some workflows still queued at the end");
  assert.equal(t.operations.write - t.operations.read, t.measures.unreadAtEnd);
  const notes = (summary.notes ?? []).join("\n");
  assert.match(notes, /backlog of bench-queue \(sampled each second\): peak [\d,]+/);
  assert.match(notes, /still ENQUEUED when the workers stopped: [\d,]+ on bench-queue|claimed \(PENDING\) but not yet started/);
});

test("an IN list grows to n parameters and renumbers the ones after it", () => {
  assert.equal(
    expandIdList("UPDATE t SET a=$1 WHERE t.workflow_uuid IN ($2::VARCHAR) AND t.status = $3::VARCHAR", 3),
    "UPDATE t SET a=$1 WHERE t.workflow_uuid IN ($2::VARCHAR, $3::VARCHAR, $4::VARCHAR) AND t.status = $5::VARCHAR",
  );
  assert.throws(() => expandIdList("SELECT 1", 2), /no workflow_uuid IN list/);
});
