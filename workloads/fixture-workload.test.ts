// A workload is one folder: the test workload of fixtures/workloads/append (its definition, runner and hooks),
// registered for this test through the product's registry (fixtures/workloads/load.ts), shows up in the New run
// form's fields, the API's validation (POST /api/runs), the CLI's flags and --help, the reproducing command, the
// one-line describer and compare's config rows, and what it declares it measures in the charts, the run page, the
// CSV and compare, with no other file touched. (That it runs, splits and verifies: the conformance suite,
// workloads/exercise/.)
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { POST } from "../app/api/runs/route";
import { RunCharts } from "../components/charts/RunCharts";
import { fieldsOf, toFormValues, toInput } from "../components/run-form/fields";
import { LiveNumbers } from "../components/run/LiveNumbers";
import { LatencyTable } from "../components/run/RunResult";
import { definition as append } from "../fixtures/workloads/append/definition";
import { registerFixtures } from "../fixtures/workloads/load";
import { comparedMetrics } from "../lib/compare/metrics";
import { configCellsOf, configRows } from "../lib/compare/rows";
import { prisma } from "../lib/db";
import { latencyOf, throughputOf } from "../lib/measurement/operations";
import { Sample } from "../lib/measurement/sample";
import { toCliCommand } from "../lib/runs/cli-command";
import { knobsParts } from "../lib/runs/format";
import { csvColumns, samplesToCsv } from "../lib/runs/samples-csv";
import { getRun } from "../lib/runs/store";
import { headlineOf } from "../lib/runs/view";
import { testControlStore, testDatabase } from "../lib/testing";
import { connectionsNeeded, parseConfig, WorkloadConfig } from "../lib/workloads/config";
import { RunStats } from "../runner/core";
import { parseArgs, usage, workloadUsage } from "../runner/harness";

let fixtures: ReturnType<typeof registerFixtures>;
let ctl: Awaited<ReturnType<typeof testControlStore>>;
let target: Awaited<ReturnType<typeof testDatabase>>;
before(async () => {
  fixtures = registerFixtures();
  ctl = await testControlStore("fixture_ctl");
  target = await testDatabase("fixture_tgt");
  process.env.TARGET_DATABASE_URL = target.url;
  process.env.TARGET_IS_EMBEDDED = "1";
});
after(async () => {
  fixtures.remove();
  await prisma().$disconnect();
  await ctl.drop();
  await target.drop();
});

const appendConfig = () =>
  WorkloadConfig.parse({ kind: "append", writers: 2, rate: 7, unlogged: true, warmupSeconds: 0 }) as unknown as Record<string, unknown>;

test("the form shows its fields, in its order, and reads them back", () => {
  assert.deepEqual(
    fieldsOf("append").map((f) => [f.name, f.label, f.group]),
    append.fields.map((f) => [f.name, f.label, f.group]),
  );
  const config = appendConfig();
  const f = toFormValues(config as never);
  assert.equal(f.values.rate, "7");
  assert.equal(f.values.unlogged, "true");
  assert.deepEqual(parseConfig(toInput("append", f.values)), { ok: true, config });
  assert.deepEqual(parseConfig(toInput("append", { ...f.values, rate: "lots" })), {
    ok: false,
    errors: { rate: 'Appends must be a whole number, not "lots"' },
  });
});

test("the API validates it with its own messages and queues it", async () => {
  const post = async (config: unknown) => {
    const res = await POST(
      new Request("http://127.0.0.1/api/runs", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ config }) }),
    );
    return { status: res.status, body: (await res.json()) as { fields?: Record<string, string>; id?: string } };
  };
  const bad = await post({ kind: "append", rate: 100_001, ping: 1 });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.fields?.rate, "Appends must be at most 100,000 row/s");
  assert.match(bad.body.fields?.ping ?? "", /^"ping" is not a field of a append workload \(its fields: kind, writers, rate, unlogged, /);
  assert.match((await post({ kind: "nope" })).body.fields?.kind ?? "", /^kind must be "pubsub", "queue", .* or "append"$/);

  const ok = await post({ kind: "append", writers: 2, rate: 7, unlogged: true, warmupSeconds: 0 });
  assert.equal(ok.status, 201, JSON.stringify(ok.body));
  assert.deepEqual((await getRun(ok.body.id!))?.config, appendConfig());
  assert.equal(connectionsNeeded(appendConfig() as never), 5, "2 writers + 1 reader + set-up + telemetry");
  await prisma().run.update({ where: { id: ok.body.id! }, data: { status: "cancelled" } });
});

test("the CLI takes its flags, lists them in --help and names them in errors", () => {
  const r = parseArgs(["append", "-writers", "2", "--appends", "7", "--unlogged", "--warmup", "0s"]);
  assert.equal(r.kind, "run");
  assert.deepEqual(r.kind === "run" && r.options.config, appendConfig());
  assert.deepEqual(parseArgs(["append", "--appends=0"]), { kind: "error", message: "invalid append settings: -appends: Appends must be at least 1 row/s" });
  assert.deepEqual(parseArgs(["queue", "--appends", "3"]), { kind: "error", message: "-appends applies to the append workload only, not queue" });
  assert.deepEqual(parseArgs(["append", "-partitions", "3"]), {
    kind: "error",
    message: "-partitions applies to the pubsub and queued-workflows workloads only, not append",
  });
  assert.match(usage(), /\n {2}append +append: /);
  assert.match(workloadUsage("append"), /^Usage: npm run bench -- append \[flags\]/);
  assert.match(workloadUsage("append"), /\n {2}--appends N +rows appended per second over all writers\n/);
  assert.match(workloadUsage("append"), /\n {2}--unlogged +append to an UNLOGGED table\n/);
});

test("the reproducing command writes its flags, and the CLI reads it back to the same config", () => {
  const cmd = toCliCommand(appendConfig() as never);
  assert.equal(cmd, "npm run bench -- append -writers 2 -duration 30s -report 5s --appends 7 --unlogged --warmup 0s");
  const r = parseArgs(cmd.replace("npm run bench -- ", "").split(" "));
  assert.deepEqual(r.kind === "run" && r.options.config, appendConfig());
});

test("its describer names the run, and compare has a row for each of its fields", () => {
  assert.deepEqual(knobsParts(appendConfig() as never), ["2 writers", "7 rows/s", "unlogged", "30 s measured"]);
  const rows = configRows();
  assert.ok(rows.some((r) => r.key === "unlogged" && r.label === "Unlogged table"));
  const cells = configCellsOf("append", appendConfig(), 1);
  assert.equal(cells.workload, "append");
  assert.equal(cells.rate, 7);
  assert.equal(cells.unlogged, true);
  assert.equal(cells.partitions ?? null, null, "another workload's row stays empty");
});

test("what it declares it measures is what the charts, the run page, the CSV and compare show", () => {
  // A second of an append run as runner/core/stats.ts makes it: its appends (the write) and its reads back
  // (RunStats.op("fetch")), each with its latency.
  let now = 0;
  const stats = new RunStats([], 0, () => now);
  const writeOp = stats.op("write");
  writeOp.done(35);
  for (let i = 0; i < 35; i++) writeOp.latency.record(1500);
  stats.op("fetch").done(30);
  stats.op("fetch").failed(2);
  stats.op("fetch").latency.record(800);
  now += 1000;
  const sample = Sample.parse({ seq: 0, time: new Date(0).toISOString(), phase: "measuring", metrics: stats.tick("measuring") });
  const write = latencyOf(sample.metrics, "write")!;
  const fetch = latencyOf(sample.metrics, "fetch")!;
  assert.equal(throughputOf(sample.metrics, "write")!.perSecond, 35);
  assert.equal(throughputOf(sample.metrics, "fetch")!.perSecond, 30);
  const charts = renderToStaticMarkup(createElement(RunCharts, { samples: [sample], workload: "append", warmupSeconds: 0, totalSeconds: 30 }));
  assert.match(charts, /data-testid="chart-latency-write"/);
  assert.match(charts, />Append latency</);
  for (const absent of ["chart-latency-fetch", "chart-latency-e2e", "chart-backlog"]) assert.doesNotMatch(charts, new RegExp(absent));

  const live = renderToStaticMarkup(createElement(LiveNumbers, { sample, workload: "append" }));
  assert.match(live, /data-testid="live-lat-write"><th scope="row">append<\/th><td class="num">1\.5/);
  assert.match(live, /data-testid="live-fetch-rate">30<\/td>/);
  assert.doesNotMatch(live, /live-read|live-backlog/);
  assert.match(charts, /data-testid="chart-throughput"/);

  const table = renderToStaticMarkup(createElement(LatencyTable, { workload: "append", latency: { write, fetch }, caption: "c" }));
  assert.deepEqual(
    [...table.matchAll(/<th scope="row"[^>]*>([^<]+)</g)].map((m) => m[1]),
    ["append", "read back"],
  );

  assert.deepEqual(csvColumns("append"), [
    ..."seq time phase elapsed_s interval_s".split(" "),
    // Its two rates (rows, no payload: MiB/s reads 0), then its latencies, the append's from its schedule too.
    ..."write_row_s write_mib_s write_count write_errors fetch_row_s fetch_mib_s fetch_count fetch_errors".split(" "),
    ..."write_p50_ms write_p95_ms write_p99_ms write_max_ms write_latency_count".split(" "),
    ..."writeScheduled_p50_ms writeScheduled_p95_ms writeScheduled_p99_ms writeScheduled_max_ms writeScheduled_latency_count".split(" "),
    ..."fetch_p50_ms fetch_p95_ms fetch_p99_ms fetch_max_ms fetch_latency_count".split(" "),
    // The runner's own load, whatever the workload (empty in a sample without it).
    ..."runner_loop_delay_p99_ms runner_loop_delay_max_ms runner_cpu_cores".split(" "),
  ]);
  const [, row] = samplesToCsv([sample], "append").trim().split("\n");
  assert.equal(
    row,
    `0,1970-01-01T00:00:00.000Z,measuring,1,1,35,0,35,0,30,0,30,2,${write.p50},${write.p95},${write.p99},${write.max},35,,,,,,${fetch.p50},${fetch.p95},${fetch.p99},${fetch.max},1,,,,`,
  );

  // The runs list's headline: its declared rates and first latency, not the broker's read/e2e.
  const summaryish = { workload: "append", operations: sample.metrics.operations };
  assert.deepEqual(headlineOf({ ...summaryish, verification: { ok: true } } as never), {
    rates: [
      { op: "write", label: "append", unit: "row/s", perSec: 35 },
      { op: "fetch", label: "read back", unit: "row/s", perSec: 30 },
    ],
    latency: { name: "write", label: "append", p99Ms: write.p99 },
    verified: true,
  });

  assert.deepEqual(comparedMetrics(["append"]), {
    rates: [
      { name: "write", label: "Append", unit: "row", perSec: "row/s" },
      { name: "fetch", label: "Read back", unit: "row", perSec: "row/s" },
    ],
    // Compare's latencies are the charted ones: the append's (the read back declares no chart).
    latencies: [{ name: "write", label: "Append" }],
  });
});

test("removed again, it is gone from every surface", () => {
  fixtures.remove();
  try {
    assert.deepEqual(fieldsOf("append"), []);
    assert.equal(parseConfig({ kind: "append" }).ok, false);
    const r = parseArgs(["append"]);
    assert.match(r.kind === "error" ? r.message : "", /^unknown workload "append": use pubsub, queue, /);
    assert.doesNotMatch(r.kind === "error" ? r.message : "", /append$/);
    assert.ok(!configRows().some((r) => r.key === "unlogged"));
  } finally {
    fixtures = registerFixtures();
  }
});
