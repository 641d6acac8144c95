// The mixed workload on a real (embedded) Postgres: the four workloads at once, baseline and modded, closed
// and open loop; each operation has its own histogram and the aggregate is their merge (counts add up), each
// part's verification holds, a tampered part fails the run under its name, and without pg_cron the modded
// run says why its cron job was skipped and runs anyway.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import pg from "pg";
import { decodeHistogram } from "../../lib/measurement/histogram";
import { testDatabase } from "../../lib/testing";
import { WorkloadConfig, type WorkloadInput } from "../../lib/workloads/config";
import { runWorkload } from "../../runner/harness";
import { notify } from "../notify/definition";
import { search } from "../search/definition";
import { mixed, mixedParts } from "./definition";
import { throughputOf, latencyOf, histogramOf } from "../../lib/measurement/operations";

let db: { url: string; drop: () => Promise<void> };
let admin: pg.Client;
before(async () => {
  db = await testDatabase("mixed");
  admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
});
after(async () => {
  await admin.end();
  await db.drop();
});

const SMALL = { cacheVus: 2, searchVus: 2, notifyVus: 2, producers: 2, consumers: 1, thinkMs: 5, pool: 3, articles: 300, warmupSeconds: 0, durationSeconds: 2 };
const config = (over: Partial<Record<string, unknown>> = {}) => WorkloadConfig.parse({ kind: "mixed", ...SMALL, ...over } as WorkloadInput);

async function run(over: Partial<Record<string, unknown>>, tamper?: (schema: string) => Promise<unknown>) {
  let schema = "";
  let pending: Promise<unknown> | undefined;
  const summary = await runWorkload(config(over), db.url, {
    keepSchema: true,
    onSchema: (s) => (schema = `"${s}"`),
    onPhase: (p) => {
      if (p === "measuring" && tamper) pending = tamper(schema);
    },
  });
  await pending;
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  return summary;
}

const REQUEST_OPS = ["get", "set", "enqueue", "dequeue", "search", "publish"];

test("its parts are the four workloads with their VUs, each parsed by its own schema", () => {
  const parts = mixedParts(config() as never);
  assert.deepEqual(
    parts.map((p) => [p.kind, p.vus]),
    [
      ["cache", 2],
      ["jobqueue", 3],
      ["search", 2],
      ["notify", 2],
    ],
  );
  assert.equal(parts[2].config.articles, 300);
  assert.deepEqual(
    mixedParts(config({ searchVus: 0 }) as never).map((p) => p.kind),
    ["cache", "jobqueue", "notify"],
  );
  const r = WorkloadConfig.safeParse({ kind: "mixed", rate: 100, cacheVus: 0, searchVus: 0, notifyVus: 0, producers: 0, consumers: 0 });
  assert.match(JSON.stringify(r.error?.issues), /the open loop mixes its requests in their proportions/);
});

for (const variant of ["baseline", "modded"] as const)
  describe(`mixed ${variant}`, () => {
    test("every part runs and verifies; the aggregate is the merge of the operations", async () => {
      const s = await run({ variant });
      assert.equal(s.verification.ok, true, s.verification.problems.join("; "));
      let sum = 0;
      for (const op of REQUEST_OPS) {
        const n = s.operations[op]?.count ?? 0;
        assert.ok(n > 0, `${op}: ${n}`);
        sum += n;
        assert.ok(latencyOf(s, op), `${op} has its own percentiles`);
      }
      assert.equal(throughputOf(s, "total")!.count, sum, "total counts every request once");
      assert.equal(decodeHistogram(histogramOf(s.histograms, "total")!).totalCount, sum, "the aggregate histogram holds every request");
      assert.ok(latencyOf(s, "delivery"), "notify's delivery latency");
      assert.ok(latencyOf(s, "jobDelivery"), "the job queue's enqueue → dequeue latency, under its own name");
      if (variant === "modded")
        assert.ok(
          s.notes?.some((n) => /^pg_cron cache-expiry job skipped: the pg_cron extension is not installed/.test(n)),
          s.notes?.join("\n"),
        );
      else assert.ok(!s.notes?.some((n) => n.includes("pg_cron")));
      assert.ok(s.notes?.some((n) => n.startsWith("search: rows returned per search")));
      assert.ok(s.notes?.some((n) => n.startsWith("notify: delivered")));
    });
  });

test("open loop: arrivals are spread over the parts in their VUs' proportions", async () => {
  const s = await run({ variant: "modded", load: "rate", rate: 200 });
  assert.equal(s.verification.ok, true, s.verification.problems.join("; "));
  for (const op of ["search", "publish", "enqueue"]) assert.ok((s.operations[op]?.count ?? 0) > 0, op);
});

test("a tampered part fails the run, named", async () => {
  const s = await run({ variant: "baseline" }, (schema) => admin.query(`DELETE FROM ${schema}.articles WHERE id = 7`));
  assert.equal(s.verification.ok, false);
  assert.ok(
    s.verification.problems.some((p) => p.startsWith("search: the articles table holds 299 rows")),
    s.verification.problems.join("; "),
  );
});

test("every published row of search, notify and mixed is a config of its workload, with its own preset", () => {
  const defs = [search, notify, mixed];
  const ids: string[] = [];
  for (const d of defs) {
    assert.ok(d.published && d.published.length >= 2, d.kind);
    for (const p of d.published ?? []) {
      ids.push(p.id);
      assert.equal(p.study, "yong");
      const parsed = d.params.safeParse(p.config);
      assert.ok(parsed.success, `${p.id}: ${JSON.stringify(parsed.error?.issues)}`);
      assert.ok(
        d.presets.some((x) => x.referenceId === p.id && x.config === p.config),
        `${p.id} has a preset`,
      );
      assert.ok(p.measuredThrough?.startsWith("HTTP round trip"), p.id);
      assert.ok(
        p.derived?.every((x) => x.startsWith("ours:")),
        `${p.id}: derived facts are labelled ours`,
      );
      assert.ok(p.caveats.some((c) => /HTTP/.test(c.text)));
      assert.ok(p.latencyMs?.total?.p50 && p.latencyMs.total.p95 && p.rates?.total, p.id);
    }
  }
  assert.deepEqual(ids, [
    "yong-search-500vu-baseline",
    "yong-search-500vu-modded",
    "yong-search-500vu-nosleep-baseline",
    "yong-search-500vu-nosleep-modded",
    "yong-notify-200vu-baseline",
    "yong-notify-200vu-modded",
    "yong-mixed-200vu-baseline",
    "yong-mixed-200vu-modded",
  ]);
  assert.ok(search.published?.find((p) => p.id.endsWith("nosleep-modded"))?.caveats.some((c) => /return different things/.test(c.text)));
  assert.ok(search.published?.[0].caveats.some((c) => /CPU-bound/.test(c.text)));
  assert.ok(notify.published?.[0].caveats.some((c) => /does not say what its baseline polls/.test(c.text)));
  assert.ok(mixed.published?.[0].caveats.some((c) => /four features at once/.test(c.text)));
});
