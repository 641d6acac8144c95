// The telemetry collector on the embedded Postgres: beside a real run it tells the run's backends from
// everyone else's, reads WAL, checkpoints, the database's and the run's tables' counters and the host, costs
// one round trip per sample, keeps bounded memory, and says what a role without pg_monitor cannot see.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import pg from "pg";
import { testDatabase, waitUntil } from "../../lib/testing";
import { RunSummary } from "../../lib/measurement/summary";
import { CATEGORIES } from "../../lib/telemetry/verdict";
import { WorkloadConfig } from "../../lib/workloads/config";
import { runWorkload, type EngineSample } from "../engine";
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
/** Waits for `cond`, at most 30 s (a collector on a busy machine reads late): a reading, not a length of time. */
const until = (what: string, cond: () => boolean) => waitUntil(what, cond, 30_000);

describe("in a run", () => {
  test("every engine sample carries the server's reading of the same interval: the run's connections, their waits, WAL, commits, the run's tables, the host, the runner, its own cost; the summary the window and the verdict", async () => {
    const config = WorkloadConfig.parse({ kind: "queue", writers: 2, readers: 2, durationSeconds: 3, warmupSeconds: 0 });
    const engineSamples: EngineSample[] = [];
    const summary = await runWorkload(config, db.url, { drainSeconds: 2, onSample: (s) => void engineSamples.push(s) });
    const samples = engineSamples.flatMap((s) => (s.metrics.telemetry ? [s.metrics.telemetry] : []));
    // One reading a second, each handed to one engine sample only.
    assert.ok(samples.length >= 2, `${samples.length} readings in ${engineSamples.length} samples`);
    assert.equal(new Set(samples.map((s) => s.time)).size, samples.length);
    // Each reading covers its engine sample's interval: about a second, or the shorter one cut at a phase's end.
    for (const e of engineSamples) {
      const r = e.metrics.telemetry;
      if (r && e.metrics.intervalSec >= 0.9)
        assert.ok(r.intervalSec > 0.5 && r.intervalSec < 3, `interval ${r.intervalSec} in a ${e.metrics.intervalSec} s sample`);
    }
    for (const s of samples) {
      assert.ok(s.intervalSec > 0 && s.intervalSec < 3, `interval ${s.intervalSec}`);
      assert.equal(s.overhead.statements, 6, "six statements, one round trip");
      assert.ok(s.overhead.ms > 0 && s.overhead.ms < 1000);
      assert.ok(s.host && s.host.cores > 0 && s.host.serverCpuCores >= 0);
      assert.ok(s.client && s.client.cpuPct >= 0);
      assert.ok(s.db && s.tables && s.checkpoints);
      // The queue's tables and their primary keys have pages on disk from the first reading (read lock-free: ./sizes.ts).
      assert.ok(s.tables.tableBytes! >= 8192 && s.tables.indexBytes! >= 8192, `sizes ${s.tables.tableBytes} / ${s.tables.indexBytes}`);
    }
    // The run held 4 connections (2 writers + 2 readers; the admin connection idles apart) while it loaded.
    assert.ok(
      samples.some((s) => s.run.total / (s.ticks ?? 1) >= 3.5 && s.run.total / (s.ticks ?? 1) <= 4),
      `run connections per reading: ${samples.map((s) => s.run.total / (s.ticks ?? 1))}`,
    );
    const t = summary.telemetry!;
    assert.ok(t, "the summary carries the telemetry");
    assert.equal(t.info.serverVersionNum >= 130000, true);
    assert.equal(t.info.monitor, true, "the embedded superuser sees everything");
    assert.equal(t.info.host.available, true, t.info.host.reason);
    const w = t.window!;
    assert.ok(w.seconds >= 1 && w.seconds <= 3.5, `window ${w.seconds} s of a 3 s measured window`);
    assert.ok(w.db!.commitsPerSec > 10, `commits/s ${w.db!.commitsPerSec}`);
    assert.ok(w.wal!.bytesPerSec > 1000 && w.wal!.recordsPerSec! > 0, "WAL written");
    assert.ok(w.tables, "the queue's tables are seen");
    assert.ok(w.overhead.statementsPerSec > 3 && w.overhead.statementsPerSec < 8);
    assert.ok(CATEGORIES.includes(t.verdict.category));
    assert.ok(RunSummary.safeParse(summary).success);
  });

  test("telemetry off: no readings, no telemetry in the summary", async () => {
    const config = WorkloadConfig.parse({ kind: "queue", writers: 1, readers: 1, durationSeconds: 2, warmupSeconds: 0 });
    const engineSamples: EngineSample[] = [];
    const summary = await runWorkload(config, db.url, { drainSeconds: 1, telemetry: false, onSample: (s) => void engineSamples.push(s) });
    assert.equal(summary.telemetry, undefined);
    assert.ok(engineSamples.every((s) => s.metrics.telemetry === undefined));
  });

  test("memory is bounded: the collector keeps its last `keep` readings", async () => {
    const c = await TelemetryCollector.start(db.url, { intervalMs: 150, keep: 2 });
    await until("a first reading", () => c.samples().length > 0);
    const first = c.samples()[0];
    // Once the first reading has gone, more than 2 were taken.
    await until("the first reading to be dropped", () => !c.samples().includes(first));
    await c.stop();
    assert.ok(!c.samples().includes(first), "a third reading came");
    assert.equal(c.samples().length, 2);
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
    const busyPid = (await busy.query("SELECT pg_backend_pid() AS pid")).rows[0].pid as number;
    // Cancelled in the end: long enough for a wait sampler slowed by its cost budget on a busy machine.
    // (Its end, by the cancel, is expected: handled at once, so the rejection is never unhandled.)
    const sleeping = busy.query("SELECT pg_sleep(60)").catch(() => undefined);
    try {
      await sleep(200);
      const plain = await TelemetryCollector.start(u.toString(), { intervalMs: 300 });
      await until("a reading by the role without pg_monitor", () => plain.samples().length > 0);
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
      // The wait sampler reads at random instants (fewer on a light target): wait for a reading, generously.
      const seesIt = () => monitor.samples().some((s) => (s.otherWaits["Timeout:PgSleep"] ?? 0) >= 1);
      await until("the other session's wait seen", seesIt).catch(() => undefined);
      await monitor.stop();
      assert.equal(monitor.info.monitor, true);
      assert.doesNotMatch(monitor.info.missing.join("\n"), /pg_monitor/);
      assert.ok(seesIt(), "with pg_monitor the other session's wait is seen");
    } finally {
      await admin.query("SELECT pg_cancel_backend($1)", [busyPid]).catch(() => undefined);
      await sleeping;
      await busy.end();
      await admin.query(`DROP ROLE ${role}`).catch(() => undefined);
    }
  });
});

describe("telemetry never fails a run", () => {
  test("a lost telemetry connection stops sampling and says so", async () => {
    const c = await TelemetryCollector.start(db.url, { intervalMs: 200 });
    await admin.query("SELECT pg_terminate_backend($1)", [c.backendPid]);
    await until("the lost connection to stop sampling", () => c.failed !== undefined);
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
