// The run option synchronousCommit on a real Postgres: every session a run opens (the admin one, each workload
// connection, in one process and over two forked parts) starts with it and reports it back; the run's recorded
// server settings show the value its sessions had, not the database's default; a session without it is named.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import pg from "pg";
import { testDatabase } from "../lib/testing";
import { WorkloadConfig, type WorkloadInput } from "../lib/workloads/config";
import { closeClient, openClient, openClients } from "./core/pg/pgclient";
import { runWorkload } from "./engine";
import { sessionSettingProblem, sessionSettingsOf, withSessionSettings } from "./session-options";

let db: { url: string; drop: () => Promise<void> };

before(async () => {
  db = await testDatabase("session_options");
  // The database's own default differs from every level the runs below ask for.
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  await admin.query(`ALTER DATABASE ${new URL(db.url).pathname.slice(1)} SET synchronous_commit = 'local'`);
  await admin.end();
});
after(async () => {
  await db.drop();
});

const queue = (extra: Partial<WorkloadInput> = {}) =>
  WorkloadConfig.parse({ kind: "queue", writers: 2, readers: 2, throttleWritesPerSec: 200, durationSeconds: 1, warmupSeconds: 0, ...extra } as WorkloadInput);

test("the URL's options carry the run's settings after any it had, the rest of the URL as written", () => {
  assert.equal(withSessionSettings("postgresql://u:p@h:5432/db", {}), "postgresql://u:p@h:5432/db");
  assert.equal(
    withSessionSettings("postgresql://u:p@h:5432/db", { synchronous_commit: "off" }),
    "postgresql://u:p@h:5432/db?options=-c%20synchronous_commit%3Doff",
  );
  assert.equal(
    withSessionSettings("postgresql://u@h/db?sslmode=disable&options=-c%20search_path%3Dx&application_name=a%2Fb", { synchronous_commit: "remote_apply" }),
    "postgresql://u@h/db?sslmode=disable&application_name=a%2Fb&options=-c%20search_path%3Dx%20-c%20synchronous_commit%3Dremote_apply",
  );
  assert.deepEqual(sessionSettingsOf(queue()), {});
  assert.deepEqual(sessionSettingsOf(queue({ synchronousCommit: "remote_write" })), { synchronous_commit: "remote_write" });
});

test("each session reports the synchronous_commit it started with; one without the run's is named", async () => {
  const url = withSessionSettings(db.url, { synchronous_commit: "remote_apply" });
  const ours = await openClients(url, ["writer 0", "reader 0"]);
  const plain = await openClient(db.url, "admin");
  try {
    assert.deepEqual(
      ours.map((c) => c.synchronousCommit),
      ["remote_apply", "remote_apply"],
    );
    assert.equal(plain.synchronousCommit, "local");
    const config = queue({ synchronousCommit: "remote_apply" });
    assert.equal(sessionSettingProblem(config, ours), null);
    assert.equal(sessionSettingProblem(queue(), [plain]), null, "a run that asks none accepts the server's");
    const problem = sessionSettingProblem(config, [...ours, plain]);
    assert.match(
      problem ?? "",
      new RegExp(`^the run asked synchronous_commit = remote_apply of every session, but 1 of 3 did not have it: admin \\(backend ${plain.pid}: local\\)\\.`),
    );
  } finally {
    await Promise.all([...ours, plain].map((c) => closeClient(c.client)));
  }
});

test("a run's sessions all have its level, in one process and over two parts; its settings record it", async () => {
  for (const [level, processes] of [
    ["remote_write", 1],
    ["off", 2],
  ] as const) {
    const summary = await runWorkload(queue({ synchronousCommit: level, processes }), db.url, { drainSeconds: 3 });
    // A session without the level would have failed the run (sessionSettingProblem in each process).
    assert.equal(summary.manifest.serverSettings.synchronous_commit, level, `${level}, ${processes} process(es)`);
    assert.equal(summary.config.synchronousCommit, level);
    assert.ok(summary.verification.ok, summary.verification.problems.join("; "));
  }
  // Without the option the sessions keep the database's default, and the settings say so.
  const plain = await runWorkload(queue(), db.url, { drainSeconds: 3 });
  assert.equal(plain.manifest.serverSettings.synchronous_commit, "local");
  assert.equal(plain.config.synchronousCommit, undefined);
});
