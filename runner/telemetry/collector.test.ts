// The telemetry collector on the embedded Postgres: beside a real run it tells the run's backends from
// everyone else's, reads WAL, checkpoints, the database's and the run's tables' counters and the host, costs
// one round trip per sample, keeps bounded memory, and says what a role without pg_monitor cannot see.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import pg from "pg";
import { testDatabase } from "../../lib/testing";
import type { TelemetrySample } from "../../lib/telemetry/shape";
import { telemetryWindow } from "../../lib/telemetry/window";
import { WorkloadConfig } from "../../lib/workloads/config";
import { runWorkload } from "../engine";
import { missingFor, TelemetryCollector } from "./collector";
import { TelemetryRecorder } from "./recorder";

let db: { url: string; drop: () => Promise<void> };
let admin: pg.Client;

before(async () => {
  db = await testDatabase("telemetry");
  admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
});
after(async () => {
  await admin.end();
  await db.drop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("beside a run", () => {
  test("samples every second: the run's connections, their waits, WAL, commits, the run's tables, the host, the runner, its own cost", async () => {
    const config = WorkloadConfig.parse({ kind: "queue", writers: 2, readers: 2, durationSeconds: 3, warmupSeconds: 0 });
    let pids: number[] = [];
    let collector: TelemetryCollector | undefined;
    let started: Promise<TelemetryCollector> | undefined;
    let schema = "";
    await runWorkload(config, db.url, {
      drainSeconds: 2,
      onSchema: (s) => (schema = s),
      onConnections: (p) => {
        pids = p;
        started = TelemetryCollector.start(db.url, { schema, runPids: () => pids, keep: 3 });
        started.then((c) => (collector = c));
      },
    });
    await started;
    assert.ok(collector);
    const c = collector;
    await c.stop();
    const samples = c.samples() as TelemetrySample[];
    // keep: 3 bounds what it holds, whatever the run's length.
    assert.ok(samples.length >= 2 && samples.length <= 3, `kept ${samples.length}`);
    assert.equal(c.info.serverVersionNum >= 130000, true);
    assert.equal(c.info.monitor, true, "the embedded superuser sees everything");
    assert.equal(c.info.host.available, true, c.info.host.reason);
    for (const s of samples) {
      assert.ok(s.intervalSec > 0.5 && s.intervalSec < 3, `interval ${s.intervalSec}`);
      assert.equal(s.overhead.statements, 6, "six statements, one round trip");
      assert.ok(s.overhead.ms > 0 && s.overhead.ms < 1000);
      assert.ok(s.host && s.host.cores > 0 && s.host.serverCpuCores >= 0);
      assert.ok(s.client && s.client.cpuPct >= 0);
      assert.ok(s.db && s.tables && s.checkpoints);
    }
    const w = telemetryWindow(samples)!;
    // The run held 5 connections (admin + 2 writers + 2 readers) while it loaded; at the end some had closed.
    assert.ok(
      samples.some((s) => s.run.total === 5),
      `run connections: ${samples.map((s) => s.run.total)}`,
    );
    assert.ok(w.db!.commitsPerSec > 10, `commits/s ${w.db!.commitsPerSec}`);
    assert.ok(w.wal!.bytesPerSec > 1000 && w.wal!.recordsPerSec! > 0, "WAL written");
    assert.ok(
      samples.some((s) => s.tables!.deadTuples > 0 || s.tables!.liveTuples > 0),
      "the queue's tables are seen",
    );
    assert.ok(w.overhead.statementsPerSec > 3 && w.overhead.statementsPerSec < 8);
  });
});

describe("a role without pg_monitor", () => {
  test("sees only its own sessions, says what it misses and how to grant it; with pg_monitor it sees the rest", async () => {
    const role = `nomon_${Math.random().toString(36).slice(2, 8)}`;
    await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD 'pw'`);
    const u = new URL(db.url);
    u.username = role;
    u.password = "pw";
    // A superuser's session, busy on the server: only a monitoring role can see what it does.
    const busy = new pg.Client({ connectionString: db.url });
    await busy.connect();
    const sleeping = busy.query("SELECT pg_sleep(4)");
    try {
      await sleep(200);
      const plain = await TelemetryCollector.start(u.toString(), { intervalMs: 300 });
      await sleep(800);
      await plain.stop();
      assert.equal(plain.info.monitor, false);
      const missing = plain.info.missing.join("\n");
      assert.match(missing, new RegExp(`GRANT pg_monitor TO ${role}`));
      assert.match(missing, /other roles' sessions show no state or wait event/);
      const seen = plain.samples();
      assert.ok(seen.length >= 1);
      assert.ok(
        seen.every((s) => !s.otherWaits["Timeout:PgSleep"]),
        "the superuser's pg_sleep is hidden",
      );
      // Everything that is not per-session still works for it.
      assert.ok(seen.every((s) => s.wal && s.db && s.checkpoints));

      await admin.query(`GRANT pg_monitor TO ${role}`);
      const monitor = await TelemetryCollector.start(u.toString(), { intervalMs: 300 });
      await sleep(800);
      await monitor.stop();
      assert.equal(monitor.info.monitor, true);
      assert.doesNotMatch(monitor.info.missing.join("\n"), /pg_monitor/);
      assert.ok(
        monitor.samples().some((s) => (s.otherWaits["Timeout:PgSleep"] ?? 0) >= 1),
        "with pg_monitor the other session's wait is seen",
      );
    } finally {
      await sleeping.catch(() => undefined);
      await busy.end();
      await admin.query(`DROP ROLE ${role}`).catch(() => undefined);
    }
  });
});

describe("telemetry never fails a run", () => {
  test("a lost telemetry connection stops sampling and says so", async () => {
    const c = await TelemetryCollector.start(db.url, { intervalMs: 200 });
    await admin.query("SELECT pg_terminate_backend($1)", [c.backendPid]);
    await sleep(800);
    await c.stop();
    assert.match(c.failed ?? "", /lost|failed/);
    assert.ok(c.info.missing.some((m) => m.startsWith("telemetry stopped:")));
  });

  test("a recorder that cannot connect leaves the reason and a verdict from the client's numbers", async () => {
    const u = new URL(db.url);
    u.password = "wrong";
    const r = await TelemetryRecorder.start(u.toString(), "pgbb_none", []);
    const t = await r.finish({ client: { cpuPct: 95 }, throttle: { perSec: 0, achievedPerSec: 10 } });
    assert.match(t.info.missing[0], /^telemetry could not connect to the target: .*the run went on without it/);
    assert.equal(t.window, undefined);
    assert.equal(t.verdict.category, "client-bound");
    assert.ok(t.verdict.blindSpots.some((b) => /no server telemetry/.test(b)));
  });
});

describe("what is missing, by server and host", () => {
  test("PostgreSQL 13 has no pg_stat_wal; timing off is named; a remote host is labelled unavailable", () => {
    const remote = { available: false, reason: "the target is reached at 10.0.0.5, not on this machine" };
    const v13 = missingFor({ version: 130012, monitor: true, walTiming: false }, "bench", remote).join("\n");
    assert.match(v13, /pg_stat_wal is PostgreSQL 14\+ \(this server is 13\)/);
    assert.match(v13, /server host CPU and I\/O: the target is reached at 10\.0\.0\.5/);
    const v16 = missingFor({ version: 160004, monitor: true, walTiming: false }, "bench", { available: true, reason: "" }).join("\n");
    assert.match(v16, /track_wal_io_timing is off/);
    assert.deepEqual(missingFor({ version: 180004, monitor: true, walTiming: true }, "bench", { available: true, reason: "" }), []);
  });
});
