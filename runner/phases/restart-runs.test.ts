// The restart-target phase carried out for real through the engine, on a PRIVATE embedded cluster this file starts
// (never the shared test server, which its marker keeps from being restarted): the target goes down and up again
// mid-run, the loops reconnect, what was in flight is in doubt and settled, verification stays exact, the run's other
// connections come back (its admin connection drops the schema at the end), the telemetry's missing seconds are
// named, and the phase is in the summary with its recovery. A target that is not one the product may restart is
// refused before any load, in words.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import pg from "pg";
import { phaseReportLines } from "../../lib/phases/words";
import { factOf } from "../../lib/measurement/verification";
import { identityOf } from "../../lib/targets/connect";
import { parseConfig, type WorkloadConfig, type WorkloadInput } from "../../lib/workloads/config";
import { startTestServer, testDatabase } from "../../lib/testing";
import type { EngineSample } from "../engine";
import { runWorkload, summaryText, verificationError } from "../harness";
import { SCHEMA_LOCK_KEY } from "../sweep";

let server: Awaited<ReturnType<typeof startTestServer>>;
let url: string;
before(async () => {
  server = await startTestServer([], "restartable");
  const c = new pg.Client({ connectionString: server.url("postgres") });
  await c.connect();
  await c.query("CREATE DATABASE restarts");
  await c.end();
  url = server.url("restarts");
});
after(() => server?.stop());

const configOf = (input: WorkloadInput): WorkloadConfig => {
  const r = parseConfig(input);
  assert.ok(r.ok, JSON.stringify(!r.ok && r.errors));
  return r.config;
};

const IN_DOUBT = "operations in doubt (connection lost before the reply; settled either way)";
const postmasterPid = () => Number(readFileSync(path.join(server.dir, "pg", "postmaster.pid"), "utf8").split("\n")[0]);

const queueRun = (phases: string) =>
  configOf({ kind: "queue", writers: 2, readers: 2, throttleWritesPerSec: 200, warmupSeconds: 2, durationSeconds: 10, phases });

test("restart-target on a queue run: the target restarts mid-run, the loops reconnect, verification is exact with the in-doubt settled, and the phase is in the summary with its recovery", async (t) => {
  const pidBefore = postmasterPid();
  const samples: EngineSample[] = [];
  const s = await runWorkload(queueRun("restart-target@6s"), url, { drainSeconds: 5, onSample: (x) => void samples.push(x) });
  assert.notEqual(postmasterPid(), pidBefore, "the target's postmaster is a new one: it was restarted");
  assert.equal(s.verification.ok, true, verificationError(s) ?? "");
  // Every loop lost its connection: each reconnected, and what was in flight was counted in doubt and settled.
  assert.equal(typeof factOf(s.verification, IN_DOUBT), "number", JSON.stringify(s.verification.facts));
  const note = (s.notes ?? []).find((n) => /^the loops reconnected (once|\d+ times) after losing a connection/.test(n));
  assert.ok(note, JSON.stringify(s.notes));
  assert.ok(Number(/reconnected (\d+) times/.exec(note)?.[1] ?? 1) >= 1, note);

  assert.equal(s.phases?.length, 1, JSON.stringify(s.phases));
  const r = s.phases![0];
  const lines = phaseReportLines(r).join("\n");
  assert.equal(r.problem, undefined, lines);
  assert.equal(r.phase.kind, "restart-target");
  // Not before its time; later only as much as a busy machine delays it, within the run's 12 s of load.
  assert.ok(r.startedSec !== null && r.startedSec >= 6 && r.startedSec < 12, lines);
  assert.match(r.did, /^restarted the target \(pg_ctl restart -m fast\): down \d+\.\d s, from the restart's start until a new connection answered$/);
  assert.ok(r.endedSec !== null && r.endedSec >= r.startedSec, lines);
  assert.ok(r.before && r.after, lines);
  // The recovery is measured against the rate before it: a time, or the words saying it was not back.
  assert.match(lines, r.recoverySec === null ? /^ {2}not recovered in the [\d.]+ s after it: /m : /^ {2}recovered [\d.]+ s after it ended/m, lines);
  // The dead tuples at its end were read on the driver's connection opened again after the restart.
  assert.ok(r.deadTuples, lines);

  // The summary the CLI prints names the phase, and the verdict the instant it acted at.
  assert.match(summaryText(s, "the private cluster"), /phase restart-target@6s \([\d.]+–[\d.]+ s\): restarted the target/);
  assert.match(s.telemetry!.verdict.statement, /restart-target@6s restarted the target at 6 s/);
  // The telemetry reconnected: the seconds it could not read are named as missing, not zeros.
  assert.ok(
    s.telemetry!.info.missing.some((m) => /^no server reading for \d+\.\d s while the target restarted/.test(m)),
    JSON.stringify(s.telemetry!.info.missing),
  );
  assert.ok(
    s.telemetry!.info.missing.some((m) => /the wait sampler was started again once the target was back/.test(m)),
    JSON.stringify(s.telemetry!.info.missing),
  );
  // And in the samples: every reading of the measured window is a real one (a queue at 200 msg/s commits every
  // second), none a zero standing in for the seconds the target was down; those have none.
  const readings = samples.filter((x) => x.phase === "measuring").map((x) => x.metrics.telemetry);
  assert.ok(
    readings.some((x) => x === undefined),
    "a second of the outage has no reading",
  );
  for (const x of readings) if (x?.db) assert.ok(x.db.commitsPerSec > 0, JSON.stringify(x.db));
  t.diagnostic(`${lines}\n${(s.notes ?? []).join("\n")}\n${s.telemetry!.info.missing.join("\n")}`);
  // The admin connection came back with the schema's lock: the run dropped its schema at the end.
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const left = await c.query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'pgbb_%'");
  await c.end();
  assert.deepEqual(left.rows, [], "the run's schema was dropped at the end");
});

test("restart-target is refused before any load on a target a phase may not restart: the shared test server, the control store's server, or one another run is using", async () => {
  let schemas = 0;
  const onSchema = () => void schemas++;
  // The test file's shared server (npm test's, or a private one marked so): never restarted.
  const shared = await testDatabase("restart_refused");
  try {
    await assert.rejects(runWorkload(queueRun("restart-target@6s"), shared.url, { onSchema }), (e: Error) => {
      assert.match(e.message, /^restart-target: .*use kill-backend to take connections from under the run on any target/);
      return true;
    });
  } finally {
    await shared.drop();
  }
  // The private cluster a restart may restart, but with the control store on the same server: refused.
  const controlStore = await identityOf(server.url("postgres"));
  assert.ok(controlStore);
  await assert.rejects(runWorkload(queueRun("restart-target@6s"), url, { onSchema, controlStore }), (e: Error) => {
    assert.match(e.message, /^restart-target: the target is on the app's control store's server: .*use kill-backend/);
    return true;
  });
  // Another run's session on the same server (any database): the restart would end it too.
  const other = new pg.Client({ connectionString: server.url("postgres"), application_name: "pgbb writer 0" });
  await other.connect();
  try {
    await assert.rejects(runWorkload(queueRun("restart-target@6s"), url, { onSchema }), (e: Error) => {
      assert.match(e.message, /^restart-target: another run is using this target \(1 session: pgbb writer 0 on postgres\): a restart ends every session/);
      return true;
    });
  } finally {
    await other.end();
  }
  assert.equal(schemas, 0, "no run's schema was made: refused at the preflight");
});

test("runs started on the same server after the preflight keep the restart from being carried out: the phase says so, the run goes on and verifies", async () => {
  // Two other runs, as the phase sees them, both begun once this run has passed its preflight (its schema is made
  // after it), in another database: one holding its schema's lock (runner/sweep.ts schemaLock), one still starting
  // (its admin session open, no lock yet). Each is named on its own: either check alone would miss one.
  const other = new pg.Client({ connectionString: server.url("postgres"), application_name: "pgbb admin" });
  const starting = new pg.Client({ connectionString: server.url("postgres"), application_name: "pgbb admin" });
  let started: Promise<unknown> | undefined;
  const pidBefore = postmasterPid();
  try {
    const s = await runWorkload(queueRun("restart-target@3s"), url, {
      drainSeconds: 3,
      onSchema: () => {
        started = Promise.all([
          other.connect().then(() => other.query(`SELECT pg_advisory_lock(${SCHEMA_LOCK_KEY}, hashtext('pgbb_r_another_run'))`)),
          starting.connect(),
        ]);
      },
    });
    await started;
    assert.equal(postmasterPid(), pidBefore, "the target was not restarted");
    assert.equal(s.verification.ok, true, verificationError(s) ?? "");
    const r = s.phases?.[0];
    assert.ok(r, JSON.stringify(s.phases));
    assert.equal(r.startedSec, null, JSON.stringify(r));
    assert.match(
      r.problem ?? "",
      /^restart-target@3s could not begin: another run has started on this target since this run's preflight \(1 run holding its schema, in database postgres; 1 run starting \(its admin session, no schema yet\), in database postgres\): a restart would end its sessions too, so it was not carried out; use kill-backend/,
    );
  } finally {
    await other.end();
    await starting.end();
  }
});
