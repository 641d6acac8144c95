// The embedded replicated target (platform/replicated.ts) on real servers, one cluster shared by the tests of this
// file: a primary and two standbys that stream with the published scenario's sync states, replicate a row, are
// started again when killed from outside, stay down when stopped on purpose, and leave nothing running once stopped.
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import pg from "pg";
import { processesNaming, waitUntil } from "../lib/testing";
import { pidAlive } from "./pid";
import { type ReplicatedCluster, startReplicated } from "./replicated";
import { replicationRows, waitForReplication } from "./replication-wait";

let home: string;
let cluster: ReplicatedCluster;
const lines: string[] = [];

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(sql)).rows;
  } finally {
    await c.end();
  }
}

async function states(): Promise<Record<string, string>> {
  const c = new pg.Client({ connectionString: cluster.primary.url("postgres") });
  await c.connect();
  try {
    return Object.fromEntries((await replicationRows(c)).map((r) => [r.name, `${r.state} ${r.syncState}`]));
  } finally {
    await c.end();
  }
}

before(async () => {
  home = path.join(mkdtempSync(path.join(os.tmpdir(), "pgbb-replicated-")), "replicated");
  chmodSync(path.dirname(home), 0o755);
  cluster = await startReplicated({ home, postgresFlags: ["-c", "fsync=off"], onNote: (l) => lines.push(l) });
});

after(async () => {
  await cluster.stop();
  rmSync(path.dirname(home), { recursive: true, force: true });
});

test("two standbys stream, pg2 sync and pg3 potential, and a row written on the primary is read on each", async () => {
  assert.deepEqual(
    cluster.standbys.map((s) => s.name),
    ["pg2", "pg3"],
  );
  assert.equal(cluster.synchronousStandbyNames, "FIRST 1 (pg2, pg3)");
  assert.deepEqual(await states(), { pg2: "streaming sync", pg3: "streaming potential" });
  assert.match(cluster.notes.join("\n"), /Made the standby folder\(s\) pg2, pg3 .*copied while it was stopped/);
  await query(cluster.primary.url("pgbb_target"), "CREATE TABLE t (v text); INSERT INTO t VALUES ('written on pg1')");
  for (const s of cluster.standbys) {
    await waitUntil(`the row on ${s.name}`, async () => {
      const rows = await query<{ v: string }>(s.url("pgbb_target"), "SELECT v FROM t").catch(() => []);
      return rows[0]?.v === "written on pg1";
    });
    const [{ r }] = await query<{ r: boolean }>(s.url("postgres"), "SELECT pg_is_in_recovery() AS r");
    assert.equal(r, true, `${s.name} is a standby`);
  }
});

test("a standby killed from outside is started again and streams again", { timeout: 120_000 }, async () => {
  const pg2 = cluster.standbys[0];
  const killed = pg2.pid()!;
  process.kill(killed, "SIGKILL");
  await waitUntil("pg2 started again", () => pg2.pid() !== undefined && pg2.pid() !== killed, 60_000);
  await waitForReplication(cluster.primary.url("postgres"), ["pg2", "pg3"], cluster.synchronousStandbyNames);
  assert.deepEqual(await states(), { pg2: "streaming sync", pg3: "streaming potential" });
  assert.match(lines.join("\n"), /the standby pg2 stopped unexpectedly \(SIGKILL\); restarting it/);
});

test("a standby stopped on purpose stays down until start(), and the other one is sync meanwhile", { timeout: 120_000 }, async () => {
  const pg2 = cluster.standbys[0];
  const before = lines.length;
  await pg2.stop();
  assert.equal(pg2.pid(), undefined);
  await waitUntil("pg3 to be sync", async () => (await states()).pg3 === "streaming sync", 30_000);
  await new Promise((r) => setTimeout(r, 3000)); // longer than the supervisor's back-off
  assert.equal(pg2.pid(), undefined, "not started again");
  assert.deepEqual(await states(), { pg3: "streaming sync" });
  assert.deepEqual(lines.slice(before), [], "no restart noted");
  await pg2.start();
  assert.deepEqual(await states(), { pg2: "streaming sync", pg3: "streaming potential" });
});

test("the primary killed from outside is started again on its port, and both standbys stream from it again", { timeout: 120_000 }, async () => {
  const killed = cluster.primary.pid()!;
  process.kill(killed, "SIGKILL");
  await waitUntil("pg1 started again", () => cluster.primary.pid() !== undefined && cluster.primary.pid() !== killed, 60_000);
  await waitForReplication(cluster.primary.url("postgres"), ["pg2", "pg3"], cluster.synchronousStandbyNames);
  assert.deepEqual(await states(), { pg2: "streaming sync", pg3: "streaming potential" });
  assert.match(lines.join("\n"), /the replicated cluster's primary pg1 stopped unexpectedly \(SIGKILL\); restarting it/);
  const [{ v }] = await query<{ v: string }>(cluster.standbys[1].url("pgbb_target"), "SELECT v FROM t");
  assert.equal(v, "written on pg1", "the standby still holds what it had");
});

test("stop() leaves no postgres process of the home and releases its lock", { timeout: 120_000 }, async () => {
  const pids = [cluster.primary.pid(), ...cluster.standbys.map((s) => s.pid())];
  assert.ok(
    pids.every((p) => p && pidAlive(p)),
    `all running: ${pids}`,
  );
  assert.ok(processesNaming(home).length >= 3, "the postmasters are seen by their -D folder");
  await cluster.stop();
  assert.deepEqual(
    pids.filter((p) => pidAlive(p!)),
    [],
  );
  await waitUntil("no process of the home", () => processesNaming(home).length === 0, 30_000);
  assert.equal(existsSync(path.join(home, "owner.pid")), false);
  for (const n of ["pg1", "pg2", "pg3"]) assert.equal(existsSync(path.join(home, n, "postmaster.pid")), false, n);
});
