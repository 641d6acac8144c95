// The runs list reads headline numbers from their own column, filtered and sorted in SQL; runs stored before
// the column existed get theirs from the migration.
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import pg from "pg";
import { GET } from "../../app/api/runs/route";
import { prisma } from "../db";
import { encodeHistogram, newHistogram, percentilesOf, recordMicros } from "../measurement/histogram";
import { migrate, MIGRATIONS_DIR } from "../../platform/migrate";
import { headlineOf, toRunView } from "./view";
import { createRun, finishRun, listRunRows } from "./store";
import { RunSummary } from "../measurement/summary";
import { testDatabase } from "../testing";
import { WorkloadConfig } from "../workloads/config";

let db: Awaited<ReturnType<typeof testDatabase>>;
const config = WorkloadConfig.parse({ kind: "queue", writers: 1, readers: 1, durationSeconds: 3, warmupSeconds: 1 });

/** Read through the schema, which converts it. */
const summary = (msgPerSec: number): RunSummary => RunSummary.parse(oldSummary(msgPerSec));

/** A summary as runs stored it before the declared operations (schemaVersion 1). */
function oldSummary(msgPerSec: number) {
  const h = newHistogram();
  for (let i = 1; i <= 100; i++) recordMicros(h, 1000 * i);
  const l = percentilesOf(h);
  return {
    schemaVersion: 1,
    workload: "queue",
    config,
    manifest: {
      postgresVersion: "18.1",
      serverSettings: {},
      maxConnections: 100,
      runnerHost: "box",
      runnerCores: 2,
      runnerCpuModel: "cpu",
      nodeVersion: "v20",
      productVersion: "0.1.0",
      productCommit: "abc",
      startedAt: "2026-01-01T00:00:00Z",
      endedAt: "2026-01-01T00:00:04Z",
      runnerCpuSeconds: 1,
      runnerCpuMsPer1000Msgs: 1,
      e2eClock: "runner monotonic clock",
    },
    window: { measuredSeconds: 3, warmupSeconds: 1 },
    writes: { count: 3 * msgPerSec, msgPerSec, mibPerSec: 1, errors: 0 },
    reads: { count: 3 * msgPerSec, msgPerSec, mibPerSec: 1, errors: 0, emptyPolls: 0, perGroup: [] },
    latencyMs: { write: l, read: l, e2e: l },
    verification: { ok: true, checked: 3, unit: "message", problems: [], facts: [] },
    histograms: { write: encodeHistogram(h) },
  };
}

before(async () => {
  db = await testDatabase("runs_list");
  process.env.DATABASE_URL = db.url;
  process.env.TARGET_DATABASE_URL ??= "postgresql://127.0.0.1:5432/unused";
});
after(async () => {
  await prisma().$disconnect();
  await db.drop();
});

test("a run stored before the headline column and the enums gets its headline, and keeps its status, phase and source", async () => {
  // The control store as it was before 0004: the earlier migrations only.
  const old = mkdtempSync(path.join(os.tmpdir(), "pgbb-mig-"));
  try {
    for (const name of ["0001_init", "0002_imported_result", "0003_default_target_name"])
      cpSync(path.join(MIGRATIONS_DIR, name), path.join(old, name), { recursive: true });
    await migrate(db.url, old);
  } finally {
    rmSync(old, { recursive: true, force: true });
  }
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  await c.query(
    `INSERT INTO run (id, workload, config, target_label, status, phase, source, summary, finished_at)
     VALUES ('r_old000000001', 'queue', $1, 'embedded default', 'completed', 'done', 'app', $2, now())`,
    [JSON.stringify(config), JSON.stringify(oldSummary(500))],
  );
  await c.query(`INSERT INTO sample (run_id, seq, time, phase, metrics) VALUES ('r_old000000001', 0, now(), 'measuring', '{}')`);
  // A status no version wrote (hand-edited, say) must not stop the migration, hence the app's start.
  await c.query(
    `INSERT INTO run (id, workload, config, target_label, status, phase, source) VALUES ('r_odd000000001', 'queue', $1, 'x', 'paused', 'thinking', 'api')`,
    [JSON.stringify(config)],
  );
  // The two migrations this test is about come next; later ones (ceiling searches, …) follow them.
  assert.deepEqual((await migrate(db.url)).slice(0, 2), ["0004_run_headline", "0005_run_enums"]);
  const odd = await c.query(`SELECT status::text, phase::text, source::text, error FROM run WHERE id = 'r_odd000000001'`);
  assert.deepEqual(odd.rows[0], { status: "failed", phase: null, source: "app", error: 'stored with status "paused", which this version does not know' });
  await assert.rejects(c.query(`UPDATE run SET status = 'paused' WHERE id = 'r_odd000000001'`), /invalid input value for enum run_status/);
  await c.query(`DELETE FROM run WHERE id = 'r_odd000000001'`);
  assert.equal((await c.query(`SELECT phase::text FROM sample WHERE run_id = 'r_old000000001'`)).rows[0].phase, "measuring");
  await c.end();
  const [row] = await listRunRows({ statuses: ["completed"] });
  assert.equal(row.id, "r_old000000001");
  assert.deepEqual([row.status, row.phase, row.source], ["completed", "done", "app"]);
  assert.deepEqual(toRunView(row).headline, headlineOf(summary(500)));
});

test("the list filters and sorts in SQL, lists runs imported from a bundle beside the others, and refuses an unknown filter naming it", async () => {
  const a = await createRun({ config, targetLabel: "embedded default" });
  await finishRun(a.id, { status: "completed", summary: summary(1000) });
  const b = await createRun({ config: WorkloadConfig.parse({ kind: "pubsub" }), targetLabel: "embedded default" });
  await finishRun(b.id, { status: "failed", error: "boom" });
  // A run imported from another instance's bundle (lib/bundle/) is a run: listed, marked by its source.
  const imported = await createRun({ config, targetLabel: "imported", source: "import" });

  const all = await listRunRows();
  assert.deepEqual(
    all.map((r) => [r.id, r.source]),
    [
      [imported.id, "import"],
      [b.id, "app"],
      [a.id, "app"],
      ["r_old000000001", "app"],
    ],
    "newest first, the imported one among them",
  );
  assert.deepEqual(
    (await listRunRows({ workload: "queue", statuses: ["completed"] })).map((r) => r.id),
    [a.id, "r_old000000001"],
  );
  assert.deepEqual(
    (await listRunRows({ statuses: ["failed", "cancelled"] })).map((r) => r.id),
    [b.id],
  );
  assert.deepEqual(toRunView(all[2]).headline?.rates[0], { op: "write", label: "write", unit: "msg/s", perSec: 1000 });
  assert.equal(toRunView(all[1]).headline, null);

  const res = await GET(new Request("http://127.0.0.1/api/runs?workload=pubsub"));
  assert.deepEqual(
    ((await res.json()) as { runs: { id: string }[] }).runs.map((r) => r.id),
    [b.id],
  );
  for (const [q, field] of [
    ["workload=mysql", "workload"],
    ["status=done,x%00", "status"],
  ]) {
    const bad = await GET(new Request(`http://127.0.0.1/api/runs?${q}`));
    assert.equal(bad.status, 400);
    const body = (await bad.json()) as { error: string; fields: Record<string, string> };
    assert.ok(body.fields[field], JSON.stringify(body));
    assert.match(body.error, new RegExp(field));
  }
});
