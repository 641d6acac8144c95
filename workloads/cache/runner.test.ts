// The cache workload on a real (embedded) Postgres, both variants and both load models: the target holds what
// the runner says it did, verification passes, and it fails when the table is tampered with.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import pg from "pg";
import { decodeHistogram, percentilesOf } from "../../lib/measurement/histogram";
import { RunSummary } from "../../lib/measurement/summary";
import { testDatabase } from "../../lib/testing";
import { WorkloadConfig, type WorkloadInput } from "../../lib/workloads/config";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { Kpis, VerificationPanel } from "../../components/run/RunResult";
import { runWorkload, verificationError, summaryText } from "../../runner/harness";
import { keyName } from "./runner";
import { factOf } from "../../lib/measurement/verification";
import { latencyOf, histogramOf } from "../../lib/measurement/operations";

let db: { url: string; drop: () => Promise<void> };
let admin: pg.Client;
before(async () => {
  db = await testDatabase("cache");
  admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
});
after(async () => {
  await admin.end();
  await db.drop();
});

const BASE = { kind: "cache", keys: 500, durationSeconds: 1, warmupSeconds: 0, pool: 4 } as const;

/** Runs a config and keeps its schema; `during` runs once the measured window has started. */
async function run(input: WorkloadInput, during?: (schema: string) => Promise<unknown>) {
  let schema = "";
  let tamper: Promise<unknown> | undefined;
  const summary = await runWorkload(WorkloadConfig.parse(input), db.url, {
    keepSchema: true,
    onSchema: (s) => (schema = `"${s}"`),
    onPhase: (p) => {
      if (p === "measuring" && during) tamper = during(schema);
    },
  });
  await tamper;
  return { summary, schema };
}
const drop = (schema: string) => admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);

describe("cache: counts equal the target and verification passes", () => {
  const cases: [string, WorkloadInput][] = [
    ["baseline, closed loop", { ...BASE, variant: "baseline", vus: 6, thinkMs: 2 }],
    ["modded, closed loop, Zipf, no sleep", { ...BASE, variant: "modded", vus: 6, thinkMs: 0, distribution: "zipf", readPercent: 30 }],
    ["modded, open loop", { ...BASE, variant: "modded", rate: 400 }],
  ];
  for (const [name, input] of cases)
    test(name, async () => {
      const { summary, schema } = await run(input);
      try {
        RunSummary.parse(summary);
        assert.equal(verificationError(summary), null);
        const c = summary.config as Extract<WorkloadConfig, { kind: "cache" }>;
        assert.equal(c.load, "rate" in input ? "rate" : "vus", "the load model is recorded");
        // The table is logged or UNLOGGED as the variant says.
        const persistence = await admin.query<{ p: string }>(`SELECT relpersistence AS p FROM pg_class WHERE oid = '${schema}.cache_entries'::regclass`);
        assert.equal(persistence.rows[0].p, c.variant === "modded" ? "u" : "p");
        // Every key is there once, and nothing else.
        const rows = Number((await admin.query(`SELECT count(*) AS n FROM ${schema}.cache_entries`)).rows[0].n);
        assert.equal(rows, 500);
        const rates = summary.operations;
        const gets = rates.get.count;
        const sets = rates.set.count;
        assert.ok(gets > 0 && sets > 0, `gets ${gets}, sets ${sets}`);
        assert.equal(rates.total.count, gets + sets, "all requests = gets + sets");
        assert.equal(rates.miss.count, 0, "every key was prefilled: no miss");
        // Sets the target took: a row rewritten by a set carries a write id the runner issued; there are at most
        // as many such rows as sets committed over the whole run (those that ended after the window included).
        const ops = summary.totals!.operations!;
        assert.ok(ops.set >= sets && ops.get >= gets && ops.total === ops.get + ops.set);
        const written = Number((await admin.query(`SELECT count(*) AS n FROM ${schema}.cache_entries WHERE (value->>'w')::int > 0`)).rows[0].n);
        const maxW = Number((await admin.query(`SELECT max((value->>'w')::int) AS n FROM ${schema}.cache_entries`)).rows[0].n);
        assert.ok(written > 0 && written <= ops.set, `rows rewritten ${written}, sets ${ops.set}`);
        assert.ok(maxW <= ops.set, "no write id beyond the sets the runner sent");
        // Latencies: per operation, all requests, statements and pool wait, each re-read from its histogram.
        for (const m of ["get", "set", "total", "statement", "poolWait"]) {
          const s = latencyOf(summary, m);
          assert.ok(s && s.count > 0, `${m} latency recorded`);
          assert.deepEqual(percentilesOf(decodeHistogram(histogramOf(summary.histograms, m)!)), s);
        }
        assert.equal(latencyOf(summary, "total")!.count, gets + sets);
        assert.equal(latencyOf(summary, "statement")!.count, gets + sets);
        // A request's latency includes its pool wait and its statements.
        assert.ok(latencyOf(summary, "total")!.mean >= latencyOf(summary, "statement")!.mean);
        // The run page and the CLI speak of requests: no MiB/s (no payload), no messages.
        const kpis = renderToStaticMarkup(createElement(Kpis, { summary }));
        assert.match(kpis, /data-testid="kpi-total">[\d,.]+</);
        assert.doesNotMatch(kpis, /MiB\/s|messages/);
        assert.match(
          renderToStaticMarkup(createElement(VerificationPanel, { v: summary.verification })),
          new RegExp(`\\b${summary.verification.checked.toLocaleString("en-US")} requests checked · keys missing: 0`),
        );
        assert.match(kpis, /\b[\d,]+ requests checked/);
        const text = summaryText(summary, "embedded default");
        assert.match(
          text,
          new RegExp(`whole run \\(warm-up \\+ window \\+ drain\\): ${ops.get.toLocaleString("en-US")} gets, ${ops.set.toLocaleString("en-US")} sets`),
        );
        // The run's own part (before the telemetry's "why this number", which speaks of the server's WAL MiB/s):
        // no broker words.
        assert.doesNotMatch(text.split("\nwhy this number")[0], /MiB\/s|back-off|messages/);
        if (c.load === "rate") {
          const rate = rates.total.perSecond;
          assert.ok(rate > 300 && rate < 440, `open loop keeps its rate: ${rate}/s`);
        }
      } finally {
        await drop(schema);
      }
    });
});

describe("cache: verification fails when the table is tampered with", () => {
  test("keys deleted mid-run: gets miss and keys are missing", async () => {
    const { summary, schema } = await run({ ...BASE, variant: "modded", vus: 4, thinkMs: 1, readPercent: 100 }, async (s) => {
      await new Promise((r) => setTimeout(r, 300));
      await admin.query(`DELETE FROM ${s}.cache_entries WHERE key = ANY($1)`, [[0, 1, 2, 3, 4].map((i) => keyName(i, 5))]);
    });
    await drop(schema);
    assert.equal(summary.verification.ok, false);
    assert.equal(factOf(summary.verification, "keys missing"), 5);
    assert.match(verificationError(summary) ?? "", /5 keys missing from cache_entries/);
  });

  test("a value the runner never wrote, and a foreign row: both found", async () => {
    // Gets only, so no set can overwrite the tampered value again before the end.
    const { summary, schema } = await run({ ...BASE, variant: "baseline", vus: 4, thinkMs: 1, readPercent: 100 }, async (s) => {
      await new Promise((r) => setTimeout(r, 300));
      await admin.query(`UPDATE ${s}.cache_entries SET value = jsonb_set(value, '{w}', '987654321') WHERE key = $1`, [keyName(7, 5)]);
      await admin.query(`INSERT INTO ${s}.cache_entries VALUES ('cache:intruder', '{"id": 1}', NULL)`);
    });
    await drop(schema);
    assert.equal(summary.verification.ok, false);
    const problems = summary.verification.problems.join("\n");
    assert.match(problems, /1 row in cache_entries that is not one of this run's keys/);
    assert.match(problems, /cache:00007 holds write 987654321/);
  });
});
