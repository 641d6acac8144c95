// A restart that stops the server and cannot start it again (./cluster-restart.ts restartCluster): it says so, tries
// one `pg_ctl start` so that the target is not left down where nothing supervises it, and says how that went. Made
// for real on a private embedded cluster: a setting the server refuses to start with, written after its start.
import assert from "node:assert/strict";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import pg from "pg";
import { startTestServer } from "../lib/testing";
import { restartCluster } from "./cluster-restart";
import { postmasterOf } from "./pid";

let server: Awaited<ReturnType<typeof startTestServer>>;
let dataDir: string;
before(async () => {
  server = await startTestServer([], "restartable");
  const c = new pg.Client({ connectionString: server.url("postgres") });
  await c.connect();
  dataDir = (await c.query<{ d: string }>("SELECT current_setting('data_directory') AS d")).rows[0].d;
  await c.end();
});
after(() => server?.stop());

test("a restart whose start fails: the server it stopped is started once more, and the words say the target is down when that fails too", async () => {
  const conf = path.join(dataDir, "postgresql.auto.conf");
  const kept = readFileSync(conf, "utf8");
  // Read at the next start only: the running server is untouched, the restart's start and the fallback's both fail.
  appendFileSync(conf, "\nshared_buffers = 'not a size'\n");
  try {
    await assert.rejects(restartCluster(dataDir, 20_000), (err: Error) => {
      assert.match(err.message, /^pg_ctl restart on .* failed \(exit code \d+\)/);
      assert.match(err.message, /it had stopped the server without starting it again: pg_ctl start failed too \(1\), so the target is down$/);
      return true;
    });
    assert.equal(postmasterOf(dataDir), null, "the server is down, as the words say");
  } finally {
    writeFileSync(conf, kept);
  }
});
