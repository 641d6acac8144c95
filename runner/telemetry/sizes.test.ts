// The run's tables' size reading (./sizes.ts) on the embedded Postgres: it reads table and index bytes, and it never
// waits behind an ACCESS EXCLUSIVE lock, on a table or on one of its indexes: the reading is refused at once (or
// within its 100 ms lock_timeout), the last sizes stand, and the collector's readings go on undelayed.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import pg from "pg";
import { WindowAccumulator } from "../../lib/telemetry/window";
import { testDatabase } from "../../lib/testing";
import { TelemetryCollector } from "./collector";
import { SIZE_LOCK_TIMEOUT_MS, TableSizeReader } from "./sizes";

let db: { url: string; drop: () => Promise<void> };
let admin: pg.Client;
let holder: pg.Client;
let reader: pg.Client;

before(async () => {
  db = await testDatabase("sizes");
  admin = new pg.Client({ connectionString: db.url });
  holder = new pg.Client({ connectionString: db.url, application_name: "pgbb-test-locker" });
  reader = new pg.Client({ connectionString: db.url });
  await Promise.all([admin.connect(), holder.connect(), reader.connect()]);
  await admin.query(`CREATE SCHEMA "sz 1"; CREATE TABLE "sz 1".jobs (id bigint PRIMARY KEY, body text);
    INSERT INTO "sz 1".jobs SELECT g, repeat('x', 200) FROM generate_series(1, 2000) g`);
});
after(async () => {
  await Promise.all([admin.end(), holder.end(), reader.end()]);
  await db.drop();
});

/** Runs `f` while `lock` is held by another session, then releases it. */
async function whileLocked<T>(lock: string, f: () => Promise<T>): Promise<T> {
  await holder.query(`BEGIN; ${lock}`);
  try {
    return await f();
  } finally {
    await holder.query("ROLLBACK");
  }
}

/** The reader's sessions waiting on a lock right now (none may ever be ours). */
const waiting = async (pid: number) => Number((await admin.query("SELECT count(*) AS n FROM pg_locks WHERE pid = $1 AND NOT granted", [pid])).rows[0].n);

describe("the run's tables' size", () => {
  test("is read, and a table or an index held ACCESS EXCLUSIVE by another session refuses the reading without a wait: the last sizes stand", async () => {
    const sizes = new TableSizeReader(reader, "sz 1");
    await sizes.refresh();
    const first = sizes.latest!;
    assert.ok(first.tableBytes >= 8192 * 10 && first.indexBytes >= 8192, JSON.stringify(first));
    const pid = (await reader.query("SELECT pg_backend_pid() AS pid")).rows[0].pid as number;
    // The table locked (as causes-runs' stall does): NOWAIT refuses at once.
    await whileLocked(`LOCK TABLE "sz 1".jobs IN ACCESS EXCLUSIVE MODE; INSERT INTO "sz 1".jobs SELECT g, 'y' FROM generate_series(2001, 4000) g`, async () => {
      const t0 = performance.now();
      await sizes.refresh();
      const ms = performance.now() - t0;
      // NOWAIT's refusal, not the lock_timeout's: no wait at all (the bound only guards against a hang on a loaded machine).
      assert.match(sizes.lastRefusal ?? "", /could not obtain lock on relation/);
      assert.ok(ms < 1500, `refused in ${ms.toFixed(0)} ms`);
      assert.equal(await waiting(pid), 0);
      assert.equal(sizes.refused, 1);
      assert.deepEqual(sizes.latest, first, "the last sizes stand");
    });
    // Only an index locked (REINDEX: the table is in SHARE mode, its index ACCESS EXCLUSIVE): bounded by the lock_timeout.
    await whileLocked(`REINDEX INDEX "sz 1".jobs_pkey`, async () => {
      const t0 = performance.now();
      await sizes.refresh();
      const ms = performance.now() - t0;
      assert.match(sizes.lastRefusal ?? "", /lock timeout/);
      assert.ok(ms >= SIZE_LOCK_TIMEOUT_MS * 0.9 && ms < SIZE_LOCK_TIMEOUT_MS + 1500, `refused in ${ms.toFixed(0)} ms`);
      assert.equal(await waiting(pid), 0, "no wait left behind");
      assert.equal(sizes.refused, 2);
      assert.equal(sizes.failed, undefined, "a refused lock never stops the readings");
    });
    // Nothing left open on the connection: the next reading sees the rows inserted since.
    await admin.query(`INSERT INTO "sz 1".jobs SELECT g, repeat('z', 200) FROM generate_series(5001, 7000) g`);
    await sizes.refresh();
    assert.ok(sizes.latest!.tableBytes > first.tableBytes && sizes.latest!.indexBytes > first.indexBytes, JSON.stringify(sizes.latest));
    assert.equal((await reader.query("SELECT now() = statement_timestamp() AS fresh")).rows[0].fresh, true, "no transaction left open");
  });

  test("in the collector: each reading carries the sizes, and readings go on undelayed through a stall on the table", async () => {
    const c = await TelemetryCollector.start(db.url, { schema: "sz 1", intervalMs: 0, waits: false, client: false });
    try {
      // Sizes are read after each reading, for the next one: the first reading after the baseline may have none yet.
      await c.sampleNow();
      const s1 = await c.sampleNow();
      assert.ok(s1?.tables?.tableBytes && s1.tables.indexBytes, JSON.stringify(s1?.tables));
      await whileLocked(`LOCK TABLE "sz 1".jobs IN ACCESS EXCLUSIVE MODE`, async () => {
        for (let i = 0; i < 3; i++) {
          const t0 = performance.now();
          const s = await c.sampleNow();
          const ms = performance.now() - t0;
          assert.ok(s, "a reading came");
          assert.ok(ms < 1000, `reading ${i} took ${ms.toFixed(0)} ms`);
          assert.deepEqual([s.tables?.tableBytes, s.tables?.indexBytes], [s1.tables!.tableBytes, s1.tables!.indexBytes]);
          assert.equal(await waiting(c.backendPid), 0);
        }
      });
      assert.equal(c.failed, undefined);
      // The window keeps the first and last sizes its readings had.
      const acc = new WindowAccumulator();
      for (const s of c.samples()) acc.add(s);
      const tb = acc.result()!.tables!;
      assert.deepEqual([tb.tableBytesEnd, tb.indexBytesEnd], [s1.tables!.tableBytes, s1.tables!.indexBytes]);
    } finally {
      await c.stop();
    }
  });
});
