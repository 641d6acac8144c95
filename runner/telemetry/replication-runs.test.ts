// Replication telemetry on real servers: one embedded primary with two standbys (platform/replicated.ts,
// FIRST 1 (pg2, pg3)) for the whole file, brief runs of the three-node pub/sub preset's shape at a small rate, and
// each conclusion provoked for real: lag recorded per standby, the synchronous standby stopped mid-run (named, pg3
// takes over, no stall), both stopped (the stall named and timed, ending when pg2 streams again), a paused replay
// (named as behind while writes keep up), commits waiting on a standby's replay (replication-bound) and not when
// they do not wait, and never on a single node. The same rules on hand-made readings: lib/telemetry/replication.test.ts.
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import pg from "pg";
import { replicationOf } from "../../lib/measurement/summary-replication";
import { RunSummary } from "../../lib/measurement/summary";
import { eventsOf } from "../../lib/telemetry/replication";
import { eventWords } from "../../lib/telemetry/replication-words";
import { explainVerdict } from "../../lib/telemetry/testing";
import { testDatabase, waitUntil } from "../../lib/testing";
import { presetById, WorkloadConfig, type WorkloadInput } from "../../lib/workloads/config";
import { startReplicated } from "../../platform/replicated";
import { type EngineSample, runWorkload } from "../engine";
import { TelemetryCollector } from "./collector";

const NAMES = "FIRST 1 (pg2, pg3)";
let home: string;
let cluster: Awaited<ReturnType<typeof startReplicated>>;

before(async () => {
  home = mkdtempSync(path.join(os.tmpdir(), "pgbb-repl-"));
  chmodSync(home, 0o755);
  cluster = await startReplicated({ home, replicas: 2, synchronousStandbyNames: NAMES });
});
after(async () => {
  await cluster?.stop();
  rmSync(home, { recursive: true, force: true });
});

const standby = (name: string) => cluster.standbys.find((s) => s.name === name)!;

/** One statement on a server, on a connection of its own. */
async function sql<T = Record<string, unknown>>(url: string, text: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text)).rows as T[];
  } finally {
    await c.end();
  }
}

/** Waits until both standbys stream again, pg2 as the synchronous one (a test leaves the cluster as it found it). */
async function bothStreaming() {
  await waitUntil("pg2 and pg3 streaming, pg2 synchronous", async () => {
    const rows = await sql<{ application_name: string; sync_state: string }>(
      cluster.primary.url("postgres"),
      "SELECT application_name, sync_state FROM pg_stat_replication WHERE state = 'streaming' ORDER BY 1",
    );
    return rows.map((r) => `${r.application_name}:${r.sync_state}`).join(",") === "pg2:sync,pg3:potential";
  });
}

/** The three-node pub/sub preset's shape (4 partitions, 5 groups, batches 100/200, 1 KiB) at a small rate, briefly. */
function threeNodeShape(over: Partial<WorkloadInput> = {}): WorkloadConfig {
  const preset = presetById("pubsub-4vcpu-three-node-sync-replicated");
  assert.ok(preset, "the published three-node pub/sub preset");
  return WorkloadConfig.parse({ ...preset.config, writers: 2, throttleWritesPerSec: 400, durationSeconds: 5, warmupSeconds: 1, ...over });
}

/** Runs a config against the primary; `at(second)` is called at each measured second (not awaited: the run goes on). */
async function run(config: WorkloadConfig, at: (second: number) => void = () => undefined, db = "postgres") {
  const samples: EngineSample[] = [];
  let measured = 0;
  const summary = await runWorkload(config, cluster.primary.url(db), {
    drainSeconds: 1,
    onSample: (s) => {
      samples.push(s);
      if (s.phase === "measuring") at(++measured);
    },
  });
  return { summary, samples, replication: summary.telemetry?.window?.replication };
}

describe("a primary with two standbys", () => {
  test("a brief run of the three-node pub/sub shape records each standby's lag in its samples and its summary", async (t) => {
    await bothStreaming();
    const { summary, samples, replication } = await run(threeNodeShape());
    const readings = samples.flatMap((s) => (s.metrics.telemetry?.replication ? [s.metrics.telemetry.replication] : []));
    assert.ok(readings.length >= 3, `${readings.length} readings with replication`);
    for (const r of readings) {
      assert.equal(r.synchronousStandbyNames, NAMES);
      assert.deepEqual(
        r.standbys.map((s) => `${s.name}:${s.syncState}`),
        ["pg2:sync", "pg3:potential"],
      );
      for (const s of r.standbys) {
        assert.ok(s.replayLagBytes !== null && s.replayLagBytes >= 0 && s.flushLagBytes !== null, JSON.stringify(s));
        assert.equal(s.slot, s.name, "each standby streams through its own slot");
      }
    }
    const figures = replicationOf(RunSummary.parse(JSON.parse(JSON.stringify(summary))));
    assert.ok(figures && replication, "the summary (as its JSON) carries replication");
    t.diagnostic(JSON.stringify(figures.standbys));
    assert.deepEqual(
      figures.standbys.map((s) => [s.name, s.syncStates]),
      [
        ["pg2", ["sync"]],
        ["pg3", ["potential"]],
      ],
    );
    for (const s of figures.standbys) {
      assert.ok(s.replayLagBytes && s.replayLagBytes.max >= s.replayLagBytes.p50, `${s.name}: replay lag in bytes`);
      // Lag in time is measured whenever WAL flows, or counted as absent (caught up and idle): never read as 0.
      assert.ok(s.replayLagMs !== undefined || s.lagTimeNullSec > 0, `${s.name}: replay lag in time or its absence`);
    }
    assert.equal(figures.synchronousStandbyNames, NAMES);
    assert.ok(figures.syncRepShareOfActive > 0, "commits waited for pg2 (synchronous_commit on)");
    assert.deepEqual(figures.events, [], "nothing happened to the standbys");
  });

  test("the synchronous standby stops mid-run: named and timed, pg3 becomes synchronous, commits do not stall", async () => {
    await bothStreaming();
    try {
      const { replication } = await run(threeNodeShape({ durationSeconds: 6 }), (sec) => {
        if (sec === 2) void standby("pg2").stop();
      });
      const events = replication?.events ?? [];
      const explain = events.map(eventWords).join("\n");
      const stopped = events.find((e) => e.kind === "stopped" && e.standby === "pg2");
      assert.ok(stopped?.kind === "stopped" && stopped.syncState === "sync", explain);
      const took = events.find((e) => e.kind === "sync-state" && e.standby === "pg3");
      assert.ok(took?.kind === "sync-state" && took.to === "sync" && took.atSec >= stopped.atSec - 1.5, explain);
      assert.deepEqual(eventsOf(replication, "replication-stall"), [], explain);
      assert.match(explain, /^pg2 stopped streaming at [\d.]+ s; it was the synchronous standby$/m);
      assert.match(explain, /^pg3 became the synchronous standby at [\d.]+ s \(was a potential synchronous standby\)$/m);
    } finally {
      await standby("pg2").start();
      await bothStreaming();
    }
  });

  test("both standbys stop: the stall is named and timed, and ends once pg2 streams again", async (t) => {
    await bothStreaming();
    let restarted: Promise<void> | undefined;
    try {
      const { summary, replication } = await run(threeNodeShape({ durationSeconds: 9 }), (sec) => {
        if (sec === 2) void Promise.all([standby("pg2").stop(), standby("pg3").stop()]);
        if (sec === 5) restarted = standby("pg2").start();
      });
      const events = replication?.events ?? [];
      const explain = events.map(eventWords).join("\n");
      t.diagnostic(explain);
      const [stall] = eventsOf(replication, "replication-stall");
      assert.ok(stall, explain);
      assert.equal(stall.ongoing, false, "it ended when pg2 streamed again");
      assert.ok(stall.seconds >= 1.5 && stall.toSec > stall.fromSec, explain);
      const back = events.find((e) => e.kind === "started" && e.standby === "pg2");
      assert.ok(back && "atSec" in back && back.atSec >= stall.toSec, explain);
      assert.match(eventWords(stall), /^commits waited for a synchronous standby for [\d.]+ s, [\d.]+–[\d.]+ s: none of FIRST 1 \(pg2, pg3\) was streaming/);
      // The verdict names it: as the run's stall's cause, or as replication-bound.
      const v = summary.telemetry!.verdict;
      assert.ok(v.statement.includes("commits waited for a synchronous standby"), explainVerdict(v));
      assert.ok(v.category === "replication-bound" || v.also.includes("replication-bound"), explainVerdict(v));
    } finally {
      // pg2 was started mid-run (unless the run ended before): the rest back as they were.
      await (restarted ?? standby("pg2").start());
      await standby("pg3").start();
      await bothStreaming();
    }
  });

  test("a standby whose replay is paused is named as replaying behind while its writes and flushes keep up", async () => {
    await bothStreaming();
    const pg3 = standby("pg3").url("postgres");
    try {
      const { replication } = await run(threeNodeShape({ durationSeconds: 7 }), (sec) => {
        if (sec === 1) void sql(pg3, "SELECT pg_wal_replay_pause()");
      });
      const explain = (replication?.events ?? []).map(eventWords).join("\n");
      const behind = eventsOf(replication, "replay-behind");
      assert.deepEqual(
        behind.map((e) => e.standby),
        ["pg3"],
        explain,
      );
      const [e] = behind;
      assert.ok(e.replayGapEndBytes > e.replayGapStartBytes, explain);
      assert.ok(e.flushLagBytesMax <= e.replayGapEndBytes / 2 && e.writeLagBytesMax <= e.replayGapEndBytes / 2, explain);
      assert.match(explain, /^pg3 fell behind replaying for [\d.]+ s, .*while its writes and flushes kept up \(their lag at most/m);
    } finally {
      await sql(pg3, "SELECT pg_wal_replay_resume()");
    }
  });

  describe("the verdict, with commits waiting for pg2 to replay (synchronous_commit remote_apply, pg2 applying 30 ms late)", () => {
    let db: string;
    before(async () => {
      db = `apply_${process.pid}`;
      await sql(cluster.primary.url("postgres"), `CREATE DATABASE ${db}`);
      await sql(standby("pg2").url("postgres"), "ALTER SYSTEM SET recovery_min_apply_delay = '30ms'");
      await sql(standby("pg2").url("postgres"), "SELECT pg_reload_conf()");
    });
    after(async () => {
      await sql(standby("pg2").url("postgres"), "ALTER SYSTEM RESET recovery_min_apply_delay");
      await sql(standby("pg2").url("postgres"), "SELECT pg_reload_conf()");
      await sql(cluster.primary.url("postgres"), `DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    });
    const writes: WorkloadInput = { kind: "queue", writers: 4, readers: 1, durationSeconds: 3, warmupSeconds: 1 };

    test("replication-bound when every commit waits for the synchronous standby", async (t) => {
      await sql(cluster.primary.url("postgres"), `ALTER DATABASE ${db} SET synchronous_commit = remote_apply`);
      const { summary } = await run(WorkloadConfig.parse(writes), undefined, db);
      const v = summary.telemetry!.verdict;
      t.diagnostic(v.statement);
      assert.equal(v.category, "replication-bound", explainVerdict(v));
      assert.match(
        v.statement,
        /waited for a synchronous standby to confirm their commits \(IPC:SyncRep\) \(synchronous_standby_names 'FIRST 1 \(pg2, pg3\)'\); pg2 was the synchronous standby/,
      );
      assert.equal(summary.telemetry!.info.synchronousCommit, "remote_apply");
    });

    test("pg2's replay paused mid-run: the run's stall names the replay its commits waited for", async (t) => {
      await sql(cluster.primary.url("postgres"), `ALTER DATABASE ${db} SET synchronous_commit = remote_apply`);
      const pg2 = standby("pg2").url("postgres");
      let resumed: Promise<unknown> | undefined;
      try {
        const { summary } = await run(
          WorkloadConfig.parse({ ...writes, durationSeconds: 8 }),
          (sec) => {
            if (sec === 2) void sql(pg2, "SELECT pg_wal_replay_pause()");
            if (sec === 6) resumed = sql(pg2, "SELECT pg_wal_replay_resume()");
          },
          db,
        );
        const v = summary.telemetry!.verdict;
        t.diagnostic(v.statement);
        assert.ok(v.category === "replication-bound" || v.also.includes("replication-bound"), explainVerdict(v));
        assert.match(
          v.statement,
          /commits waited for a synchronous standby to replay them \(IPC:SyncRep, as synchronous_commit remote_apply makes them\) while pg2 fell behind replaying/,
          explainVerdict(v),
        );
      } finally {
        await resumed;
        await sql(pg2, "SELECT pg_wal_replay_resume()");
      }
    });

    test("not when commits do not wait for a standby (synchronous_commit local)", async () => {
      await sql(cluster.primary.url("postgres"), `ALTER DATABASE ${db} SET synchronous_commit = local`);
      const { summary, replication } = await run(WorkloadConfig.parse(writes), undefined, db);
      const v = summary.telemetry!.verdict;
      assert.ok(replication && replication.standbys.length === 2, "the standbys are still recorded");
      assert.equal(replication.syncRepShareOfRun, 0);
      assert.equal(v.findings.find((f) => f.category === "replication-bound")?.matched, false, explainVerdict(v));
    });
  });

  test("a role without pg_monitor: the standbys' state and lag are hidden, recorded as not measured, the reading goes on", async () => {
    const url = new URL(cluster.primary.url("postgres"));
    const role = `nomon_${process.pid}`;
    await sql(url.toString(), `CREATE ROLE ${role} LOGIN PASSWORD 'nomon'`);
    try {
      url.username = role;
      url.password = "nomon";
      const c = await TelemetryCollector.start(url.toString(), { intervalMs: 0, waits: false });
      try {
        const s = await c.sampleNow();
        assert.ok(s, "the reading was taken");
        assert.ok(
          c.info.missing.some((m) => /^replication: 2 standbys .* GRANT pg_monitor TO nomon_/.test(m)),
          c.info.missing.join("\n"),
        );
        assert.equal(s.replication, undefined, "nothing recorded: standbys it cannot see would read as none streaming");
      } finally {
        await c.stop();
      }
    } finally {
      await sql(cluster.primary.url("postgres"), `DROP ROLE ${role}`);
    }
  });
});

test("a single node records no replication and is never replication-bound", async () => {
  const single = await testDatabase("single");
  try {
    const summary = await runWorkload(WorkloadConfig.parse({ kind: "queue", writers: 2, readers: 1, durationSeconds: 2, warmupSeconds: 0 }), single.url, {
      drainSeconds: 2,
    });
    assert.equal(summary.telemetry?.window?.replication, undefined);
    assert.equal(summary.telemetry?.verdict.findings.find((f) => f.category === "replication-bound")?.matched, false);
  } finally {
    await single.drop();
  }
});
