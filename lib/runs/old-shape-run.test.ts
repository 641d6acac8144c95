// Runs stored in older shapes still load, render from the declaration with the same names and numbers, export CSV
// and compare: those stored before workloads declared their metrics (fixtures/old-shape-runs.json: a pub/sub run
// with two consumer groups and a queue run, as main at 4caca9d stored them), and a run of each of the ten workloads
// in the schemaVersion 1 shape (fixtures/old-runs/<kind>.json), whose CLI summary, samples CSV and compare rows
// keep the numbers today's code printed from them before the declared operations (fixtures/old-runs/rendered/).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
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
import { groupsOf, latencyOf, throughputOf } from "../measurement/operations";
import { samplesToCsv } from "./samples-csv";
import { summaryText } from "../../runner/format";
import { buildComparison } from "../compare/compare";
import { fromRun } from "../compare/build";
import { workloadDefinitions } from "../workloads/config";
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

/** fixtures/old-runs: one schemaVersion 1 run of each workload, and what the code before the change rendered. */
interface OldRun {
  run: { id: string; workload: string; targetLabel: string; summary: unknown; [k: string]: unknown };
  samples: { seq: number; time: string; phase: string; metrics: unknown }[];
}
const OLD_RUNS = path.join(PROJECT_ROOT, "fixtures/old-runs");
/** The workloads there were when runs were stored in the old shape: one file each (a workload added since has
 *  no run of that shape to keep rendering, so it needs none). */
const kinds = readdirSync(OLD_RUNS)
  .filter((f) => f.endsWith(".json"))
  .map((f) => f.replace(/\.json$/, ""));
const oldRuns: Record<string, OldRun> = Object.fromEntries(kinds.map((k) => [k, JSON.parse(readFileSync(path.join(OLD_RUNS, `${k}.json`), "utf8"))]));
const rendered = (kind: string, what: string) => readFileSync(path.join(OLD_RUNS, "rendered", `${kind}.${what}`), "utf8");
/** The numbers of a text, in order ("1,196" → 1196; "0.985 ms" → 0.985). */
const numbersOf = (text: string) => [...text.matchAll(/-?\d[\d,]*(\.\d+)?/g)].map((m) => Number(m[0].replace(/,/g, "")));
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });

let ctl: Awaited<ReturnType<typeof testControlStore>>;
before(async () => {
  ctl = await testControlStore("old_shape");
  for (const { samples, ...run } of runs) {
    await prisma().run.create({ data: run as never });
    await prisma().sample.createMany({ data: samples.map((s) => ({ ...s, runId: run.id })) as never });
  }
  for (const { run, samples } of Object.values(oldRuns)) {
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
    assert.equal(answered.schemaVersion, 2, "converted to the declared operations when read");
    assert.deepEqual(answered, JSON.parse(JSON.stringify(stored)));
  }
});

test("the run page renders the old summary: the same headline, latency rows and per-group table as before", () => {
  const s = RunSummary.parse(pubsub.summary);
  const html = renderToStaticMarkup(createElement(RunResult, { summary: s }));
  const old = pubsub.summary as { writes: { msgPerSec: number }; reads: { msgPerSec: number } };
  assert.match(html, new RegExp(`data-testid="kpi-write">${fmtRate(old.writes.msgPerSec)}<`));
  assert.match(html, new RegExp(`data-testid="kpi-read">${fmtRate(old.reads.msgPerSec)}<`));
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
    const stored = r.samples.find((x) => x.seq === shown.seq)!.metrics as { writes: { msgPerSec: number } };
    assert.match(live, new RegExp(`data-testid="live-write-rate">${fmtRate(stored.writes.msgPerSec)}<`));
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
    assert.equal(col("write_count"), String(first.writes.count));
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
  const sums = runs.map((r) => r.summary as { writes: { msgPerSec: number }; reads: { msgPerSec: number } });
  assert.deepEqual(
    row("writePerSec").values,
    sums.map((s) => s.writes.msgPerSec),
  );
  assert.deepEqual(
    row("readPerSec").values,
    sums.map((s) => s.reads.msgPerSec),
  );
  assert.ok(
    row("e2e.p99").values.every((v: number | null) => typeof v === "number" && v > 0),
    "e2e p99 from the stored histograms",
  );
  const csv = await (await compareGET(new Request(`${url}&format=csv`))).text();
  assert.equal(csv.trim().split("\n").length, 3, "a header and one row per run");
});

// ---------- one old (schemaVersion 1) run of each of the ten workloads ----------

test("each of the ten workloads of the old shape has its fixture, and each converts to the declared operations only", () => {
  assert.equal(kinds.length, 10);
  for (const kind of kinds) {
    assert.ok(
      workloadDefinitions().some((d) => d.kind === kind),
      `fixtures/old-runs/${kind}.json: no workload ${kind} is registered`,
    );
    const s = RunSummary.parse(oldRuns[kind].run.summary);
    assert.equal(s.schemaVersion, 2, kind);
    const model = workloadDefinitions().find((d) => d.kind === kind)!.metrics;
    const declared = new Set([...model.operations.map((o) => o.name), ...(model.delivery ? [model.delivery.name] : [])]);
    for (const name of Object.keys(s.operations)) assert.ok(declared.has(name), `${kind}: "${name}" is not a declared operation`);
    for (const o of model.operations.filter((x) => x.rate)) assert.ok(s.operations[o.name], `${kind}: its rate operation "${o.name}" is kept`);
    // A workload without messages carries no broker counters (they were zeros) and no message words.
    if (!model.operations.some((o) => o.name === "write")) assert.equal(s.operations.write, undefined, kind);
  }
});

test("each old run's CLI summary prints the same numbers as before the change", () => {
  for (const kind of kinds) {
    const { run } = oldRuns[kind];
    const now = summaryText(RunSummary.parse(run.summary), run.targetLabel);
    // The whole-run line is the one that changed: it was "N written, M read; drain" for any workload declaring a
    // write or a read (DBOS inserts: "600 written, 0 read"), and now names each declared operation's total.
    const wholeRun = /^whole run .*$/m;
    // So did the verification line: it now names each of the workload's checks with its value (lost: 0, …).
    const verification = /^verification.*$/m;
    // And a line was added: whether the consumers kept up (runner/format.ts), from the same summary.
    const consumers = /^consumers: .*$/m;
    const strip = (t: string) => t.replace(wholeRun, "").replace(verification, "").replace(consumers, "");
    const checked = (run.summary as { verification: { checked: number } }).verification.checked;
    assert.match(now.match(verification)?.[0] ?? "", new RegExp(`^verification: OK: ${checked.toLocaleString("en-US")} `), kind);
    assert.deepEqual(numbersOf(strip(now)), numbersOf(strip(rendered(kind, "summary.txt"))), `${kind}:\n${now}`);
    const line = now.match(wholeRun)?.[0] ?? "";
    const totals = (run.summary as { totals: { writes: number; reads: number; operations?: Record<string, number> } }).totals;
    const model = workloadDefinitions().find((d) => d.kind === kind)!.metrics;
    for (const o of model.operations.filter((x) => x.rate)) {
      const n = o.name === "write" ? totals.writes : o.name === "read" ? totals.reads : totals.operations?.[o.name];
      assert.ok(n !== undefined && line.includes(`${n.toLocaleString("en-US")} `), `${kind}: ${o.name}'s whole-run count in ${line}`);
    }
    // Messages only where the workload has them (pub/sub, queue, and notify's notifications).
    const hasMessages = workloadDefinitions().find((d) => d.kind === kind)!.verifiedUnit === "message";
    if (!hasMessages) assert.doesNotMatch(now, /messages/, `${kind}: no message words`);
  }
});

test("each old run's samples CSV has the same rows and values as before (columns renamed from messages to count)", async () => {
  // Renamed columns: "<op>_messages" counts the operation's own items, "group_<g>_msg_s" is in the group's unit.
  const renamed = (name: string) => name.replace(/_messages$/, "_count").replace(/^(group_.+)_msg_s$/, "$1_");
  for (const kind of kinds) {
    const { run, samples } = oldRuns[kind];
    const before = rendered(kind, "samples.csv").trim().split("\n");
    const res = await csvGET(new Request(`http://x/api/runs/${run.id}/samples.csv`), ctx(run.id));
    assert.equal(res.status, 200, kind);
    const now = (await res.text()).trim().split("\n");
    assert.equal(now.length, before.length, `${kind}: one row per sample`);
    const [oldHeader, newHeader] = [before[0].split(","), now[0].split(",")];
    const newIndex = new Map(newHeader.map((h, i) => [h.replace(/^(group_.+)_[a-z]+_s$/, "$1_"), i]));
    for (let r = 1; r < before.length; r++) {
      const [o, n] = [before[r].split(","), now[r].split(",")];
      oldHeader.forEach((h, i) => {
        const j = newIndex.get(renamed(h));
        assert.ok(j !== undefined, `${kind}: column ${h} kept`);
        assert.equal(n[j], o[i], `${kind} row ${r} ${h}`);
      });
    }
    assert.equal(
      samplesToCsv(
        samples.map((x) => Sample.parse(x)),
        kind,
      ),
      await (await csvGET(new Request(`http://x/api/runs/${run.id}/samples.csv`), ctx(run.id))).text(),
    );
  }
});

test("each old run compares with the same rows and values as before, and all ten compare together", async () => {
  for (const kind of kinds) {
    const { run, samples } = oldRuns[kind];
    const rows = buildComparison([fromRun(run as never, samples)]).results;
    // Renamed keys: a count rate is "<op>PerSec" in the operation's own unit (it was "<op>MsgPerSec" for every unit).
    const before: { key: string; values: (number | null)[] }[] = JSON.parse(rendered(kind, "compare.json")).map((r: { key: string }) => ({
      ...r,
      key: r.key.replace(/MsgPerSec$/, "PerSec"),
    }));
    assert.deepEqual(
      rows.map((r) => r.key),
      before.map((r) => r.key),
      kind,
    );
    for (const [i, b] of before.entries())
      for (const [j, v] of b.values.entries()) {
        const n = rows[i].values[j];
        if (v === null || n === null) assert.equal(n, v, `${kind} ${b.key}`);
        else assert.ok(Math.abs(n - v) <= 1e-9 * Math.max(1, Math.abs(v)), `${kind} ${b.key}: ${n} vs ${v}`);
      }
  }
  const ids = kinds.map((k) => oldRuns[k].run.id).join(",");
  const res = await compareGET(new Request(`http://x/api/compare?ids=${ids}`));
  assert.equal(res.status, 200, await res.clone().text());
});

test("each old run's page renders: headline rates, latency table, live numbers and charts by the declared names", () => {
  for (const kind of kinds) {
    const { run, samples } = oldRuns[kind];
    const s = RunSummary.parse(run.summary);
    const html = renderToStaticMarkup(createElement(RunResult, { summary: s }));
    const model = workloadDefinitions().find((d) => d.kind === kind)!.metrics;
    for (const o of model.operations.filter((x) => x.rate))
      assert.match(html, new RegExp(`data-testid="kpi-${o.name}">${fmtRate(throughputOf(s, o.name)?.perSecond)}<`), `${kind}: ${o.name}`);
    for (const name of ["write", "e2e", "total", "workflow"]) {
      const l = latencyOf(s, name);
      if (l) assert.match(html, new RegExp(`>${l.count.toLocaleString("en-US")}<`), `${kind}: ${name} count in the latency table`);
    }
    const hasMessages = model.operations.some((o) => o.unit === "msg") || workloadDefinitions().find((d) => d.kind === kind)!.verifiedUnit === "message";
    if (!hasMessages) assert.doesNotMatch(html, /messages/, `${kind}: no message words on its page`);
    const parsed = samples.map((x) => Sample.parse(x));
    renderToStaticMarkup(createElement(LiveNumbers, { sample: parsed.at(-1), workload: kind }));
    const charts = renderToStaticMarkup(createElement(RunCharts, { samples: parsed, workload: kind, warmupSeconds: 1, totalSeconds: 3 }));
    assert.match(charts, /data-testid="chart-throughput"/, kind);
    assert.equal(groupsOf(s).length, kind === "pubsub" ? 2 : kind === "queue" || kind === "queued-workflows" ? 1 : 0, `${kind}: its consumer groups`);
  }
});
