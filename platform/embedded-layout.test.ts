// Data folders of the earlier layout (the default target a database inside the control store's cluster) keep
// working: at start the old pgbb_target is dropped when nothing of the user's is in it, else left alone, saying so.
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import pg from "pg";
import { freePort } from "../lib/testing";
import { CONTROL_DB, type EmbeddedServer, retireOldTargetDatabase, startEmbedded, TARGET_DB } from "./embedded";

let dir: string;
let server: EmbeddedServer;
before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "pgbb-layout-"));
  chmodSync(dir, 0o755);
  // The earlier layout: one cluster holding both databases.
  server = await startEmbedded({ dataDir: dir, port: await freePort(), databases: [CONTROL_DB, TARGET_DB] });
});
after(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function sql(db: string, text: string) {
  const c = new pg.Client({ connectionString: server.url(db) });
  await c.connect();
  try {
    return (await c.query(text)).rows;
  } finally {
    await c.end();
  }
}

test("the old pgbb_target holding a table of the user's is left alone, with a line saying how to drop it", async () => {
  await sql(TARGET_DB, "CREATE TABLE mine (x int)");
  const note = await retireOldTargetDatabase(server);
  assert.match(
    note ?? "",
    /still holds the database pgbb_target of the earlier layout, with 1 table or other relation\(s\) of yours: left as it is; .*DROP DATABASE pgbb_target/,
  );
  assert.equal((await sql("postgres", "SELECT 1 FROM pg_database WHERE datname = 'pgbb_target'")).length, 1);
  await sql(TARGET_DB, "DROP TABLE mine");
});

test("the old pgbb_target holding only leftover run schemas is dropped; the control store is untouched; then nothing more is said", async () => {
  await sql(TARGET_DB, "CREATE SCHEMA pgbb_r_0123456789ab; CREATE TABLE pgbb_r_0123456789ab.queue (id bigint)");
  await sql(CONTROL_DB, "CREATE TABLE kept (x int); INSERT INTO kept VALUES (42)");
  const note = await retireOldTargetDatabase(server);
  assert.match(note ?? "", /^Dropped the database pgbb_target of the earlier layout from the control store's server \(it held nothing of yours\)/);
  assert.equal((await sql("postgres", "SELECT 1 FROM pg_database WHERE datname = 'pgbb_target'")).length, 0);
  assert.deepEqual(await sql(CONTROL_DB, "SELECT x FROM kept"), [{ x: 42 }]);
  assert.equal(await retireOldTargetDatabase(server), null);
});
