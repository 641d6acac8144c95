// A restart-target phase whose restart stops the server and cannot start it again, made for real on a private
// embedded cluster (a setting the server refuses to start with, written after its start): platform/cluster-restart.ts
// restartCluster says so and tries one `pg_ctl start`, so that the target is not left down where nothing supervises
// it, and says how that went; the phase (./actions.ts begin) is one that acted, not one that "could not begin".
import assert from "node:assert/strict";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import pg from "pg";
import { startTestServer } from "../../lib/testing";
import { postmasterOf } from "../../platform/pid";
import { Pause } from "../core/timing";
import { begin, PhaseActedError } from "./actions";

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

test("a restart whose start fails: the server it stopped is started once more, the words say the target is down when that fails too, and the phase did act", async () => {
  const conf = path.join(dataDir, "postgresql.auto.conf");
  const kept = readFileSync(conf, "utf8");
  // Read at the next start only: the running server is untouched, the restart's start and the fallback's both fail.
  appendFileSync(conf, "\nshared_buffers = 'not a size'\n");
  let wentDown = false;
  try {
    const ctx = {
      targetUrl: server.url("postgres"),
      schemaName: "pgbb_r_restart_failed",
      pause: new Pause(),
      backends: () => [],
      clusterDir: dataDir,
      outage: <T>(down: () => Promise<T>) => {
        wentDown = true;
        return down();
      },
    };
    await assert.rejects(begin({ kind: "restart-target", startSec: 3, lengthSec: 0 }, ctx), (err: Error) => {
      assert.ok(err instanceof PhaseActedError, `${err.name}: ${err.message}`);
      assert.equal(err.did, "restarted the target (pg_ctl restart -m fast)");
      assert.match(err.message, /^pg_ctl restart on .* failed \(exit code \d+\)/);
      assert.match(err.message, /it had stopped the server without starting it again: pg_ctl start failed too \(1\), so the target is down$/);
      assert.doesNotMatch(err.message, /could not begin/);
      return true;
    });
    assert.ok(wentDown, "the restart went through the run's outage");
    assert.equal(postmasterOf(dataDir), null, "the server is down, as the words say");
  } finally {
    writeFileSync(conf, kept);
  }
});
