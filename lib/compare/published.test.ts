// What compare says about results of another kind: a reference's (or an import's) known inflations beside the
// deltas they explain, and other studies' published results (a definition's `published` entries, read from the
// registry) as items of their own, with their mean ("avg") row and how their latencies were timed.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { GET as getFit } from "../../app/api/references/[id]/fit/route";
import { GET as getReference } from "../../app/api/references/[id]/route";
import { PublishedStudies } from "../../components/compare/PublishedBits";
import { paramsObject, sharedFields, throttlePacing, throttleKnob, writersField } from "../../workloads/fields";
import { registerWorkload } from "../../workloads/index";
import { defineWorkload, type PublishedResult } from "../../workloads/types";
import { buildComparison } from "./compare";
import { toMarkdown } from "./export-markdown";
import { toTextTable } from "./export-text";
import { fromPublished, fromReference, fromRun } from "./build";
import { loadComparables } from "./load";
import { decodeHistogram, encodeHistogram, newHistogram, percentilesOf, recordMicros } from "../measurement/histogram";
import { publishedById, publishedConfig, publishedResults } from "../references/published";
import { referenceById, referenceWorkload } from "../references/references";
import { RunSummary } from "../measurement/summary";
import { prisma } from "../db";
import { testControlStore, testDatabase } from "../testing";
import { histogramOf } from "../measurement/operations";

/** A completed run's record of `config`, its `ops` latencies recorded into real HDR histograms (0.501 … 1.5 ms). */
function runRecord(id: string, config: RunSummary["config"], writeMsgPerSec: number, ops: string[], rates: Record<string, number> = {}) {
  const hs: Record<string, ReturnType<typeof newHistogram>> = {};
  for (const op of ops) {
    hs[op] = newHistogram();
    for (let i = 1; i <= 1000; i++) recordMicros(hs[op], 500 + i);
  }
  // Stored in the old (schemaVersion 1) shape: read through the schema, which converts it.
  const summary: RunSummary = RunSummary.parse({
    schemaVersion: 1,
    workload: config.kind,
    config,
    manifest: {
      postgresVersion: "18.1",
      serverSettings: { fsync: "on" },
      maxConnections: 100,
      runnerHost: "box",
      runnerCores: 2,
      runnerCpuModel: "Test CPU",
      nodeVersion: "v20",
      productVersion: "0.1.0",
      productCommit: "abc",
      startedAt: "2026-01-01T00:00:00Z",
      endedAt: "2026-01-01T00:00:04Z",
      runnerCpuSeconds: 1,
      runnerCpuMsPer1000Msgs: 1,
      e2eClock: "runner monotonic clock",
      backoff: "reference-effective",
    },
    window: { measuredSeconds: config.durationSeconds, warmupSeconds: 0 },
    writes: { count: writeMsgPerSec * config.durationSeconds, msgPerSec: writeMsgPerSec, mibPerSec: 1, errors: 0 },
    reads: { count: writeMsgPerSec * config.durationSeconds, msgPerSec: writeMsgPerSec, mibPerSec: 1, errors: 0, emptyPolls: 0, perGroup: [] },
    ...(Object.keys(rates).length
      ? {
          rates: Object.fromEntries(Object.entries(rates).map(([op, r]) => [op, { count: r * config.durationSeconds, msgPerSec: r, mibPerSec: 0, errors: 0 }])),
        }
      : {}),
    latencyMs: Object.fromEntries(ops.map((op) => [op, percentilesOf(hs[op])])),
    verification: { ok: true, checked: 1, unit: "message", problems: [], facts: [] },
    histograms: Object.fromEntries(ops.map((op) => [op, encodeHistogram(hs[op])])),
  });
  return { id, status: "completed", createdAt: new Date("2026-01-01T00:00:00Z"), targetLabel: "embedded default", summary };
}

test("identical settings: the reference's start-up burst and rate divisor stand beside its write msg/s delta, not as mere info", () => {
  const r = referenceById("queue-4vcpu-single-node")!;
  const config = referenceWorkload(r);
  // A run of the same config that wrote exactly at the throttle: the published rate's excess is the burst.
  const run = fromRun(runRecord("r_same", config, (config as { throttleWritesPerSec: number }).throttleWritesPerSec, ["write", "read", "e2e"]));
  const cmp = buildComparison([run, fromReference(r)], "r_same");
  const write = cmp.results.find((x) => x.key === "writePerSec")!;
  assert.deepEqual(write.effects[0], [], "the measured run has no known inflation");
  const burst = write.effects[1].find((t) => t.startsWith("start-up burst"));
  assert.ok(burst, `effects: ${write.effects[1].join(" | ")}`);
  // One second of writes over the configured 1,800 s: +0.056%.
  assert.match(burst, new RegExp(`about \\+${(100 / config.durationSeconds).toFixed(2)}%`));
  assert.ok(write.effects[1].some((t) => t.startsWith("rate divisor: totals are divided by the configured 1800 s")));
  // The e2e tail is moved by the start-up backlog; its p50 is not.
  assert.ok(cmp.results.find((x) => x.key === "e2e.p99")!.effects[1].some((t) => t.startsWith("no warm-up")));
  assert.deepEqual(cmp.results.find((x) => x.key === "e2e.p50")!.effects[1], []);
  // The rate divisor is a warning now, and the exports list the effects beside the rows they move.
  assert.equal(cmp.notes.find((n) => n.topic === "rates")?.severity, "warn");
  assert.match(
    toMarkdown(cmp),
    /## Known effects beside the deltas\n\n- Write msg\/s, Write MiB\/s, Read msg\/s, Read MiB\/s of Published: .*: start-up burst/,
  );
  assert.match(toTextTable(cmp), /Known effects beside the deltas:\n {2}! Write msg\/s, .*start-up burst/);
  // Two references: one kind of result, nothing to explain by kind.
  const refs = buildComparison([fromReference(r), fromReference(referenceById("queue-96vcpu-single-node")!)]);
  assert.ok(refs.results.every((x) => x.effects.every((e) => e.length === 0)));
});

test("mixing workloads is named by their own titles and descriptions", () => {
  const notes = buildComparison([fromReference(referenceById("pubsub-4vcpu-single-node")!), fromReference(referenceById("queue-4vcpu-single-node")!)]).notes;
  assert.match(
    notes.find((n) => n.topic === "workload")?.text ?? "",
    /^Mixes workloads: pub\/sub \(Kafka-style log: .*\); queue \(.*\)\. They do different work/,
  );
});

// ---------- a fixture workload with another study's published result ----------

const FIELDS = [writersField, ...sharedFields];
const PUBLISHED: PublishedResult = {
  id: "test-echo-200vu",
  study: "yong",
  title: "Echo, 200 VUs",
  source: "https://example.org/article#echo",
  config: { kind: "echoes", writers: 3 },
  durationSeconds: 60,
  rates: { ping: 1754, total: 2000 },
  latencyMs: { ping: { p50: 1.87, p95: 6, avg: 2.5 } },
  measuredThrough: "HTTP round trips: k6 → Express API → pg pool of 10 → Postgres",
  loadModel: "200 k6 VUs with think time",
  server: "Docker container, 2 CPUs, 2 GB, PostgreSQL 17",
  bottleneck: "the load generator",
  derived: ["2,000 req/s × 60 s ≈ 120,000 requests"],
  caveats: [{ by: "found", text: "the load generator, not the database, capped throughput" }],
};
const echoes = defineWorkload({
  kind: "echoes",
  title: "echoes",
  description: "Writers ping the server.",
  params: paramsObject("echoes", FIELDS),
  fields: FIELDS,
  presets: [{ id: "echoes-defaults", label: "echoes: defaults", description: "defaults", config: { kind: "echoes" } }],
  defaultPresetId: "echoes-defaults",
  describe: (c) => [`${c.writers} writers`],
  shortName: (c) => `echoes ${c.writers}w`,
  clients: (c) => c.writers,
  clientsFormula: "writers",
  clientMemory: () => [],
  clientMemoryFormula: "nothing",
  rateKnob: throttleKnob(),
  pacing: (c) => throttlePacing(c, "req", "ping"),
  verifiedUnit: "echo",
  metrics: {
    operations: [
      { name: "ping", label: "ping", unit: "req", rate: true, latency: true, errors: true, latencySample: "per ping", chart: { title: "Ping", hint: "" } },
    ],
  },
  published: [PUBLISHED],
});

let unregister: () => void;
before(() => {
  unregister = registerWorkload(echoes as never);
});
after(() => unregister());

test("a definition's published results are listed from the registry, and its config parses with the workload's schema", () => {
  assert.ok(publishedResults().some((p) => p.id === PUBLISHED.id));
  assert.equal(publishedById(PUBLISHED.id), PUBLISHED);
  const parsed = publishedConfig(PUBLISHED);
  assert.ok(parsed.ok);
  assert.equal(parsed.ok && (parsed.config as { writers: number }).writers, 3);
  const bad = publishedConfig({ ...PUBLISHED, config: { kind: "echoes", writers: -1 } });
  assert.ok(
    !bad.ok && /published config of "test-echo-200vu" does not parse as a echoes config: writers: Writers must be at least 1/.test(bad.error),
    JSON.stringify(bad),
  );
});

test("compare takes a published result as an item: its rates, the latencies it prints, an avg row, and how it was timed", async () => {
  const { items, problems } = await loadComparables([`ref:${PUBLISHED.id}`]);
  assert.deepEqual(problems, []);
  const pub = items[0];
  assert.equal(pub.badge, "published");
  assert.equal(pub.throughput.pingPerSec, 1754);
  assert.deepEqual(pub.latency.ping, { p50: 1.87, p95: 6, p99: null, p999: null, max: null, avg: 2.5 });
  assert.equal(pub.config.writers, 3);

  const runRec = runRecord(
    "r_echo",
    { kind: "echoes", writers: 3, payloadBytes: 1024, durationSeconds: 60, warmupSeconds: 0, throttleWritesPerSec: 0 } as never,
    0,
    ["ping"],
    { ping: 35 },
  );
  const run = fromRun(runRec);
  const cmp = buildComparison([run, fromPublished(PUBLISHED)], "r_echo");
  const row = (k: string) => cmp.results.find((r) => r.key === k);
  // The run's mean is its merged histogram's, in ms.
  const mean = decodeHistogram(histogramOf(runRec.summary.histograms, "ping")!).mean / 1000;
  assert.deepEqual(row("ping.avg")?.values, [mean, 2.5]);
  assert.equal(row("ping.avg")?.label, "Ping avg");
  assert.deepEqual(row("ping.p99")?.values, [run.latency.ping.p99, null], "not published: null, never invented");
  assert.equal(row("pingPerSec")?.label, "Ping req/s");
  assert.deepEqual(row("pingPerSec")?.values, [35, 1754], "the run's declared operation's own rate (RunStats.op)");
  assert.deepEqual(row("totalPerSec")?.values, [null, 2000]);
  assert.equal(row("totalPerSec")?.label, "All operations req/s");
  // Its latencies are another quantity: a warning, and beside every latency delta.
  assert.match(
    cmp.notes.find((n) => n.topic === "kind")?.text ?? "",
    /^Latencies are not the same quantity: r_echo · echoes 3w: runner → Postgres, per operation \(ours\); Published: Yong · Echo, 200 VUs: HTTP round trips: k6 → Express API/,
  );
  assert.equal(cmp.notes.find((n) => n.topic === "kind")?.severity, "warn");
  assert.match(row("ping.p50")!.effects[1][0], /^its latencies are HTTP round trips: k6 → Express API → pg pool of 10 → Postgres; ours are runner → Postgres/);
  assert.match(row("pingPerSec")!.effects[1][0], /capped by the load generator/);
  assert.ok(pub.notes.some((n) => n === "Derived by us, not published: 2,000 req/s × 60 s ≈ 120,000 requests"));
  // The Markdown summary table has what echoes declares, not the reference README's write/read/e2e columns.
  const md = toMarkdown(cmp);
  assert.match(md, /\| Configuration \| Source \| Server \| Ping \(req\/s\) \| Ping p50 \/ p95 \/ p99 \|/);
  assert.doesNotMatch(md.slice(0, md.indexOf("## Results")), /Write Rate|E2E Latency/);
  // No back-off and no e2e clock to disagree about.
  assert.ok(!cmp.notes.some((n) => n.topic === "backoff" || n.topic === "clock"));

  // Without a published mean, there is no avg row.
  const r = referenceById("queue-4vcpu-single-node")!;
  const plain = buildComparison([fromRun(runRecord("r_q", referenceWorkload(r), 100, ["write", "read", "e2e"])), fromReference(r)]);
  assert.ok(!plain.results.some((x) => x.key.endsWith(".avg")));
});

test("/references lists a study's published results beside Kozlovski's: title, server, load, figures, measured through, derived as ours, caveats", () => {
  const html = renderToStaticMarkup(createElement(PublishedStudies));
  assert.match(html, /Aaron Yong/);
  assert.match(html, /data-published="test-echo-200vu"/);
  for (const s of [
    "Echo, 200 VUs",
    "Docker container, 2 CPUs, 2 GB, PostgreSQL 17",
    "200 k6 VUs with think time",
    "HTTP round trips: k6 → Express API → pg pool of 10 → Postgres",
    "1,754",
    "2.5",
    "2,000 req/s × 60 s ≈ 120,000 requests",
    "the load generator, not the database, capped throughput",
  ])
    assert.ok(html.includes(s.replace(/&/g, "&amp;").replace(/>/g, "&gt;")), `missing: ${s}`);
  assert.match(html, /derived by us/i);
  assert.match(html, /href="\/runs\/new\?published=test-echo-200vu"/);
  assert.match(html, /href="\/compare\?ids=ref:test-echo-200vu"/);
});

test("GET /api/references/:id answers a published result by its id, labelled published, with its compare key", async () => {
  const res = await getReference(new Request(`http://127.0.0.1/api/references/${PUBLISHED.id}`), { params: Promise.resolve({ id: PUBLISHED.id }) });
  assert.equal(res.status, 200);
  const body = (await res.json()) as Record<string, unknown>;
  assert.equal(body.badge, "published");
  assert.equal(body.compareKey, `ref:${PUBLISHED.id}`);
  assert.equal(body.measuredThrough, PUBLISHED.measuredThrough);
  const missing = await getReference(new Request("http://127.0.0.1/api/references/nope"), { params: Promise.resolve({ id: "nope" }) });
  assert.equal(missing.status, 404);
  assert.match(((await missing.json()) as { error: string }).error, /there are .*test-echo-200vu/);
});

test("its fit on a target: the generic warnings (connections, run length) for its config, or as edited", async () => {
  // resolveTarget opens the control store (for a saved target) even for the default one.
  const ctl = await testControlStore("published_ctl");
  const target = await testDatabase("published_fit");
  const saved = { url: process.env.TARGET_DATABASE_URL, embedded: process.env.TARGET_IS_EMBEDDED };
  process.env.TARGET_DATABASE_URL = target.url;
  process.env.TARGET_IS_EMBEDDED = "1";
  try {
    const fit = async (q = "") =>
      getFit(new Request(`http://127.0.0.1/api/references/${PUBLISHED.id}/fit${q}`), { params: Promise.resolve({ id: PUBLISHED.id }) });
    const ok = await fit();
    assert.equal(ok.status, 200);
    const body = (await ok.json()) as { reference: string; warnings: { severity: string; text: string }[] };
    assert.equal(body.reference, PUBLISHED.id);
    assert.deepEqual(body.warnings, [], "3 writers for 30 s fit any server");
    // Edited to more connections than the server allows: the blocker names the field, as for Kozlovski's.
    const edited = await fit(`?config=${encodeURIComponent(JSON.stringify({ kind: "echoes", writers: 500, durationSeconds: 900 }))}`);
    const w = ((await edited.json()) as { warnings: { severity: string; field?: string; text: string }[] }).warnings;
    assert.equal(w.find((x) => x.severity === "blocker")?.field, "readers");
    assert.match(w.find((x) => x.severity === "blocker")?.text ?? "", /502 connections/);
    assert.ok(w.some((x) => x.field === "durationSeconds"));
  } finally {
    await prisma().$disconnect();
    // Assigning undefined would store the string "undefined".
    for (const [k, v] of [
      ["TARGET_DATABASE_URL", saved.url],
      ["TARGET_IS_EMBEDDED", saved.embedded],
    ] as const)
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    await target.drop();
    await ctl.drop();
  }
});
