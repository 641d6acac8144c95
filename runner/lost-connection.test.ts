// Every connection a run holds is watched. Losing the admin connection (idle during the
// measured window, so no query would notice) fails the run at once, naming it; the schema it could then not
// drop is named in the error, and it carries the comment a sweep judges it by.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import pg from "pg";
import { testDatabase } from "../lib/testing";
import { WorkloadConfig } from "../lib/workloads/config";
import { runWorkload } from "./engine";

let db: { url: string; drop: () => Promise<void> };
let admin: pg.Client;
before(async () => {
  db = await testDatabase("lostconn");
  admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
});
after(async () => {
  await admin.end();
  await db.drop();
});

test("a lost admin connection fails the run at once, naming it and the schema left behind", async () => {
  const config = WorkloadConfig.parse({ kind: "queue", writers: 1, readers: 1, throttleWritesPerSec: 100, warmupSeconds: 0, durationSeconds: 30 });
  let schema = "";
  let comment: string | null = null;
  let killedAt = 0;
  const phases: string[] = [];
  const run = runWorkload(config, db.url, {
    runId: "r_0123456789ab",
    onSchema: (s) => (schema = s),
    onPhase: (p) => {
      phases.push(p);
      if (p !== "measuring") return;
      void (async () => {
        comment = (await admin.query<{ c: string }>("SELECT obj_description($1::regnamespace, 'pg_namespace') AS c", [schema])).rows[0].c;
        // Stamped before the kill: the run may fail (its connection closed) before this query's answer is read here.
        killedAt = Date.now();
        await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'pgbb admin' AND datname = current_database()");
      })();
    },
  });
  await assert.rejects(run, (err: Error) => {
    assert.match(err.message, /^the admin connection to postgresql:\/\/.*:\*\*\*\*@.* was lost: /);
    assert.match(err.message, /the run's schema pgbb_r_0123456789ab could not be dropped/);
    return true;
  });
  // At once, not at verification: the run never drained nor verified, and it failed well before its 30 s were up (about
  // 0.1 s after the loss on a quiet machine; the bound is the machine's, whatever its load).
  assert.ok(killedAt > 0, "the admin connection was killed");
  assert.deepEqual(
    phases.filter((p) => p === "draining" || p === "verifying"),
    [],
    `the phases it went through: ${phases.join(", ")}`,
  );
  assert.ok(Date.now() - killedAt < 15_000, `failed ${Date.now() - killedAt} ms after the loss, not at verification`);
  assert.match(comment ?? "", /"pgbbRun":"r_0123456789ab","createdAt":"\d{4}-/);
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
});
