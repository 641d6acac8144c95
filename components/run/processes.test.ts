// A run carried by two runner processes, as every surface shows it: the run page's Processes table and live view,
// the CLI's summary lines and compare's load generator, from a merged summary of two real pub/sub runs on the test
// target (lib/measurement/merge-summaries.ts, as runner/merge-parts.test.ts builds it). A run of one process shows none.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { encodeHistogram, newHistogram, recordMicros } from "@/lib/measurement/histogram";
import { mergeSummaries } from "@/lib/measurement/merge-summaries";
import { partsView, worstWhy, type PartRow } from "@/lib/measurement/part-view";
import { mergeSamples, type PartSample } from "@/lib/measurement/parts";
import type { Sample } from "@/lib/measurement/sample";
import type { RunSummary } from "@/lib/measurement/summary";
import { configCellsOf, configRows, loadGeneratorCell } from "@/lib/compare/rows";
import { testDatabase } from "@/lib/testing";
import { WorkloadConfig } from "@/lib/workloads/config";
import { runWorkload } from "@/runner/engine";
import { summaryText } from "@/runner/format";
import { LiveProcesses, ProcessesTable } from "./ProcessesTable";
import { RunResult } from "./RunResult";

let db: { url: string; drop: () => Promise<void> };
let one: RunSummary;
let merged: RunSummary;
const config = WorkloadConfig.parse({
  kind: "pubsub",
  writers: 2,
  partitions: 2,
  consumerGroups: 1,
  writeBatch: 10,
  readBatch: 50,
  durationSeconds: 1,
  warmupSeconds: 0,
  throttleWritesPerSec: 400,
});
before(async () => {
  db = await testDatabase("processes_view");
  const [a, b] = await Promise.all([runWorkload(config, db.url, { drainSeconds: 3 }), runWorkload(config, db.url, { drainSeconds: 3 })]);
  one = a;
  const part = (i: number, summary: RunSummary) => ({
    runId: "two",
    part: i,
    parts: 2,
    host: ["alpha", "beta"][i],
    pid: 4000 + i,
    startSkewMs: 3 * i,
    clockOffsetMs: 0.25 * i,
    // Part 1 on another host: its clock's drift by the end is shown beside its offset.
    ...(i === 1 ? { clockDriftMs: 4.5 } : {}),
    summary,
  });
  merged = mergeSummaries([part(0, a), part(1, b)], { config: { ...config, processes: 2 } });
});
after(async () => {
  await db.drop();
});

const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

test("the run page's Processes table: a row per part with host, pid, skew, clock, rates in the workload's words, CPU and loop delay; the worst marked and why", () => {
  const v = partsView(merged)!;
  assert.deepEqual(
    v.rows.map((r) => [r.part, r.host, r.pid, r.startSkewMs, r.clockOffsetMs]),
    [
      [0, "alpha", 4000, 0, 0],
      [1, "beta", 4001, 3, 0.25],
    ],
  );
  const worst = merged.manifest.worstPart;
  assert.ok(worst === 0 || worst === 1, "the merge named a worst part");
  const html = renderToStaticMarkup(createElement(RunResult, { summary: merged }));
  const table = html.match(/<section class="panel" data-testid="processes">(.*?)<\/section>/)?.[1];
  assert.ok(table, "the Processes table is on the page");
  const t = text(table);
  assert.match(t, /2 runner processes on alpha, beta/);
  assert.match(t, /part host pid start skew clock offset writes \(msg\/s\) reads \(msg\/s\) runner CPU \(of a core\) event-loop delay \(1% of the time\)/);
  for (const p of merged.manifest.parts!) {
    const row = text(table.match(new RegExp(`<tr data-testid="process-${p.part}"[^>]*>(.*?)</tr>`))![1]);
    const rate = (n: string) => Math.round(p.perSecond[n]).toLocaleString("en-US");
    assert.match(
      row,
      new RegExp(
        `^ ?${p.part}( worst)?( client-bound| its delay in the latencies)? ${p.host} ${p.pid} .* ${rate("write")}(\\.\\d)? ${rate("read")}(\\.\\d)? \\d+% `,
      ),
      row,
    );
    if (p.part === 1) assert.match(row, / \+0\.25\d* ms \(drift \+4\.50* ms\) /, row);
    else assert.doesNotMatch(row, /drift/, row);
  }
  assert.match(table, new RegExp(`<tr data-testid="process-${worst}" data-worst="true" class="worst">`));
  assert.match(t, new RegExp(`Worst part: ${worst}, (client-bound|waited longest for a CPU|highest event-loop delay|most CPU|loaded no less)`));
  // One process: no table, no empty panel.
  assert.equal(renderToStaticMarkup(createElement(ProcessesTable, { summary: one })), "");
  assert.doesNotMatch(renderToStaticMarkup(createElement(RunResult, { summary: one })), /data-testid="processes"/);
});

test("the CLI's summary: a line per part in the workload's words and the worst named; none for one process", () => {
  const out = summaryText(merged, "test target");
  assert.match(out, /^runner processes: 2 on hosts alpha, beta$/m);
  for (const p of merged.manifest.parts!)
    assert.match(
      out,
      new RegExp(
        `^  part ${p.part} \\(pid ${p.pid} on ${p.host}\\): writes [\\d,.]+ msg/s, reads [\\d,.]+ msg/s; runner CPU \\d+% of a core.*; start skew ${p.startSkewMs.toFixed(1)} ms, clock offset ${p.clockOffsetMs.toFixed(2)} ms${p.part === 1 ? " \\(drift \\+4\\.50 ms by the end\\)" : "(?! \\(drift)"}`,
        "m",
      ),
    );
  assert.match(out, new RegExp(`^  worst: part ${merged.manifest.worstPart}, \\S`, "m"));
  assert.doesNotMatch(summaryText(one, "test target"), /runner processes|part 0/);
});

test("compare: the Runner processes row and, per run, its hosts in the load generator", () => {
  assert.ok(configRows().some((r) => r.key === "processes" && r.label === "Runner processes"));
  assert.equal(configCellsOf("pubsub", merged.config as Record<string, unknown>, 1).processes, 2);
  assert.match(loadGeneratorCell(merged.manifest), /^2 runner processes on alpha, beta: \d+ cores, /);
  assert.match(loadGeneratorCell(one.manifest), /^runner on [^,]+: \d+ cores, /);
});

test("the worst part's reason is the first thing it stands out on, in worstPart's order", () => {
  const row = (part: number, r: Partial<PartRow>): PartRow => ({
    part,
    host: "h",
    pid: 1 + part,
    startSkewMs: 0,
    clockOffsetMs: 0,
    rates: [],
    cpuCores: 0.2,
    clientBound: false,
    worst: false,
    ...r,
  });
  assert.equal(worstWhy([row(0, {}), row(1, { clientBound: true })], 1), "client-bound (its own load distorted its latencies), the only part that was");
  const bound = { clientBound: true, exposedDelayMs: 70 };
  assert.equal(
    worstWhy([row(0, { ...bound, runQueueWaitMsPerSec: 739 }), row(1, { ...bound, exposedDelayMs: 43, runQueueWaitMsPerSec: 785 })], 1),
    "client-bound as others, and waited longest for a CPU (785.0 ms/s)",
  );
  assert.equal(worstWhy([row(0, { runQueueWaitMsPerSec: 5 }), row(1, { runQueueWaitMsPerSec: 140 })], 1), "waited longest for a CPU (140.0 ms/s)");
  assert.equal(worstWhy([row(0, { exposedDelayMs: 0.5 }), row(1, { exposedDelayMs: 12 })], 1), "highest event-loop delay (12.00 ms over 1% of the time)");
  assert.equal(worstWhy([row(0, {}), row(1, { cpuCores: 0.9 })], 1), "most CPU (90% of a core)");
  assert.equal(worstWhy([row(0, {})], null), null);
});

test("the live view: this second's rates, CPU and loop delay per part from the merged sample's processes; none for one process", () => {
  const h = newHistogram();
  recordMicros(h, 800, 5);
  const load = (cpuCores: number, max: number) => ({ loopDelayMs: { p50: 0.1, p99: max / 2, max }, cpuCores });
  const part = (i: number, writes: number, cpuCores: number): PartSample => ({
    runId: "live",
    part: i,
    parts: 2,
    phase: "measuring",
    elapsedSec: 4,
    intervalSec: 1,
    operations: { write: { count: writes, errors: 0, histograms: { fromSend: encodeHistogram(h) } } },
    measures: {},
    errors: [],
    runnerLoad: load(cpuCores, 3 + i),
    startSkewMs: i,
    clockOffsetMs: 0,
  });
  const metrics = mergeSamples([part(0, 300, 0.3), part(1, 500, 0.95)]);
  const sample = { seq: 4, phase: "measuring", metrics } as unknown as Sample;
  const t = text(renderToStaticMarkup(createElement(LiveProcesses, { sample, workload: "pubsub" })));
  assert.match(t, /Runner processes this second part writes \(msg\/s\) CPU \(of a core\) loop delay max/);
  assert.match(t, /0 300 30% 3(\.0+)? ms/);
  assert.match(t, new RegExp(`1${metrics.processes!.worst === 1 ? " worst" : ""} 500 95% 4(\\.0+)? ms`));
  const single = { ...sample, metrics: { ...metrics, processes: undefined } } as Sample;
  assert.equal(renderToStaticMarkup(createElement(LiveProcesses, { sample: single, workload: "pubsub" })), "");
});
