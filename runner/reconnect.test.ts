// stepFailed in a run that reconnects (a kill-backend phase, runner/phases/), against a real Postgres: the run's
// control (runner/run-control.ts) reopens a lost loop connection in place, counts a statement that was sent in doubt,
// and gives up in words when the target takes no new connection. (workloads/runtime.test.ts has the failure path of
// a run that does not reconnect; a workload file may reach runner/ only through its core, so this one lives here.)
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import pg from "pg";
import { testDatabase } from "../lib/testing";
import { stepFailed } from "../workloads/runtime";
import { openClient, RunStats, type TargetClient } from "./core";
import { RunControl } from "./run-control";

let db: { url: string; drop: () => Promise<void> };
before(async () => {
  db = await testDatabase("reconnect");
});
after(async () => {
  await db.drop();
});

test("in a run that reconnects (a kill-backend phase), a lost connection is reopened in place: same role and settings, a new backend, the statement in flight counted in doubt, the run going on", async () => {
  const control = new RunControl(db.url);
  control.reconnects = true;
  const tc = await openClient(db.url, "writer 1", false, undefined, control.loopWatch, 4321);
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  try {
    const stats = new RunStats([], 1024, () => performance.now() / 1000);
    const fatal: Error[] = [];
    let doubts = 0;
    const killed = tc.pid;
    // Terminated while its statement runs: the reply never comes.
    const inFlight = tc.client.query("SELECT pg_sleep(5)").then(
      () => assert.fail("the terminated connection should fail"),
      (e: unknown) => e,
    );
    await admin.query("SELECT pg_terminate_backend($1)", [killed]);
    const err = await inFlight;
    const exit = await stepFailed({ stats, fatal: (e) => fatal.push(e), reconnect: control.reconnect }, tc, err, {
      what: "enqueue",
      count: () => undefined,
      noTransaction: true,
      pause: null,
      inDoubt: () => doubts++,
      stop: control.writersStop,
    });
    assert.equal(exit, false);
    assert.equal(fatal.length, 0, fatal.join("; "));
    assert.equal(control.failure, undefined);
    assert.equal(doubts, 1);
    assert.equal(control.reconnections, 1);
    assert.equal(tc.lost, undefined);
    assert.notEqual(tc.pid, killed);
    const { rows } = await tc.client.query<{ pid: number; app: string; st: string; tz: string }>(
      "SELECT pg_backend_pid() AS pid, current_setting('application_name') AS app, current_setting('statement_timeout') AS st, current_setting('TimeZone') AS tz",
    );
    assert.deepEqual(rows[0], { pid: tc.pid, app: "pgbb writer 1", st: "4321ms", tz: "UTC" });
    // A statement refused by a client already known dead never left: a reconnection, nothing in doubt.
    await admin.query("SELECT pg_terminate_backend($1)", [tc.pid]);
    const refused = await waitForLoss(tc).then(() =>
      tc.client.query("SELECT 1").then(
        () => assert.fail("the closed client should refuse"),
        (e: unknown) => e,
      ),
    );
    const step = { what: "enqueue", count: () => undefined, noTransaction: true, pause: null, inDoubt: () => doubts++, stop: control.writersStop };
    assert.equal(await stepFailed({ stats, fatal: (e) => fatal.push(e), reconnect: control.reconnect }, tc, refused, step), false);
    assert.equal(doubts, 1);
    assert.equal(control.reconnections, 2);
    // The loop's stop ends a reconnection: the loop exits.
    await admin.query("SELECT pg_terminate_backend($1)", [tc.pid]);
    await waitForLoss(tc);
    control.writersStop.stop();
    assert.equal(await stepFailed({ stats, fatal: (e) => fatal.push(e), reconnect: control.reconnect }, tc, tc.lost, step), true);
    assert.equal(fatal.length, 0, fatal.join("; "));
  } finally {
    control.closing = true;
    control.liveness.stop();
    await admin.end();
    await tc.client.end().catch(() => undefined);
  }
});

/** Until the client has noticed its backend is gone (generously bounded). */
async function waitForLoss(tc: TargetClient) {
  for (let i = 0; i < 200 && !tc.lost; i++) await new Promise((r) => setTimeout(r, 25));
  assert.ok(tc.lost, `${tc.role} never noticed its terminated backend`);
}

test("in a run that reconnects, a target that takes no new connection for the give-up time fails the run, in words naming the loop", async () => {
  // A database of its own that stops taking connections (ALLOW_CONNECTIONS false: superusers too) once the loop's is killed.
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  const name = `pgbb_giveup_${process.pid}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const u = new URL(db.url);
  u.pathname = `/${name}`;
  const control = new RunControl(u.toString());
  control.reconnects = true;
  control.reconnectGiveUpMs = 1500;
  const tc = await openClient(u.toString(), "reader 2", false, 2000, control.loopWatch);
  try {
    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    await admin.query("SELECT pg_terminate_backend($1)", [tc.pid]);
    await waitForLoss(tc);
    const stats = new RunStats([], 1024, () => performance.now() / 1000);
    const step = { what: "dequeue", count: () => undefined, pause: null, stop: control.readersStop };
    const exit = await stepFailed({ stats, fatal: control.fail, reconnect: control.reconnect }, tc, tc.lost, step);
    assert.equal(exit, true);
    assert.match(control.failure?.message ?? "", /^reader 2 lost its connection and the target took no new one for 1\.5 s: cannot connect to the target/);
    assert.equal(control.reconnections, 0);
  } finally {
    control.closing = true;
    control.liveness.stop();
    await tc.client.end().catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
});

test("a run that failed or was cancelled does not take its target down any more: throughOutage refuses without acting", async () => {
  const control = new RunControl(db.url);
  control.fail(new Error("the run was cancelled"));
  let acted = false;
  await assert.rejects(
    control.throughOutage(async () => {
      acted = true;
    }),
    /^Error: not carried out: the run was ending \(the run was cancelled\)$/,
  );
  assert.equal(acted, false, "the restart was not started");
});

test("a new connection whose first statement the server refuses is named by the server's error, never as a lost connection", async () => {
  // In this test's own database only (pg_proc is per database): a role that may not call pg_backend_pid(), which the
  // first statement of every connection the runner opens reads.
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  const role = `pgbb_refused_${process.pid}`;
  try {
    await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD 'refused-pw'`);
    await admin.query("REVOKE EXECUTE ON FUNCTION pg_backend_pid() FROM PUBLIC");
    const u = new URL(db.url);
    u.username = role;
    u.password = "refused-pw";
    const control = new RunControl(u.toString());
    await assert.rejects(openClient(u.toString(), "writer 1", false, undefined, control.loopWatch), (err: Error) => {
      assert.match(err.message, /permission denied for function pg_backend_pid/);
      assert.doesNotMatch(err.message, /was lost/);
      return true;
    });
    assert.equal(control.failure, undefined, "a connection that was never opened is nobody's loss");
    control.closing = true;
    control.liveness.stop();
  } finally {
    await admin.query("GRANT EXECUTE ON FUNCTION pg_backend_pid() TO PUBLIC");
    await admin.query(`DROP ROLE IF EXISTS ${role}`);
    await admin.end();
  }
});

test("a restart that failed, and what then could not be reopened: the run's failure names the restart's first", async () => {
  const control = new RunControl(db.url);
  control.onOutageEnd(async () => {
    throw new Error("the admin connection could not be opened again: connection refused");
  });
  await assert.rejects(
    control.throughOutage(async () => {
      throw new Error("pg_ctl start failed too (1), so the target is down");
    }),
    /so the target is down/,
  );
  assert.equal(
    control.failure?.message,
    "the target's restart failed: pg_ctl start failed too (1), so the target is down; then the admin connection could not be opened again: connection refused",
  );
  control.closing = true;
  control.liveness.stop();
});
