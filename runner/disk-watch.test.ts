// Disk space watched while runs write (runner/disk-watch.ts), on the real disk of the test's Postgres: the reserve
// is set to (the disk's free space now less a little), which a write-heavy run crosses within seconds, so the
// real disk never fills. The run must fail through the normal path, its record naming the disk and the numbers,
// and the control store must keep working.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import pg from "pg";
import { prisma } from "../lib/db";
import { readEnv } from "../lib/env";
import { createRun } from "../lib/runs/store";
import { registerRunner } from "../lib/status/runners";
import { testControlStore, testDatabase } from "../lib/testing";
import { WorkloadConfig } from "../lib/workloads/config";
import { diskOf } from "../platform/disk";
import { startRunnerLoop } from "./main";

const MIB = 1024 * 1024;
let control: { url: string; drop: () => Promise<void> };
let target: { url: string; drop: () => Promise<void> };
let dataDirectory: string;
const RUNNER = "disk-runner";

before(async () => {
  control = await testControlStore("disk_control");
  target = await testDatabase("disk_target");
  await registerRunner(prisma(control.url), RUNNER);
  const c = new pg.Client({ connectionString: target.url });
  await c.connect();
  dataDirectory = (await c.query<{ d: string }>("SELECT current_setting('data_directory') AS d")).rows[0].d;
  await c.end();
});
after(async () => {
  await prisma().$disconnect();
  await control.drop();
  await target.drop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs one queued run with a runner whose reserve leaves `roomMib` MiB of the disk's free space to use. */
async function runWithRoom(roomMib: number, config: WorkloadConfig) {
  const free = diskOf(dataDirectory)!.freeBytes;
  const reserveMb = Math.max(0, Math.floor(free / MIB) - roomMib);
  const db = prisma(control.url);
  const run = await createRun({ config, targetLabel: "disk test" }, db);
  const loop = startRunnerLoop(
    db,
    RUNNER,
    readEnv({ ...process.env, DATABASE_URL: control.url, TARGET_DATABASE_URL: target.url, DISK_RESERVE_MB: String(reserveMb) }),
  );
  try {
    // Generous: the run is made to last a minute; the disk check must end it long before.
    const until = Date.now() + 90_000;
    while (Date.now() < until) {
      const r = await db.run.findUniqueOrThrow({ where: { id: run.id } });
      if (["completed", "failed", "cancelled", "interrupted"].includes(r.status)) return { run: r, reserveMb };
      await sleep(100);
    }
    throw new Error(`run ${run.id} did not end within 90 s`);
  } finally {
    await loop.stop();
  }
}

const heavy = WorkloadConfig.parse({
  kind: "queue",
  writers: 4,
  readers: 1,
  payloadBytes: 65536,
  warmupSeconds: 0,
  durationSeconds: 60,
  throttleWritesPerSec: 0,
});

test("a run that would fill the disk past its reserve is stopped, its record naming the disk and the numbers; the control store keeps working", async () => {
  const t0 = Date.now();
  const { run, reserveMb } = await runWithRoom(256, heavy);
  assert.equal(run.status, "failed", run.error ?? "");
  assert.match(
    run.error ?? "",
    /^stopped before the disk filled: the disk holding the target's data and the control store's data \((\/\S*), mounted at (\/\S*)\) has [\d,.]+ (MiB|GiB|TiB) free, (only [\d,.]+ (B|KiB|MiB|GiB) above|[\d,.]+ (B|KiB|MiB|GiB) below) the [\d,.]+ (MiB|GiB|TiB) kept in reserve \(DISK_RESERVE_MB\), and was filling at [\d,.]+ (B|KiB|MiB|GiB)\/s/,
  );
  assert.ok(run.error?.includes(dataDirectory), `names the folder ${dataDirectory}: ${run.error}`);
  assert.ok(Date.now() - t0 < 55_000, `stopped long before its 60 s were up (${Date.now() - t0} ms)`);
  assert.ok(reserveMb > 0);
  // Through the normal failing path: its samples so far are stored, its schema is gone.
  const db = prisma(control.url);
  assert.ok((await db.sample.count({ where: { runId: run.id } })) >= 1, "its samples so far are kept");
  const c = new pg.Client({ connectionString: target.url });
  await c.connect();
  const left = await c.query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'pgbb\\_%'");
  await c.end();
  assert.deepEqual(left.rows, [], "the run's schema was dropped");
  // The control store still takes writes.
  const next = await createRun({ config: heavy, targetLabel: "after the disk stop" }, db);
  await db.run.delete({ where: { id: next.id } });
});

test("a run is not started while a disk it uses is already below its reserve, and says so", async () => {
  const small = WorkloadConfig.parse({ kind: "queue", writers: 1, readers: 1, warmupSeconds: 0, durationSeconds: 5, throttleWritesPerSec: 100 });
  const { run } = await runWithRoom(-1024, small); // a reserve 1 GiB above the free space
  assert.equal(run.status, "failed");
  assert.match(
    run.error ?? "",
    /^not started: the disk holding the target's data and the control store's data \(.*, mounted at .*\) has [\d,.]+ (MiB|GiB|TiB) free, [\d,.]+ (B|KiB|MiB|GiB) below the [\d,.]+ (MiB|GiB|TiB) kept in reserve \(DISK_RESERVE_MB\)\. Free some space on that disk, or lower DISK_RESERVE_MB/,
  );
  assert.equal(await prisma(control.url).sample.count({ where: { runId: run.id } }), 0, "nothing ran");
});
