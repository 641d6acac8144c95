// A workload is one folder: a throw-away workload, declared only here and registered for this test, shows up
// in the New run form's fields, the API's validation (POST /api/runs), the CLI's flags and --help, the
// reproducing command, the one-line describer and compare's config rows, and what it declares it measures in
// the charts, the run page, the CSV and compare, with no other file touched.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { POST } from "../app/api/runs/route";
import { fieldsOf, toFormValues, toInput } from "../components/run-form/fields";
import { toCliCommand } from "../lib/runs/cli-command";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { RunCharts } from "../components/charts/RunCharts";
import { LiveNumbers } from "../components/run/LiveNumbers";
import { LatencyTable } from "../components/run/RunResult";
import { comparedMetrics } from "../lib/compare/metrics";
import { configCellsOf, configRows } from "../lib/compare/rows";
import { Sample } from "../lib/measurement/sample";
import { RunStats } from "../runner/core";
import { csvColumns, samplesToCsv } from "../lib/runs/samples-csv";
import { prisma } from "../lib/db";
import { knobsParts } from "../lib/runs/format";
import { headlineOf } from "../lib/runs/view";
import { getRun } from "../lib/runs/store";
import { testControlStore, testDatabase } from "../lib/testing";
import { connectionsNeeded, parseConfig, WorkloadConfig } from "../lib/workloads/config";
import { parseArgs, usage, workloadUsage } from "../runner/harness";
import { paramsObject, plural, sharedFields, sharedParts, throttlePacing, throttleKnob, writersField, fieldTable } from "./fields";
import { registerWorkload } from "./index";
import { defineWorkload } from "./types";
import { throughputOf, latencyOf } from "../lib/measurement/operations";

const FIELDS = fieldTable([
  writersField,
  {
    name: "pingsPerSec",
    label: "Pings",
    unit: "per s",
    hint: "pings each writer sends",
    control: "int",
    min: 1,
    max: 50,
    default: 5,
    group: "load",
    cli: { flag: "pings", help: "pings per second per writer" },
    compareLabel: "Pings (per s)",
  },
  ...sharedFields,
  {
    name: "fsyncEach",
    label: "Fsync each ping",
    hint: "wait for the WAL flush of every ping",
    control: "bool",
    default: false,
    group: "batches",
    cli: { flag: "fsync-each", help: "wait for the WAL flush of every ping" },
    compareLabel: "Fsync each ping",
  },
]);

const echo = defineWorkload({
  kind: "echo",
  title: "echo",
  description: "Writers ping the server; nothing is read.",
  params: paramsObject("echo", FIELDS),
  fields: FIELDS,
  presets: [{ id: "echo-defaults", label: "echo: defaults", description: "4 writers, 5 pings/s.", config: { kind: "echo" } }],
  defaultPresetId: "echo-defaults",
  describe: (c) => [plural(c.writers, "writer"), `${c.pingsPerSec} pings/s`, ...sharedParts(c)],
  shortName: (c) => `echo ${c.writers}w`,
  clients: (c) => c.writers,
  clientsFormula: "writers",
  clientMemory: (c) => [{ bytes: c.writers * c.payloadBytes, words: `${c.writers} writers × payload`, fields: ["payloadBytes", "writers"] }],
  clientMemoryFormula: "writers × payload",
  rateKnob: throttleKnob(),
  pacing: (c) => throttlePacing(c, "msg", "ping"),
  // Its one operation is a ping, with a rate and a latency (no backlog, no delivery), shown under its own name.
  verifiedUnit: "ping",
  metrics: {
    operations: [
      {
        name: "ping",
        label: "ping",
        unit: "msg",
        rate: true,
        latency: true,
        errors: true,
        latencySample: "per ping",
        chart: { title: "Ping latency", hint: "per ping" },
      },
    ],
  },
});

let unregister: () => void;
let ctl: Awaited<ReturnType<typeof testControlStore>>;
let target: Awaited<ReturnType<typeof testDatabase>>;
before(async () => {
  unregister = registerWorkload(echo as never);
  ctl = await testControlStore("fixture_ctl");
  target = await testDatabase("fixture_tgt");
  process.env.TARGET_DATABASE_URL = target.url;
  process.env.TARGET_IS_EMBEDDED = "1";
});
after(async () => {
  unregister();
  await prisma().$disconnect();
  await ctl.drop();
  await target.drop();
});

const echoConfig = () =>
  WorkloadConfig.parse({ kind: "echo", writers: 2, pingsPerSec: 7, fsyncEach: true, warmupSeconds: 0 }) as unknown as Record<string, unknown>;

test("the form shows its fields, in its order, and reads them back", () => {
  assert.deepEqual(
    fieldsOf("echo").map((f) => [f.name, f.label, f.group]),
    FIELDS.map((f) => [f.name, f.label, f.group]),
  );
  const config = echoConfig();
  const f = toFormValues(config as never);
  assert.equal(f.values.pingsPerSec, "7");
  assert.equal(f.values.fsyncEach, "true");
  assert.deepEqual(parseConfig(toInput("echo", f.values)), { ok: true, config });
  assert.deepEqual(parseConfig(toInput("echo", { ...f.values, pingsPerSec: "lots" })), {
    ok: false,
    errors: { pingsPerSec: 'Pings must be a whole number, not "lots"' },
  });
});

test("the API validates it with its own messages and queues it", async () => {
  const post = async (config: unknown) => {
    const res = await POST(
      new Request("http://127.0.0.1/api/runs", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ config }) }),
    );
    return { status: res.status, body: (await res.json()) as { fields?: Record<string, string>; id?: string } };
  };
  const bad = await post({ kind: "echo", pingsPerSec: 99, ping: 1 });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.fields?.pingsPerSec, "Pings must be at most 50 per s");
  assert.match(bad.body.fields?.ping ?? "", /^"ping" is not a field of a echo workload \(its fields: kind, writers, pingsPerSec, /);
  assert.match((await post({ kind: "nope" })).body.fields?.kind ?? "", /^kind must be "pubsub", "queue", .* or "echo"$/);

  const ok = await post({ kind: "echo", writers: 2, pingsPerSec: 7, fsyncEach: true, warmupSeconds: 0 });
  assert.equal(ok.status, 201, JSON.stringify(ok.body));
  assert.deepEqual((await getRun(ok.body.id!))?.config, echoConfig());
  assert.equal(connectionsNeeded(echoConfig() as never), 4, "2 writers + set-up + telemetry");
  await prisma().run.update({ where: { id: ok.body.id! }, data: { status: "cancelled" } });
});

test("the CLI takes its flags, lists them in --help and names them in errors", () => {
  const r = parseArgs(["echo", "-writers", "2", "-pings", "7", "-fsync-each", "--warmup", "0s"]);
  assert.equal(r.kind, "run");
  assert.deepEqual(r.kind === "run" && r.options.config, echoConfig());
  assert.deepEqual(parseArgs(["echo", "-pings=0"]), { kind: "error", message: "invalid echo settings: -pings: Pings must be at least 1 per s" });
  assert.deepEqual(parseArgs(["queue", "-pings", "3"]), { kind: "error", message: "-pings applies to the echo workload only, not queue" });
  assert.deepEqual(parseArgs(["echo", "-partitions", "3"]), {
    kind: "error",
    message: "-partitions applies to the pubsub and queued-workflows workloads only, not echo",
  });
  assert.match(usage(), /\n {2}echo +echo: /);
  assert.match(workloadUsage("echo"), /^Usage: npm run bench -- echo \[flags\]/);
  assert.match(workloadUsage("echo"), /\n {2}-pings N +pings per second per writer\n/);
  assert.match(workloadUsage("echo"), /\n {2}-fsync-each +wait for the WAL flush of every ping\n/);
});

test("the reproducing command writes its flags, and the CLI reads it back to the same config", () => {
  const cmd = toCliCommand(echoConfig() as never);
  assert.equal(cmd, "npm run bench -- echo -writers 2 -pings 7 -throttle_writes 0 -payload 1024 -duration 30s -report 5s -fsync-each --warmup 0s");
  const r = parseArgs(cmd.replace("npm run bench -- ", "").split(" "));
  assert.deepEqual(r.kind === "run" && r.options.config, echoConfig());
});

test("its describer names the run, and compare has a row for each of its fields", () => {
  assert.deepEqual(knobsParts(echoConfig() as never), ["2 writers", "7 pings/s", "unthrottled", "30 s measured"]);
  const rows = configRows();
  assert.ok(rows.some((r) => r.key === "pingsPerSec" && r.label === "Pings (per s)"));
  assert.ok(rows.some((r) => r.key === "fsyncEach" && r.label === "Fsync each ping"));
  const cells = configCellsOf("echo", echoConfig(), 1);
  assert.equal(cells.workload, "echo");
  assert.equal(cells.pingsPerSec, 7);
  assert.equal(cells.fsyncEach, true);
  assert.equal(cells.partitions ?? null, null, "another workload's row stays empty");
});

test("what it declares it measures is what the charts, the run page, the CSV and compare show", () => {
  // A second of an echo run as runner/stats.ts makes it: its ping rate (RunStats.op("ping")) and latency.
  let now = 0;
  const stats = new RunStats([], 1024, () => now);
  stats.op("ping").done(35);
  stats.op("ping").failed(2);
  for (let i = 0; i < 35; i++) stats.op("ping").latency.record(1500);
  now += 1000;
  const sample = Sample.parse({ seq: 0, time: new Date(0).toISOString(), phase: "measuring", metrics: stats.tick("measuring") });
  const ping = latencyOf(sample.metrics, "ping")!;
  assert.equal(throughputOf(sample.metrics, "ping")!.perSecond, 35);
  const charts = renderToStaticMarkup(createElement(RunCharts, { samples: [sample], workload: "echo", warmupSeconds: 0, totalSeconds: 30 }));
  assert.match(charts, /data-testid="chart-latency-ping"/);
  assert.match(charts, />Ping latency</);
  for (const absent of ["chart-latency-write", "chart-latency-e2e", "chart-backlog"]) assert.doesNotMatch(charts, new RegExp(absent));

  const live = renderToStaticMarkup(createElement(LiveNumbers, { sample, workload: "echo" }));
  assert.match(live, /data-testid="live-lat-ping"><th scope="row">ping<\/th><td class="num">1\.5/);
  assert.match(live, /data-testid="live-ping-rate">35<\/td><td class="num">0\.03<\/td><td class="num">2</);
  assert.doesNotMatch(live, /live-write|live-backlog/);
  assert.match(charts, /data-testid="chart-throughput"/);

  const table = renderToStaticMarkup(createElement(LatencyTable, { workload: "echo", latency: { ping }, caption: "c" }));
  assert.deepEqual(
    [...table.matchAll(/<th scope="row"[^>]*>([^<]+)</g)].map((m) => m[1]),
    ["ping"],
  );

  assert.deepEqual(csvColumns("echo"), [
    ..."seq time phase elapsed_s interval_s ping_msg_s ping_mib_s ping_count ping_errors".split(" "),
    ..."ping_p50_ms ping_p95_ms ping_p99_ms ping_max_ms ping_latency_count".split(" "),
    // The runner's own load, whatever the workload (empty in a sample without it).
    ..."runner_loop_delay_p99_ms runner_loop_delay_max_ms runner_cpu_cores".split(" "),
  ]);
  const [, row] = samplesToCsv([sample], "echo").trim().split("\n");
  assert.equal(
    row,
    `0,1970-01-01T00:00:00.000Z,measuring,1,1,35,${+((35 * 1024) / 1048576).toFixed(6)},35,2,${ping.p50},${ping.p95},${ping.p99},${ping.max},35,,,,`,
  );

  // The runs list's headline: its declared rate and latency, not the broker's write/read/e2e.
  const summaryish = { workload: "echo", operations: sample.metrics.operations };
  assert.deepEqual(headlineOf({ ...summaryish, verification: { ok: true } } as never), {
    rates: [{ op: "ping", label: "ping", unit: "msg/s", perSec: 35 }],
    latency: { name: "ping", label: "ping", p99Ms: ping.p99 },
    verified: true,
  });

  assert.deepEqual(comparedMetrics(["echo"]), {
    rates: [{ name: "ping", label: "Ping", unit: "msg", perSec: "msg/s" }],
    latencies: [{ name: "ping", label: "Ping" }],
  });
  // Compared with a queue run: each workload's rows, the other's cells empty.
  assert.deepEqual(
    comparedMetrics(["queue", "echo"]).latencies.map((l) => l.name),
    ["write", "read", "e2e", "ping"],
  );
});

test("removed again, it is gone from every surface", () => {
  unregister();
  try {
    assert.deepEqual(fieldsOf("echo"), []);
    assert.equal(parseConfig({ kind: "echo" }).ok, false);
    const r = parseArgs(["echo"]);
    assert.match(r.kind === "error" ? r.message : "", /^unknown workload "echo": use pubsub, queue, /);
    assert.doesNotMatch(r.kind === "error" ? r.message : "", /echo$/);
    assert.ok(!configRows().some((r) => r.key === "pingsPerSec"));
  } finally {
    unregister = registerWorkload(echo as never);
  }
});
