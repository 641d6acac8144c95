// Integration tests of the engine on a real (embedded) Postgres: every registered workload runs briefly and
// its counts are checked against the rows actually in the target; tampering is caught; cancel is prompt.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import pg from "pg";
import { runKeptOn } from "./kept-run-testing";
import { decodeHistogram, percentilesOf } from "../lib/measurement/histogram";
import { RunSummary } from "../lib/measurement/summary";
import { WorkloadConfig, type WorkloadInput } from "../lib/workloads/config";
import { testDatabase } from "../lib/testing";
import { RunCancelled, runWorkload, verificationError, type EngineOptions } from "./engine";
import { CANCEL_DEADLINE_MS } from "./run-context";
import { stampOfHex } from "../workloads/runtime";
import { factOf } from "../lib/measurement/verification";
import { counterOf, histogramOf, latenciesOf, latencyOf, throughputOf } from "../lib/measurement/operations";

let db: { url: string; drop: () => Promise<void> };
let admin: pg.Client;

before(async () => {
  db = await testDatabase("engine");
  admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
});
after(async () => {
  await admin.end();
  await db.drop();
});

const cfg = (input: WorkloadInput) => WorkloadConfig.parse(input);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const count = async (sql: string) => Number((await admin.query<{ n: string }>(sql)).rows[0].n);

/** Runs a config, keeping its schema for inspection; `during` runs once the measured window has started. */
const runKept = (config: WorkloadConfig, during?: (schema: string) => Promise<void>, extra: EngineOptions = {}) => runKeptOn(db.url, config, during, extra);

const dropSchema = (schema: string) => admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
/** The notes about writers and their throttle (runner/core/schedule-watch.ts ScheduleWatch). */
const scheduleNotes = (s: RunSummary) => (s.notes ?? []).filter((n) => /behind schedule|above the [\d,]+ msg\/s throttle/.test(n));

// The workloads on the engine's write throttle; the others (Yong's, DBOS's open loop) have their own integration tests beside them (workloads/*/runner.test.ts).
describe("every workload on the write throttle: counts match the target's rows and verification passes", () => {
  const configs: Record<"pubsub" | "queue" | "queued-workflows", WorkloadInput> = {
    pubsub: {
      kind: "pubsub",
      writers: 3,
      partitions: 2,
      consumerGroups: 2,
      writeBatch: 20,
      readBatch: 50,
      durationSeconds: 2,
      warmupSeconds: 1,
      throttleWritesPerSec: 2000,
    },
    queue: { kind: "queue", writers: 2, readers: 3, durationSeconds: 2, warmupSeconds: 1, throttleWritesPerSec: 500 },
    "queued-workflows": {
      kind: "queued-workflows",
      enqueuers: 2,
      workers: 2,
      executors: 2,
      queues: 2,
      pollMs: 200,
      durationSeconds: 2,
      warmupSeconds: 1,
      throttleWritesPerSec: 300,
    },
  };
  for (const kind of Object.keys(configs) as (keyof typeof configs)[]) {
    test(kind, async () => {
      const { summary, schema, samples, phases } = await runKept(cfg(configs[kind]!));
      try {
        RunSummary.parse(summary);
        assert.deepEqual(phases, ["setup", "warmup", "measuring", "draining", "verifying", "done"]);
        assert.equal(summary.verification.ok, true, verificationError(summary) ?? "");
        assert.equal(verificationError(summary), null);
        const t = summary.totals!;
        if (kind === "pubsub") {
          const rows =
            (await count(`SELECT count(*) AS n FROM ${schema}.topicpartition1`)) + (await count(`SELECT count(*) AS n FROM ${schema}.topicpartition2`));
          assert.equal(rows, t.operations.write, "rows in the partition tables = messages the runner counted written");
          const consumed = await count(`SELECT coalesce(sum(next_offset - 1), 0) AS n FROM ${schema}.consumer_offsets`);
          assert.equal(consumed, t.operations.read, "sum of consumer offsets = messages the runner counted read");
          assert.equal(t.operations.read, 2 * t.operations.write - t.measures.unreadAtEnd, "each of the 2 groups read every message");
        } else if (kind === "queued-workflows") {
          const done = await count(`SELECT count(*) AS n FROM ${schema}.workflow_status WHERE status = 'SUCCESS'`);
          const open = await count(`SELECT count(*) AS n FROM ${schema}.workflow_status WHERE status IN ('ENQUEUED', 'PENDING')`);
          assert.equal(done, t.operations.read, "SUCCESS rows = workflows the runner counted completed");
          assert.equal(done + open, t.operations.write, "every enqueued workflow is completed or still queued");
          assert.equal(open, t.measures.unreadAtEnd);
        } else {
          const archived = await count(`SELECT count(*) AS n FROM ${schema}.queue_archive`);
          const queued = await count(`SELECT count(*) AS n FROM ${schema}.queue`);
          assert.equal(archived, t.operations.read);
          assert.equal(archived + queued, t.operations.write);
          assert.equal(queued, t.measures.unreadAtEnd);
          // The time-zone fix: both time columns are timestamptz.
          const types = await admin.query(
            `SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND column_name IN ('created_at','read_at')`,
            [schema.replace(/"/g, "")],
          );
          assert.ok(types.rows.length >= 3 && types.rows.every((r) => r.data_type === "timestamp with time zone"));
        }
        // Window: measured counts ≤ totals, rates over the real window length.
        assert.ok(summary.window.measuredSeconds >= 1.9 && summary.window.measuredSeconds < 2.6, `window ${summary.window.measuredSeconds}`);
        assert.ok(throughputOf(summary, "write")!.count > 0 && throughputOf(summary, "write")!.count <= t.operations.write);
        assert.ok(Math.abs(throughputOf(summary, "write")!.perSecond - throughputOf(summary, "write")!.count / summary.window.measuredSeconds) < 1e-6);
        // Samples: one a second from seq 0, measured ones add up to the summary.
        assert.deepEqual(
          samples.map((s) => s.seq),
          samples.map((_, i) => i),
        );
        const measured = samples.filter((s) => s.phase === "measuring");
        assert.equal(
          measured.reduce((a, s) => a + throughputOf(s.metrics, "write")!.count, 0),
          throughputOf(summary, "write")!.count,
        );
        assert.equal(
          measured.reduce((a, s) => a + throughputOf(s.metrics, "read")!.count, 0),
          throughputOf(summary, "read")!.count,
        );
        assert.ok(Math.abs(measured.reduce((a, s) => a + s.metrics.intervalSec, 0) - summary.window.measuredSeconds) < 0.01);
        // Latencies: present, and the stored histograms re-read to the same percentiles.
        for (const m of ["write", "writeScheduled", "read", "claim", "e2e"] as const) {
          const stats = latencyOf(summary, m);
          assert.ok(stats && stats.count > 0, `${m} latency recorded`);
          assert.deepEqual(percentilesOf(decodeHistogram(histogramOf(summary.histograms, m)!)), stats);
        }
        assert.equal(latencyOf(summary, "e2e")!.count, throughputOf(summary, "read")!.count, "one e2e sample per message read");
        assert.ok(latencyOf(summary, "e2e")!.p50 > 0 && latencyOf(summary, "e2e")!.p50 < 5000);
        assert.ok(summary.manifest.runnerCpuSeconds > 0 && summary.manifest.postgresVersion.length > 0);
        // The manifest's settings are the ones not at their built-in default: the test server's flags are there,
        // what initdb writes into postgresql.conf at its default (shared_buffers = 128MB) is not.
        const settings = summary.manifest.serverSettings;
        assert.equal(settings.fsync, "off");
        assert.equal(settings.max_connections, "300");
        assert.equal(settings.shared_buffers, undefined);
        const atDefault = await admin.query("SELECT name FROM pg_settings WHERE name = ANY($1) AND setting = boot_val", [Object.keys(settings)]);
        assert.deepEqual(atDefault.rows, [], "no setting listed at its default");
        // Throttled: nothing to say about the writers but that they fell behind, which a machine busy with other
        // work can make them do (then the notes say so, and that they caught up when they did). Never a shortfall
        // from failed writes, never writes above the throttle that no falling behind explains.
        for (const note of scheduleNotes(summary)) assert.match(note, /behind schedule/, note);
      } finally {
        await dropSchema(schema);
      }
    });
  }
});

describe("throttled writes: never sent before their due time, so latency from schedule ≥ service latency", () => {
  const configs: WorkloadInput[] = [
    { kind: "queue", writers: 1, readers: 1, durationSeconds: 2, warmupSeconds: 0, throttleWritesPerSec: 200 },
    { kind: "queue", writers: 4, readers: 4, durationSeconds: 2, warmupSeconds: 0, throttleWritesPerSec: 500 },
    {
      kind: "pubsub",
      writers: 4,
      partitions: 2,
      consumerGroups: 1,
      writeBatch: 10,
      readBatch: 50,
      durationSeconds: 2,
      warmupSeconds: 0,
      throttleWritesPerSec: 2000,
    },
  ];
  for (const input of configs) {
    const c = cfg(input) as Extract<WorkloadConfig, { kind: "pubsub" | "queue" }>;
    test(`${c.kind}, ${c.writers} writer(s), ${c.throttleWritesPerSec} msg/s`, async () => {
      const writes: { due: number; sent: number; done: number }[] = [];
      const { summary, schema } = await runKept(c, undefined, { onScheduledWrite: (due, sent, done) => void writes.push({ due, sent, done }) });
      await dropSchema(schema);
      assert.ok(writes.length > 0);
      // Per write: from schedule (done − due) ≥ service (done − sent) ⇔ sent ≥ due.
      const early = writes.filter((w) => w.done - w.due < w.done - w.sent);
      assert.equal(
        early.length,
        0,
        `${early.length} of ${writes.length} writes were sent before their due time (by up to ${Math.max(...early.map((w) => w.due - w.sent)).toFixed(3)} ms)`,
      );
      const errors = (summary.notes ?? []).filter((n) => /before its scheduled time/.test(n));
      assert.deepEqual(errors, []);
      const s = latenciesOf(summary);
      assert.ok(s.writeScheduled!.p50 >= s.write!.p50, `write from schedule p50 ${s.writeScheduled!.p50} ms ≥ write p50 ${s.write!.p50} ms`);
    });
  }
});

describe("claim latency means the same in both workloads: one sample per poll, empty polls included", () => {
  test("queue: every dequeue SELECT, empty or not, is a claim sample", async () => {
    // Readers outnumber what 100 msg/s keeps busy: most dequeues find the queue empty.
    const { summary, schema } = await runKept(cfg({ kind: "queue", writers: 1, readers: 3, durationSeconds: 2, warmupSeconds: 0, throttleWritesPerSec: 100 }));
    await dropSchema(schema);
    const claims = latencyOf(summary, "claim")!.count;
    const polls = throughputOf(summary, "read")!.count + counterOf(summary, "read", "emptyPolls")!;
    // Enough empty polls that leaving them out of the claim samples would break the ±6 below (most polls find the queue
    // empty on a quiet machine; a clean-clone CI run's busy cores slowed the readers to 83 empty polls for more reads).
    assert.ok(counterOf(summary, "read", "emptyPolls")! >= 20, `empty polls ${counterOf(summary, "read", "emptyPolls")!}`);
    // Exact but for polls in flight across the window's edges (at most one per reader at each end).
    assert.ok(
      Math.abs(claims - polls) <= 6,
      `${claims} claim samples for ${throughputOf(summary, "read")!.count} dequeued + ${counterOf(summary, "read", "emptyPolls")!} empty polls`,
    );
  });
  test("pubsub: every claim, empty or not, is a claim sample", async () => {
    const { summary, schema } = await runKept(
      cfg({
        kind: "pubsub",
        writers: 1,
        partitions: 2,
        consumerGroups: 1,
        writeBatch: 10,
        readBatch: 50,
        durationSeconds: 2,
        warmupSeconds: 0,
        throttleWritesPerSec: 100,
      }),
    );
    await dropSchema(schema);
    const claims = latencyOf(summary, "claim")!.count;
    const emptyPolls = counterOf(summary, "read", "emptyPolls")!;
    const count = throughputOf(summary, "read")!.count;
    // Non-empty polls read at least one message each.
    assert.ok(claims >= emptyPolls - 4 && claims <= emptyPolls + count + 4, `${claims} claim samples, ${emptyPolls} empty polls, ${count} messages read`);
  });
});

describe("session settings the target imposes cannot garble the e2e stamps", () => {
  // A database whose defaults are everything the loops must not depend on.
  let odd: { url: string; drop: () => Promise<void> };
  before(async () => {
    odd = await testDatabase("escape");
    const name = new URL(odd.url).pathname.slice(1);
    for (const set of [
      "bytea_output = 'escape'",
      "DateStyle = 'SQL, DMY'",
      "TimeZone = 'America/New_York'",
      "extra_float_digits = -10",
      "IntervalStyle = 'sql_standard'",
    ])
      await admin.query(`ALTER DATABASE ${name} SET ${set}`);
  });
  after(() => odd.drop());

  const configs: WorkloadInput[] = [
    { kind: "queue", writers: 2, readers: 2, durationSeconds: 2, warmupSeconds: 0, throttleWritesPerSec: 300 },
    {
      kind: "pubsub",
      writers: 2,
      partitions: 2,
      consumerGroups: 1,
      writeBatch: 10,
      readBatch: 50,
      durationSeconds: 2,
      warmupSeconds: 0,
      throttleWritesPerSec: 1000,
    },
  ];
  for (const input of configs) {
    test(`${input.kind} on a database with bytea_output = 'escape', DateStyle SQL, a non-UTC TimeZone`, async () => {
      const summary = await runWorkload(cfg(input), odd.url, { drainSeconds: 3 });
      const e2e = latencyOf(summary, "e2e")!;
      assert.ok(e2e.p99 > 0 && e2e.max < 5000, `e2e p99 ${e2e.p99} ms, max ${e2e.max} ms`);
      assert.equal(e2e.count, throughputOf(summary, "read")!.count, "every message read gave an e2e sample");
      assert.deepEqual(
        (summary.notes ?? []).filter((n) => /time stamp/.test(n)),
        [],
      );
      assert.equal(summary.verification.ok, true, verificationError(summary) ?? "");
    });
  }

  test("a stamp that cannot be read is not a sample: escape text, bad hex, a time outside the run", () => {
    const scratch = Buffer.alloc(8);
    const b = Buffer.alloc(8);
    b.writeDoubleLE(1000.5, 0);
    const hex = `\\x${b.toString("hex")}ff`;
    assert.equal(stampOfHex(hex, scratch, 1000, 2000), 1000.5);
    assert.ok(Number.isNaN(stampOfHex(hex, scratch, 1001, 2000)), "before the run started");
    assert.ok(Number.isNaN(stampOfHex(hex, scratch, 0, 1000)), "after the message was read");
    assert.ok(Number.isNaN(stampOfHex("\\000\\200\\377abc\\001xyz", scratch, 0, 1e15)), "escape form");
    assert.ok(Number.isNaN(stampOfHex(`\\xzz${"00".repeat(7)}`, scratch, 0, 1e15)), "not hex");
  });
});

describe("tampering with the target mid-run makes verification fail", () => {
  const pubsub = cfg({
    kind: "pubsub",
    writers: 2,
    partitions: 2,
    consumerGroups: 1,
    writeBatch: 10,
    readBatch: 50,
    durationSeconds: 2,
    warmupSeconds: 0,
    throttleWritesPerSec: 1000,
  });

  test("pubsub: a message deleted from a partition table", async () => {
    const { summary, schema } = await runKept(pubsub, async (s) => {
      for (let i = 0; i < 40; i++) {
        await sleep(50);
        const r = await admin.query(`DELETE FROM ${s}.topicpartition1 WHERE c_offset = (SELECT max(c_offset) FROM ${s}.topicpartition1)`);
        if (r.rowCount) return;
      }
      throw new Error("nothing to delete");
    });
    await dropSchema(schema);
    const v = summary.verification;
    assert.equal(v.ok, false);
    assert.ok(Number(factOf(v, "lost")) >= 1, `lost ${factOf(v, "lost")}`);
    assert.match(verificationError(summary)!, /^verification FAILED: .*partition 1/);
  });

  test("pubsub: a group's offset moved forward (messages skipped) and backward (messages re-read)", async () => {
    // Each tampering is tried again until it has an offset to move, within the 2 s window: on a loaded machine the
    // readers may not have read 3 messages of the partition 300 ms into it (a clean-clone CI run moved nothing so).
    const tamper = async (sql: string) => {
      for (let i = 0; i < 30; i++) {
        if ((await admin.query(sql)).rowCount) return;
        await sleep(50);
      }
      throw new Error(`nothing to tamper with: ${sql}`);
    };
    const forward = await runKept(pubsub, async (s) => {
      await sleep(300);
      await tamper(`UPDATE ${s}.consumer_offsets SET next_offset = next_offset + 5 WHERE group_id = 'g0' AND topic_id = 2`);
    });
    await dropSchema(forward.schema);
    assert.equal(forward.summary.verification.ok, false);
    assert.equal(factOf(forward.summary.verification, "lost"), 5);
    assert.match(verificationError(forward.summary)!, /5 messages lost in group g0 partition 2/);

    const back = await runKept(pubsub, async (s) => {
      await sleep(300);
      await tamper(`UPDATE ${s}.consumer_offsets SET next_offset = next_offset - 3 WHERE group_id = 'g0' AND topic_id = 1 AND next_offset > 3`);
    });
    await dropSchema(back.schema);
    assert.equal(back.summary.verification.ok, false);
    assert.equal(factOf(back.summary.verification, "duplicated"), 3);
  });

  test("queue: a queued message deleted", async () => {
    // One slow reader and unthrottled writers, so there is always a backlog to delete from.
    const { summary, schema } = await runKept(
      cfg({ kind: "queue", writers: 3, readers: 1, durationSeconds: 2, warmupSeconds: 0, throttleWritesPerSec: 0 }),
      async (s) => {
        for (let i = 0; i < 40; i++) {
          await sleep(50);
          const r = await admin.query(`DELETE FROM ${s}.queue WHERE id = (SELECT max(id) FROM ${s}.queue)`);
          if (r.rowCount) return;
        }
        throw new Error("nothing to delete");
      },
    );
    await dropSchema(schema);
    assert.equal(summary.verification.ok, false);
    assert.equal(factOf(summary.verification, "lost"), 1);
    assert.match(verificationError(summary)!, /1 message lost/);
  });
});

describe("queue verification checks identities, not counts", () => {
  test("3 queued rows deleted and 3 foreign rows inserted mid-run: the counts still add up, verification fails naming both", async () => {
    const { summary, schema } = await runKept(
      cfg({ kind: "queue", writers: 3, readers: 1, durationSeconds: 2, warmupSeconds: 0, throttleWritesPerSec: 0 }),
      async (s) => {
        for (let i = 0; i < 40; i++) {
          await sleep(50);
          await admin.query("BEGIN");
          const r = await admin.query(`DELETE FROM ${s}.queue WHERE id IN (SELECT id FROM ${s}.queue ORDER BY id DESC LIMIT 3 FOR UPDATE SKIP LOCKED)`);
          if (r.rowCount === 3) {
            // Same size as ours, and the first two with a plausible writer 0 / seq 1 identity but another body.
            await admin.query(
              `INSERT INTO ${s}.queue (payload) SELECT CASE WHEN i < 3 THEN overlay(decode(repeat('00', 1024), 'hex') PLACING '\\x00000000000000000000000000000001'::bytea FROM 1) ELSE decode(repeat('ab', 1024), 'hex') END FROM generate_series(1, 3) i`,
            );
            await admin.query("COMMIT");
            return;
          }
          await admin.query("ROLLBACK");
        }
        throw new Error("nothing to delete");
      },
    );
    await dropSchema(schema);
    const v = summary.verification;
    const err = verificationError(summary) ?? "";
    assert.equal(v.ok, false, "verification passed");
    assert.equal(factOf(v, "lost"), 3, err);
    assert.match(err, /3 rows in the queue or its archive that no writer inserted/);
    assert.match(err, /writer \d: \d messages? lost, neither queued nor consumed, of the \d+ it inserted: sequence number\(s\) \d+/);
  });
});

describe("refusals and cancel", () => {
  test("more connections than the target allows: refused before anything is created, naming the numbers", async () => {
    const max = Number((await admin.query("SELECT current_setting('max_connections') AS m")).rows[0].m);
    const config = cfg({ kind: "queue", writers: max, readers: 10, durationSeconds: 1 });
    await assert.rejects(runWorkload(config, db.url), (e: Error) => {
      assert.match(e.message, new RegExp(`needs ${max + 12} connections .*max_connections ${max}`));
      assert.match(e.message, /Lower the writers, readers or consumer groups, or raise max_connections/);
      return true;
    });
    assert.equal(await count("SELECT count(*) AS n FROM pg_namespace WHERE nspname LIKE 'pgbb_%'"), 0);
  });

  test("an unreachable target: a one-line error with the password masked", async () => {
    const started = Date.now();
    await assert.rejects(runWorkload(cfg({ kind: "queue", durationSeconds: 1 }), "postgresql://u:secret@127.0.0.1:1/db"), (e: Error) => {
      assert.match(e.message, /cannot connect to the target postgresql:\/\/u:\*\*\*\*@127\.0\.0\.1:1\/db: connection refused/);
      assert.doesNotMatch(e.message, /secret/);
      return true;
    });
    assert.ok(Date.now() - started < 9000);
  });

  for (const kind of ["pubsub", "queue"] as const) {
    test(`${kind}: cancel stops the run within 2 s and drops its schema`, async () => {
      const controller = new AbortController();
      let schema = "";
      const input: WorkloadInput =
        kind === "pubsub"
          ? { kind, writers: 4, partitions: 2, consumerGroups: 2, durationSeconds: 60, warmupSeconds: 0 }
          : { kind, writers: 4, readers: 4, durationSeconds: 60, warmupSeconds: 0 };
      let abortedAt = 0;
      const p = runWorkload(cfg(input), db.url, {
        signal: controller.signal,
        onSchema: (s) => (schema = s),
        onPhase: (ph) => {
          if (ph === "measuring")
            setTimeout(() => {
              abortedAt = Date.now();
              controller.abort();
            }, 1000);
        },
      });
      await assert.rejects(p, (e: Error) => e instanceof RunCancelled);
      const took = Date.now() - abortedAt;
      // Well within its 60 s, and within the cancel's deadline whatever the machine does (about 1 s when it is quiet).
      assert.ok(took < CANCEL_DEADLINE_MS, `stopped ${took} ms after the cancel`);
      assert.equal(await count(`SELECT count(*) AS n FROM pg_namespace WHERE nspname = '${schema}'`), 0, "schema dropped");
      // Backends exit just after their client disconnects: allow them a moment.
      let open = -1;
      for (let i = 0; i < 20 && open !== 0; i++, await sleep(50))
        open = await count(`SELECT count(*) AS n FROM pg_stat_activity WHERE application_name LIKE 'pgbb %' AND datname = current_database()`);
      assert.equal(open, 0, "connections closed");
    });
  }
});
