// Runs stored before workloads declared their metrics (fixtures/old-shape-runs.json: a pub/sub run with two
// consumer groups and a queue run, the Run and Sample rows exactly as main at 4caca9d stored them) still load,
// render from the declaration with the same names and numbers, export CSV and compare.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { GET as compareGET } from "../../app/api/compare/route";
import { GET as runGET } from "../../app/api/runs/[id]/route";
import { GET as csvGET } from "../../app/api/runs/[id]/samples.csv/route";
import { RunCharts } from "../../components/charts/RunCharts";
import { LiveNumbers } from "../../components/run/LiveNumbers";
import { RunResult } from "../../components/run/RunResult";
import { prisma } from "../db";
import { PROJECT_ROOT } from "../paths";
import { fmtRate } from "./format";
import { Sample } from "../measurement/sample";
import { RunSummary } from "../measurement/summary";
import { testControlStore } from "../testing";

interface StoredRun {
  id: string;
  workload: string;
  summary: unknown;
  samples: { seq: number; time: string; phase: string; metrics: unknown }[];
  [k: string]: unknown;
}
const runs: StoredRun[] = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "fixtures/old-shape-runs.json"), "utf8")).runs;
const [pubsub, queue] = runs;
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });

let ctl: Awaited<ReturnType<typeof testControlStore>>;
before(async () => {
  ctl = await testControlStore("old_shape");
  for (const { samples, ...run } of runs) {
    await prisma().run.create({ data: run as never });
    await prisma().sample.createMany({ data: samples.map((s) => ({ ...s, runId: run.id })) as never });
  }
});
after(async () => {
  await prisma().$disconnect();
  await ctl.drop();
});

test("GET /api/runs/:id answers an old run with its summary, read into today's shape", async () => {
  for (const r of runs) {
    const res = await runGET(new Request(`http://x/api/runs/${r.id}`), ctx(r.id));
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.status, "completed");
    // What is stored, converted when read (an old verification gets its unit and facts: ../measurement/verification.ts).
    const { histograms: _h, ...stored } = JSON.parse(JSON.stringify(RunSummary.parse(r.summary))) as Record<string, unknown>;
    assert.equal((stored.verification as { unit: string }).unit, "message");
    const { histograms: _h2, ...answered } = body.summary;
    assert.deepEqual(answered, stored);
    RunSummary.parse(r.summary);
  }
});

test("the run page renders the old summary: the same headline, latency rows and per-group table as before", () => {
  const s = RunSummary.parse(pubsub.summary);
  const html = renderToStaticMarkup(createElement(RunResult, { summary: s }));
  assert.match(html, new RegExp(`data-testid="kpi-write">${fmtRate(s.writes.msgPerSec)}<`));
  assert.match(html, new RegExp(`data-testid="kpi-read">${fmtRate(s.reads.msgPerSec)}<`));
  assert.match(html, />read \(all groups\)</);
  assert.match(html, />end-to-end p99</);
  const rows = [...html.matchAll(/<th scope="row" class="nowrap"[^>]*>([^<]+)</g)].map((m) => m[1]);
  assert.deepEqual(rows, ["write", "write from schedule", "read", "claim", "end-to-end"]);
  assert.match(html, /Per consumer group/);
  assert.match(html, /<th scope="row">g0<\/th>.*<th scope="row">g1<\/th>/);
});

test("the live numbers and the charts render old samples by the declared names", () => {
  for (const r of runs) {
    const samples = r.samples.map((x) => Sample.parse(x));
    // A measured second (the last, a drain's, has no writes and so no latencies).
    const shown = samples.findLast((x) => x.phase === "measuring")!;
    const live = renderToStaticMarkup(createElement(LiveNumbers, { sample: shown, workload: r.workload }));
    for (const id of ["live-write-rate", "live-read-rate", "live-backlog", "live-lat-write", "live-lat-e2e"])
      assert.match(live, new RegExp(`data-testid="${id}"`), `${r.workload}: ${id}`);
    assert.match(live, new RegExp(`data-testid="live-write-rate">${fmtRate(shown.metrics.writes.msgPerSec)}<`));
    const charts = renderToStaticMarkup(createElement(RunCharts, { samples, workload: r.workload, warmupSeconds: 1, totalSeconds: 4 }));
    for (const id of ["chart-throughput", "chart-latency-write", "chart-latency-read", "chart-latency-e2e", "chart-backlog"])
      assert.match(charts, new RegExp(`data-testid="${id}"`), `${r.workload}: ${id}`);
  }
});

test("samples.csv of an old run has today's columns and one row per stored sample", async () => {
  for (const r of runs) {
    const res = await csvGET(new Request(`http://x/api/runs/${r.id}/samples.csv`), ctx(r.id));
    assert.equal(res.status, 200);
    const [header, ...rows] = (await res.text())
      .trim()
      .split("\n")
      .map((l) => l.split(","));
    assert.equal(rows.length, r.samples.length);
    const first = r.samples[0].metrics as { writes: { count: number }; reads: { emptyPolls: number }; latencyMs: { e2e?: { count: number } } };
    const col = (name: string) => rows[0][header.indexOf(name)];
    assert.equal(col("write_messages"), String(first.writes.count));
    assert.equal(col("empty_polls"), String(first.reads.emptyPolls));
    assert.equal(col("e2e_latency_count"), first.latencyMs.e2e ? String(first.latencyMs.e2e.count) : "");
  }
});

test("the two old runs compare: rates and percentiles from their stored summaries and histograms", async () => {
  const url = `http://x/api/compare?ids=${pubsub.id},${queue.id}`;
  const res = await compareGET(new Request(url));
  assert.equal(res.status, 200, await res.clone().text());
  const body = await res.json();
  const row = (key: string) => body.results.find((r: { key: string }) => r.key === key);
  const sums = runs.map((r) => RunSummary.parse(r.summary));
  assert.deepEqual(
    row("writeMsgPerSec").values,
    sums.map((s) => s.writes.msgPerSec),
  );
  assert.deepEqual(
    row("readMsgPerSec").values,
    sums.map((s) => s.reads.msgPerSec),
  );
  assert.ok(
    row("e2e.p99").values.every((v: number | null) => typeof v === "number" && v > 0),
    "e2e p99 from the stored histograms",
  );
  const csv = await (await compareGET(new Request(`${url}&format=csv`))).text();
  assert.equal(csv.trim().split("\n").length, 3, "a header and one row per run");
});
