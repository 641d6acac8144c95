// Causes beyond a single wait event, each provoked for real on the embedded Postgres (docs/verdict.md):
//   held snapshot     a transaction held open (REPEATABLE READ, idle in transaction) from before a queue run: the
//                     dead tuples the readers leave cannot be removed and every dequeue steps over them
//   round trips       pub/sub with a read batch of 1 against a rate its one reader cannot meet: one message a claim
//   a lock's stall    an ACCESS EXCLUSIVE lock held ~3 s mid-run by another session: the stall names it
import { READ_BATCH_ONE } from "../../scripts/verdict-cases/read-batch-1";
import { explainVerdict, evidenceOf } from "../../lib/telemetry/testing";
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import pg from "pg";
import { testDatabase } from "../../lib/testing";
import type { Verdict } from "../../lib/telemetry/verdict";
import { WorkloadConfig, type WorkloadInput } from "../../lib/workloads/config";
import { type EngineOptions, runWorkload } from "../engine";
import type { RunSummary } from "../../lib/measurement/summary";

let db: { url: string; drop: () => Promise<void> };
before(async () => {
  db = await testDatabase("causes");
});
after(async () => {
  await db.drop();
});

async function judged(input: WorkloadInput, extra: EngineOptions = {}): Promise<{ summary: RunSummary; verdict: Verdict }> {
  const summary = await runWorkload(WorkloadConfig.parse(input), db.url, { drainSeconds: 2, ...extra });
  assert.ok(summary.telemetry, "the summary carries the telemetry");
  return { summary, verdict: summary.telemetry.verdict };
}

const explain = explainVerdict;
const evidence = evidenceOf;

describe("the verdict names causes that are not one wait event", () => {
  test("held snapshot: a transaction open beside a queue run is the headline, named with what to do", async (t) => {
    const holder = new pg.Client({ connectionString: db.url, application_name: "pgbb-test-holder" });
    await holder.connect();
    try {
      const holderPid = (await holder.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0].pid;
      // A snapshot held from before the run: every row the readers delete stays a dead tuple they step over.
      await holder.query("BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT count(*) FROM pg_class");
      const { verdict, summary } = await judged({ kind: "queue", writers: 2, readers: 2, throttleWritesPerSec: 1000, durationSeconds: 12, warmupSeconds: 1 });
      const w = summary.telemetry!.window!;
      t.diagnostic(verdict.statement);
      t.diagnostic(`dead tuples ${w.tables?.deadTuplesStart} → ${w.tables?.deadTuplesEnd}; holder ${JSON.stringify(w.xminHolder)}`);
      assert.equal(verdict.category, "held-snapshot", explain(verdict));
      assert.equal(w.xminHolder?.pid, holderPid, "the holder recorded is the session holding the snapshot");
      assert.equal(w.xminHolder?.applicationName, "pgbb-test-holder");
      assert.match(verdict.statement, new RegExp(`pid ${holderPid}, application "pgbb-test-holder", idle in transaction`));
      assert.match(verdict.statement, /SELECT count\(\*\) FROM pg_class/);
      assert.match(verdict.statement, new RegExp(`end it \\(SELECT pg_terminate_backend\\(${holderPid}\\)\\).*idle_in_transaction_session_timeout`));
    } finally {
      await holder.end();
    }
  });
  test("round trips: pub/sub reading one message a claim names the readers' round trips first, and the fix", async (t) => {
    // One reader, one message a claim, against 8,000 msg/s written in batches of 100: its round trips set its pace.
    const { verdict } = await judged({ ...READ_BATCH_ONE, durationSeconds: 6 });
    t.diagnostic(verdict.statement);
    const rt = verdict.findings.find((f) => f.category === "connection-bound")!;
    assert.ok(rt.matched, explain(verdict));
    // The arithmetic the statement gives: claims a second × time a claim is the reader's second, one message a claim.
    const claims = evidence(verdict, "connection-bound", "claims per reader")!;
    const ms = evidence(verdict, "connection-bound", "time a claim (its round trips)")!;
    assert.ok((claims * ms) / 1000 >= 0.6, explain(verdict));
    assert.equal(evidence(verdict, "connection-bound", "msg a claim"), 1);
    t.diagnostic(`the reader took ${evidence(verdict, "consumers-behind", "read")} msg/s; ${claims.toFixed(0)} claims/s × ${ms.toFixed(3)} ms`);
    // The cause leads the consumers' statement, with its fix, wherever the headline puts it.
    assert.match(verdict.statement, /consumers behind: the readers' round trips set their pace: the one reader made [\d,.]+ claims\/s × [\d.]+ ms a claim/);
    assert.match(verdict.statement, /larger read batches \(--read-batch\) or more readers/);
    assert.ok(
      ["consumers-behind", "connection-bound", ...["lock-contention-bound", "wal-flush-bound", "io-bound-server", "cpu-bound-server"]].includes(
        verdict.category,
      ),
      explain(verdict),
    );
    assert.doesNotMatch(verdict.statement, /^host-bound/, "not blamed on the shared machine");
  });

  test("a lock's stall: an ACCESS EXCLUSIVE lock held 3 s mid-run is named in the stall, read during it", async (t) => {
    let schema = "";
    let locked: Promise<void> | undefined;
    const locker = new pg.Client({ connectionString: db.url, application_name: "pgbb-test-locker" });
    await locker.connect();
    try {
      const lockerPid = (await locker.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0].pid;
      const { verdict, summary } = await judged(
        { kind: "queue", writers: 2, readers: 2, throttleWritesPerSec: 100, durationSeconds: 10, warmupSeconds: 1 },
        {
          onSchema: (s) => (schema = s),
          onPhase: (p) => {
            if (p !== "measuring") return;
            // The lock's holding time is the situation provoked (not a wait for a condition): 3 s, 3 s in.
            locked = new Promise<void>((resolve, reject) => {
              setTimeout(() => {
                locker
                  .query(`BEGIN; LOCK TABLE "${schema}".queue IN ACCESS EXCLUSIVE MODE`)
                  .then(() => new Promise((r) => setTimeout(r, 3000)))
                  .then(() => locker.query("COMMIT"))
                  .then(() => resolve(), reject);
              }, 3000);
            });
          },
        },
      );
      await locked;
      const w = summary.telemetry!.window!;
      t.diagnostic(verdict.statement);
      t.diagnostic(`blockers ${JSON.stringify(w.lockBlockers)}; ungranted locks avg ${w.lockWaitsAvg}, max ${w.lockWaitsMax}`);
      assert.equal(verdict.category, "stall", explain(verdict));
      assert.match(
        verdict.statement,
        new RegExp(`behind it: AccessExclusiveLock on ${schema}\\.queue held by pid ${lockerPid} \\("pgbb-test-locker"\\): "BEGIN; LOCK TABLE`),
      );
      // Counted by the sampler, several readings a second: the run's four connections all queued on the lock.
      assert.ok(w.lockWaitsMax >= 2, `ungranted locks at most ${w.lockWaitsMax} in one reading`);
    } finally {
      await locker.end();
    }
  });
});
