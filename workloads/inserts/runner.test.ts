// The inserts workload on the embedded Postgres: the rows in bench_inserts are the inserts counted, each id
// a UUIDv7 once; the drain time is reported; tampering with the table is caught.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { Kpis, VerificationPanel } from "../../components/run/RunResult";
import type { RunSummary } from "../../lib/measurement/summary";
import { summaryText, verificationError } from "../../runner/harness";
import { dbosTestTarget, sleep } from "../dbos/testing";
import { factOf } from "../../lib/measurement/verification";
import { throughputOf, latencyOf } from "../../lib/measurement/operations";

let t: Awaited<ReturnType<typeof dbosTestTarget>>;
before(async () => {
  t = await dbosTestTarget("inserts");
});
after(() => t.close());

/** The run page's headline and verification panel and the CLI's text: each counts rows, none messages. */
function assertCheckedInRows(s: RunSummary) {
  const checked = new RegExp(`\\b${s.verification.checked.toLocaleString("en-US")} rows checked`);
  for (const shown of [
    renderToStaticMarkup(createElement(Kpis, { summary: s })),
    renderToStaticMarkup(createElement(VerificationPanel, { v: s.verification })),
    summaryText(s, "embedded default"),
  ]) {
    assert.match(shown, checked);
    assert.doesNotMatch(shown, /messages? checked/);
  }
}

const config = { kind: "inserts", rate: 500, connections: 4, batchSize: 10, durationSeconds: 2, warmupSeconds: 0 } as const;

test("rows in the table equal the inserts counted; latencies and the drain time are reported", async () => {
  await t.run(config, undefined, async (schema, s) => {
    assert.equal(s.verification.ok, true, verificationError(s) ?? "");
    assertCheckedInRows(s);
    const rows = await t.count(`SELECT count(*) AS n FROM ${schema}.bench_inserts`);
    assert.equal(rows, s.totals!.operations.write, "rows = inserts counted over the whole run");
    assert.equal(await t.count(`SELECT count(DISTINCT id) AS n FROM ${schema}.bench_inserts`), rows);
    // 500 inserts/s over the window: the timetable's inserts are all done by the end of the drain (the window's
    // edges may hold a batch more or less); those a busy machine finished late fall out of the window's count.
    const due = 500 * s.window.measuredSeconds;
    // The timetable starts with the writers, a moment before the window does on a busy machine: a few percent more.
    assert.ok(
      Math.abs(s.totals!.operations.write - due) <= Math.max(20, 0.05 * due),
      `inserts over the whole run ${s.totals!.operations.write}, ${due.toFixed(0)} due`,
    );
    assert.ok(
      throughputOf(s, "write")!.count > 0 && throughputOf(s, "write")!.count <= s.totals!.operations.write,
      `measured inserts ${throughputOf(s, "write")!.count}`,
    );
    assert.ok(latencyOf(s, "write")!.count === throughputOf(s, "write")!.count && latencyOf(s, "writeScheduled")!.count === throughputOf(s, "write")!.count);
    assert.ok(latencyOf(s, "writeScheduled")!.p50 >= latencyOf(s, "write")!.p50, "from schedule ≥ from send");
    // One batch timed per 10 inserts counted in the window: each insert is counted as it ends, each batch when its
    // last one does, so each connection's batch in flight at either edge of the window may be counted in part.
    const batches = latencyOf(s, "batch")!.count;
    assert.ok(
      batches > 0 && Math.abs(batches - throughputOf(s, "write")!.count / 10) <= config.connections,
      `batches ${batches}, inserts ${throughputOf(s, "write")!.count}`,
    );
    // A batch is 10 inserts in a row: its latency is above one insert's.
    assert.ok(latencyOf(s, "batch")!.p50 > latencyOf(s, "write")!.p50);
    const drain = (s.notes ?? []).find((n) => n.startsWith("drain time "));
    assert.match(drain ?? "", /^drain time \d+\.\d{3} s \(> 0 means the database could not keep up\)/);
    assert.ok(Number(/drain time ([\d.]+)/.exec(drain!)![1]) < 1, drain);
    // ids: UUIDv7, time-ordered with created_at.
    const v = await t.admin.query(`SELECT id::text FROM ${schema}.bench_inserts ORDER BY created_at, id LIMIT 3`);
    for (const r of v.rows) assert.match(r.id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab]/);
  });
});

test("a rate beyond what the connections can serve leaves work waiting, and the drain time says so", async () => {
  // One connection, far more work asked in 1 s than it can do in the 10 s the drain may take.
  await t.run({ kind: "inserts", rate: 1_000_000, connections: 1, batchSize: 10, durationSeconds: 1, warmupSeconds: 0 }, undefined, async (_schema, s) => {
    const notes = s.notes ?? [];
    const drain = Number(/drain time ([\d.]+)/.exec(notes.find((n) => n.startsWith("drain time ")) ?? "")?.[1]);
    assert.ok(drain > 1, `drain ${drain}`);
    assert.match(notes.join("\n"), /were due and still waiting for a connection when it ended/);
    assert.match(notes.join("\n"), /due before the timetable ended were never run \(the drain was cut off after 10 s\)/);
    assert.doesNotMatch(notes.join("\n"), /still unread/, "no reader, so no unread backlog");
    assert.equal(s.verification.ok, true, verificationError(s) ?? "");
  });
});

test("a row added behind the runner's back, or a duplicated id, fails verification", async () => {
  await t.run(
    config,
    async (schema) => {
      await sleep(500);
      await t.admin.query(`INSERT INTO ${schema}.bench_inserts (id, payload) VALUES ('018f0000-0000-7000-8000-000000000000', 'x')`);
      await t.admin.query(`ALTER TABLE ${schema}.bench_inserts DROP CONSTRAINT bench_inserts_pkey`);
      await t.admin.query(`INSERT INTO ${schema}.bench_inserts (id, payload) SELECT id, payload FROM ${schema}.bench_inserts LIMIT 1`);
    },
    async (_schema, s) => {
      assert.equal(s.verification.ok, false);
      assert.equal(s.verification.facts.find((f) => f.name === "rows in bench_inserts")?.ok, false);
      assert.equal(factOf(s.verification, "duplicate ids"), 1);
      assert.match(s.verification.problems.join("\n"), /bench_inserts holds [\d,]+ rows but [\d,]+ inserts were counted as committed/);
      assert.match(s.verification.problems.join("\n"), /1 id occurs more than once in bench_inserts/);
      assert.match(verificationError(s) ?? "", /^verification FAILED: /);
    },
  );
});
