// The engine's notes on a throttled load that is not where its schedule says (runner/core/schedule-watch.ts): writers
// behind at the window's end, a stall mid-run caught up above the throttle, one partition's writer behind its share;
// and a runner that is itself the limit. Each judges this machine's pace, so the file runs in the judging lane
// (scripts/test-order.ts JUDGEMENT_RUNS), never beside Playwright: there a clean-clone CI run's two writers reached
// 127 of 300 msg/s and never caught up after the lock.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import pg from "pg";
import { runKeptOn } from "../kept-run-testing";
import type { RunSummary } from "../../lib/measurement/summary";
import { WorkloadConfig, type WorkloadInput } from "../../lib/workloads/config";
import { testDatabase } from "../../lib/testing";
import { verificationError, type EngineOptions } from "../engine";
import { latencyOf, throughputOf } from "../../lib/measurement/operations";

let db: { url: string; drop: () => Promise<void> };
let admin: pg.Client;

before(async () => {
  db = await testDatabase("schedule_notes");
  admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
});
after(async () => {
  await admin.end();
  await db.drop();
});

const cfg = (input: WorkloadInput) => WorkloadConfig.parse(input);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs a config, keeping its schema for inspection; `during` runs once the measured window has started. */
const runKept = (config: WorkloadConfig, during?: (schema: string) => Promise<void>, extra: EngineOptions = {}) => runKeptOn(db.url, config, during, extra);

const dropSchema = (schema: string) => admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
/** The notes about writers and their throttle (runner/core/schedule-watch.ts ScheduleWatch). */
const scheduleNotes = (s: RunSummary) => (s.notes ?? []).filter((n) => /behind schedule|above the [\d,]+ msg\/s throttle/.test(n));

describe("throttled writers: falling behind schedule and catching up over the limit are in the notes", () => {
  test("a throttle the writers cannot reach: behind at the end of the window, by how much, and the rate achieved", async () => {
    const { summary, schema } = await runKept(
      cfg({ kind: "queue", writers: 1, readers: 1, durationSeconds: 2, warmupSeconds: 0, throttleWritesPerSec: 10_000_000 }),
    );
    await dropSchema(schema);
    const notes = scheduleNotes(summary);
    assert.equal(notes.length, 1, notes.join("\n"));
    const m =
      /^writes were ([\d.]+) s behind schedule when the measured window ended, up to ([\d.]+) s during it \(writers did not keep up with the 10,000,000 msg\/s throttle: ([\d,]+) msg\/s achieved, \d+% of it\)$/.exec(
        notes[0],
      );
    assert.ok(m, notes[0]);
    // One writer never waits, so it falls behind by nearly a second every second of the 2 s window.
    const [end, most] = [Number(m[1]), Number(m[2])];
    // At most the load's length: the timetable starts with the writers, a moment before the window opens (a few
    // hundred ms on a busy machine).
    assert.ok(end > 1.5 && end <= summary.window.measuredSeconds + 0.5, `behind ${end} s at the end`);
    assert.ok(most >= end && most >= latencyOf(summary, "writeScheduled")!.max / 1000 - 0.01, `up to ${most} s`);
    assert.equal(m[3], Math.round(throughputOf(summary, "write")!.perSecond).toLocaleString("en-US"));
  });

  test("a stall mid-run (the queue table locked for 1.5 s): behind, then caught up above the limit, with the peak", async () => {
    const locker = new pg.Client({ connectionString: db.url });
    await locker.connect();
    try {
      const { summary, schema } = await runKept(
        cfg({ kind: "queue", writers: 2, readers: 1, durationSeconds: 4, warmupSeconds: 0, throttleWritesPerSec: 300 }),
        async (s) => {
          await sleep(1000);
          await locker.query("BEGIN");
          await locker.query(`LOCK TABLE ${s}.queue IN ACCESS EXCLUSIVE MODE`);
          await sleep(1500);
          await locker.query("COMMIT");
        },
      );
      await dropSchema(schema);
      assert.equal(summary.verification.ok, true, verificationError(summary) ?? "");
      const notes = scheduleNotes(summary);
      assert.equal(notes.length, 2, notes.join("\n"));
      const behind = /^writes fell up to ([\d.]+) s behind schedule during the measured window and caught up by its end/.exec(notes[0]);
      assert.ok(behind, notes[0]);
      assert.ok(Number(behind[1]) >= 1.4 && Number(behind[1]) < 3, `behind ${behind[1]} s`);
      const over =
        /^writes ran above the 300 msg\/s throttle: peak ([\d,]+) msg\/s over ([\d.]+) s, ([\d,]+) msg\/s over the measured window \(writers caught up after falling up to ([\d.]+) s behind schedule\)$/.exec(
          notes[1],
        );
      assert.ok(over, notes[1]);
      // 1.5 s of a 300 msg/s schedule (450 messages) is written on top of the schedule once the lock goes.
      assert.ok(Number(over[1].replace(/,/g, "")) > 450, `peak ${over[1]} msg/s`);
      assert.equal(over[3], Math.round(throughputOf(summary, "write")!.perSecond).toLocaleString("en-US"));
      assert.equal(over[4], behind[1]);
      // Every writer stalled alike: no note about part of the load.
      assert.deepEqual(
        (summary.notes ?? []).filter((n) => /own share of the schedule/.test(n)),
        [],
      );
      // e2e from schedule: the messages due during the lock were sent after it, so e2e from their send hides
      // the wait that e2e from their schedule shows. Per message from-schedule ≥ from-send, so every percentile is.
      const e2e = latencyOf(summary, "e2e")!;
      const fromSchedule = latencyOf(summary, "e2eScheduled")!;
      assert.equal(fromSchedule.count, e2e.count, "one e2e-from-schedule sample per message read");
      for (const p of ["p50", "p90", "p95", "p99", "p999", "max", "mean"] as const)
        assert.ok(fromSchedule[p] >= e2e[p], `e2e from schedule ${p} ${fromSchedule[p]} ms ≥ e2e ${p} ${e2e[p]} ms`);
      // 450 of the ~1,200 messages were due during the 1.5 s lock: a tenth of them waited over 0.5 s from schedule.
      assert.ok(fromSchedule.p90 >= 500, `e2e from schedule p90 ${fromSchedule.p90} ms shows the 1.5 s stall`);
      assert.ok(fromSchedule.max >= 1300, `e2e from schedule max ${fromSchedule.max} ms`);
    } finally {
      await locker.end();
    }
  });

  test("one partition locked for 1.5 s: its writer's lag behind its share shows it, while the overall rate hardly moves", async () => {
    const locker = new pg.Client({ connectionString: db.url });
    await locker.connect();
    const limit = 400;
    try {
      const { summary, schema, samples } = await runKept(
        cfg({
          kind: "pubsub",
          writers: 4,
          partitions: 4,
          consumerGroups: 1,
          writeBatch: 10,
          readBatch: 50,
          durationSeconds: 5,
          warmupSeconds: 0,
          throttleWritesPerSec: limit,
        }),
        async (s) => {
          await sleep(1500);
          await locker.query("BEGIN");
          await locker.query(`LOCK TABLE ${s}.topicpartition1 IN ACCESS EXCLUSIVE MODE`);
          await sleep(1500);
          await locker.query("COMMIT");
        },
      );
      await dropSchema(schema);
      assert.equal(summary.verification.ok, true, verificationError(summary) ?? "");
      // The other three writers took writer 0's turns: the window's rate is the throttle's.
      assert.ok(throughputOf(summary, "write")!.perSecond >= 0.95 * limit, `write rate ${throughputOf(summary, "write")!.perSecond} msg/s`);
      const lag = latencyOf(summary, "writerLag")!;
      assert.ok(lag.max >= 1300 && lag.max < 3000, `writer lag max ${lag.max} ms`);
      // Writer 0 never gets its turns back, so it stays behind for the rest of the window: in the p99 too.
      assert.ok(lag.p99 >= 1000, `writer lag p99 ${lag.p99} ms`);
      assert.ok(
        samples.some((x) => (latencyOf(x.metrics, "writerLag")?.max ?? 0) >= 1000),
        "a sample shows the lag",
      );
      const note = (summary.notes ?? []).find((n) => /own share of the schedule/.test(n));
      assert.match(note ?? "", /^writer 0 fell up to [\d.]+ s behind its own share of the schedule \(100 msg\/s each\)/);
      // e2e from schedule is there beside e2e, and never below it.
      assert.ok(latencyOf(summary, "e2eScheduled")!.p99 >= latencyOf(summary, "e2e")!.p99);
    } finally {
      await locker.end();
    }
  });
});

describe("a runner that is itself the bottleneck says so", () => {
  test("a 450 ms busy-wait twice a second: client-bound, with the delay it added, in the summary, the samples and the notes", async () => {
    const { summary, schema, samples } = await runKept(
      // A second of warm-up: the first spin comes 500 ms into the load, and a window from the load's start had its
      // first sixth idle (ELU 0.87, CPU 0.80, each under the rule's 0.9: CI failed).
      cfg({ kind: "queue", writers: 1, readers: 1, durationSeconds: 3, warmupSeconds: 1, throttleWritesPerSec: 200 }),
      undefined,
      // 90% of the time spinning: the loop is at its limit (CLIENT_RULE), whether it got the CPU or waited for it.
      { busyWaitForTest: { everyMs: 500, forMs: 450 } },
    );
    await dropSchema(schema);
    const load = summary.runnerLoad!;
    assert.equal(load.clientBound, true, JSON.stringify(load));
    assert.ok(load.loopDelayMs.max >= 140, `loop delay max ${load.loopDelayMs.max} ms`);
    assert.ok(load.exposedDelayMs >= 140, `delay over 1% of the time ${load.exposedDelayMs} ms`);
    assert.deepEqual(load.judgedAgainst?.metric, "write");
    // The limit when the 200 msg/s were missed; met, a caution on the latencies ("busy"/"starved", never "the limit").
    const m =
      /^client-bound: the runner was the limit \(.*\)(?: and the rate asked was missed)?; these latencies include up to (\d+) ms of the runner's own delay/.exec(
        summary.notes?.[0] ?? "",
      ) ?? /^these latencies include up to (\d+) ms of the runner's own delay: the runner was (?:busy|starved of CPU) \(/.exec(summary.notes?.[0] ?? "");
    assert.ok(m, summary.notes?.[0]);
    assert.ok(Number(m[1]) >= 140);
    const measured = samples.filter((x) => x.phase === "measuring" && x.metrics.intervalSec > 0.5);
    // Every second but the window's last: on Node 22 the window's last second twice showed no stall (max 0.08 ms)
    // where the others showed 450 ms. Where its stalls were counted (the drain's first second?) is not known yet.
    const full = measured.slice(0, -1);
    assert.ok(
      full.length >= 2 && full.every((x) => x.metrics.runnerLoad!.loopDelayMs.max >= 140),
      `every second shows a stall: ${measured.map((x) => `${x.metrics.intervalSec.toFixed(2)} s: max ${x.metrics.runnerLoad!.loopDelayMs.max} ms`).join(", ")}`,
    );
    // 900 ms of busy-wait a second is up to 90% of a core, less when the machine's other work takes the CPU from it.
    const cpu = measured.map((x) => x.metrics.runnerLoad!.cpuCores);
    assert.ok(
      cpu.every((c) => c > 0.05),
      `the busy-wait's CPU is measured: ${cpu.join(", ")} cores`,
    );
  });
});
