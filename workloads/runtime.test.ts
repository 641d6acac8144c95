// The one failure path of every workload loop (stepFailed), against a real Postgres: a failed statement is
// rolled back, counted, noted and paused after; a lost connection fails the run instead of retrying.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import pg from "pg";
import { testDatabase } from "../lib/testing";
import { openClient, type TargetClient, RunStats } from "../runner/core";
import { stepFailed } from "./runtime";

let db: { url: string; drop: () => Promise<void> };
before(async () => {
  db = await testDatabase("steps");
});
after(async () => {
  await db.drop();
});

async function failingStep(tc: TargetClient): Promise<unknown> {
  await tc.client.query("BEGIN");
  return tc.client.query("SELECT 1 / 0").then(
    () => assert.fail("division by zero should fail"),
    (err: unknown) => err,
  );
}

test("a failed step is rolled back, counted, noted and paused after; the loop goes on", async () => {
  const tc = await openClient(db.url, "writer 0", false);
  try {
    const stats = new RunStats(["g0"], 1024, () => performance.now() / 1000);
    const fatal: Error[] = [];
    let paused = 0;
    const err = await failingStep(tc);
    const exit = await stepFailed({ stats, fatal: (e) => fatal.push(e) }, tc, err, {
      what: "write p1",
      count: () => stats.op("write").failed(3),
      pause: async () => void paused++,
    });
    assert.equal(exit, false);
    assert.equal(stats.op("write").total.errors, 3);
    assert.deepEqual(stats.errorCounts(), [{ message: "write p1: division by zero", count: 1 }]);
    assert.equal(paused, 1);
    assert.deepEqual(fatal, []);
    // Rolled back: the connection is usable again (an aborted transaction would refuse this).
    assert.equal((await tc.client.query("SELECT 2 AS v")).rows[0].v, 2);
  } finally {
    await tc.client.end();
  }
});

test("a lost connection fails the run, naming the client, and the loop exits without pausing", async () => {
  const tc = await openClient(db.url, "reader g0 p1", false);
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  try {
    const stats = new RunStats(["g0"], 1024, () => performance.now() / 1000);
    const fatal: Error[] = [];
    let paused = 0;
    let counted = 0;
    await admin.query("SELECT pg_terminate_backend($1)", [tc.pid]);
    const err = await tc.client.query("SELECT 1").then(
      () => assert.fail("the terminated connection should fail"),
      (e: unknown) => e,
    );
    const exit = await stepFailed({ stats, fatal: (e) => fatal.push(e) }, tc, err, {
      what: "claim g0 p1",
      count: () => counted++,
      pause: async () => void paused++,
    });
    assert.equal(exit, true);
    assert.equal(counted, 1);
    assert.equal(paused, 0);
    assert.equal(fatal.length, 1);
    assert.match(fatal[0].message, /^reader g0 p1 lost its connection: /);
  } finally {
    await admin.end();
    await tc.client.end().catch(() => undefined);
  }
});
