// Every surface takes its words and units from the declaration (issue #21): for a run of EVERY registered workload
// (its schemaVersion 1 fixture, converted when read), the run page, the CLI summary, compare (its rows and the
// CSV, JSON, Markdown and text exports) and a ceiling search on that workload (its page, the CLI's step and result
// lines, the verdict's messages) say the workload's own unit, and no message words unless it declares messages.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { CeilingPage } from "../components/ceiling/CeilingPage";
import { RunCharts } from "../components/charts/RunCharts";
import { ResultsTable } from "../components/compare/ResultsTable";
import { RunResult } from "../components/run/RunResult";
import { resultLines, stepLine } from "../runner/ceiling/format";
import { summaryText } from "../runner/format";
import { goalMetric, stepFacts } from "./ceiling/facts";
import { searchUnit } from "./ceiling/rate";
import { parseCeilingSettings, sloOf } from "./ceiling/settings";
import type { CeilingStep } from "./ceiling/step";
import { judgeStep } from "./ceiling/verdict";
import { type CeilingView, searchKnobs } from "./ceiling/view";
import { fromRun } from "./compare/build";
import { buildComparison } from "./compare/compare";
import { toCsv } from "./compare/export-csv";
import { toJson } from "./compare/export-json";
import { toMarkdown } from "./compare/export-markdown";
import { toTextTable } from "./compare/export-text";
import { latenciesOf } from "./measurement/operations";
import { Sample } from "./measurement/sample";
import { RunSummary } from "./measurement/summary";
import { PROJECT_ROOT } from "./paths";
import { workloadDefinitions } from "./workloads/config";
import { isMessageUnit, plural, unitWords } from "./words";

interface OldRun {
  run: { id: string; workload: string; targetLabel: string; summary: unknown; createdAt: string; [k: string]: unknown };
  samples: { seq: number; time: string; phase: string; metrics: unknown }[];
}
/** A workload's old run (fixtures/old-runs), or for a workload newer than those its run in today's shape
 *  (fixtures/runs). Its notes are left out: they are the text the run stored when it ran (an old queued-workflows
 *  run's "25 msg/s each"; mixed's notify part's "published message(s)"), kept as stored, not words rendered now. */
function fixture(kind: string): OldRun {
  const old = path.join(PROJECT_ROOT, "fixtures/old-runs", `${kind}.json`);
  const file = existsSync(old) ? old : path.join(PROJECT_ROOT, "fixtures/runs", `${kind}.json`);
  const f: OldRun = JSON.parse(readFileSync(file, "utf8"));
  return { ...f, run: { ...f.run, summary: { ...(f.run.summary as object), notes: [] } } };
}

/** Message words in any spelling a surface has used: "msg/s", "msgs", "message(s)", "Msg". */
const MESSAGE_WORDS = /\bmsgs?\b|msg\/s|\bmessages?\b|_msg_|Msg(?=PerSec)/i;
/** A workload declares messages when its verified unit or one of its operations counts them (pub/sub, queue, notify). */
const hasMessages = (d: ReturnType<typeof workloadDefinitions>[number]) =>
  isMessageUnit(d.verifiedUnit) || d.metrics.operations.some((o) => isMessageUnit(o.unit));

/** Fails naming the surface and the first message word in context. */
function noMessageWords(kind: string, surface: string, text: string) {
  const m = MESSAGE_WORDS.exec(text);
  assert.ok(!m, `${kind} ${surface} says "${m?.[0]}": …${m ? text.slice(Math.max(0, m.index - 80), m.index + 40) : ""}…`);
}

/** Two steps of a search on the run's config, judged by the real verdict from the run's summary: one at the rate
 *  it achieved (its ceiling) and one at ten times that, which falls short (the next step, failed). */
function searchOf(kind: string, run: OldRun["run"], samples: Sample[]): { view: CeilingView; steps: CeilingStep[]; unit: string } {
  const summary = RunSummary.parse(run.summary);
  const settings = parseCeilingSettings({ slo: "p99<10s", stepSeconds: 10, startRate: 10, maxRate: 1_000_000 }, kind);
  assert.ok(settings.ok, `${kind}: ${JSON.stringify(settings)}`);
  const metric = goalMetric(kind);
  assert.ok(metric.ok, kind);
  const slo = sloOf(settings.settings);
  const step = (index: number, rate: number): CeilingStep => {
    const facts = stepFacts(summary, samples, rate, metric.metric, null);
    const verdict = judgeStep(facts, slo);
    return {
      index,
      rate,
      sustained: verdict.sustained,
      verdict,
      achievedRate: facts.achievedRate,
      readRate: facts.readRate,
      measuredSeconds: facts.measuredSeconds,
      goal: facts.latency,
      latencyMs: latenciesOf(summary),
      client: null,
      startedAt: run.createdAt,
      endedAt: run.createdAt,
    };
  };
  const achieved = Math.max(1, Math.floor(stepFacts(summary, samples, 1, metric.metric, null).achievedRate));
  const steps = [step(0, achieved), step(1, achieved * 10)];
  assert.ok(!steps[1].sustained, `${kind}: ten times the achieved rate is not sustained`);
  const view: CeilingView = {
    id: `cs_${kind}`,
    workload: kind,
    labels: { name: null, notes: null, tags: [] },
    config: summary.config,
    settings: settings.settings,
    targetId: null,
    targetLabel: run.targetLabel,
    status: "completed",
    cancelRequested: false,
    createdAt: run.createdAt,
    startedAt: run.createdAt,
    finishedAt: run.createdAt,
    error: null,
    progress: null,
    result: { stop: "converged", ceiling: achieved, bracket: { low: achieved, high: achieved * 10 }, failedAbove: 1, confirmation: null },
    steps,
  };
  return { view, steps, unit: searchUnit(kind, summary.config) };
}

test("unit words have one home: messages, requests, queries and batches; one stays singular", () => {
  assert.equal(unitWords("msg"), "messages");
  assert.equal(unitWords("msg", 1), "message");
  assert.equal(unitWords("req", 3), "requests");
  assert.equal(unitWords("message", 2), "messages");
  assert.equal(unitWords("query", 2), "queries");
  assert.equal(unitWords("batch", 2), "batches");
  assert.equal(unitWords("row", 1), "row");
  assert.equal(plural("rows returned"), "rows returned");
  assert.equal(plural("search"), "searches");
});

for (const d of workloadDefinitions()) {
  const kind = d.kind;
  test(`${kind}: every surface says its own unit${hasMessages(d) ? "" : ", never message words"}`, () => {
    const { run, samples: stored } = fixture(kind);
    const samples = stored.map((s) => Sample.parse(s));
    const summary = RunSummary.parse(run.summary);
    const { view, steps, unit } = searchOf(kind, run, samples);
    const perSec = `${unit}/s`;
    // The paced unit is one the workload declares for an operation ("row" for inserts, "req" for cache).
    assert.ok(
      d.metrics.operations.some((o) => o.unit === unit),
      `${kind}: paced unit ${unit} is declared`,
    );

    const cmp = buildComparison([fromRun(run as never, stored)]);
    const surfaces: Record<string, string> = {
      "run page": renderToStaticMarkup(createElement(RunResult, { summary })),
      "run charts": renderToStaticMarkup(createElement(RunCharts, { samples, workload: kind, warmupSeconds: 1, totalSeconds: 4 })),
      "CLI summary": summaryText(summary, run.targetLabel),
      "compare rows": JSON.stringify(cmp.results.map((r) => ({ key: r.key, label: r.label, unit: r.unit, effects: r.effects }))),
      "compare notes": JSON.stringify(cmp.notes ?? []),
      "compare table": renderToStaticMarkup(createElement(ResultsTable, { cmp, onBaseline: () => undefined })),
      "compare CSV": toCsv(cmp),
      "compare JSON": JSON.stringify(toJson(cmp)),
      "compare Markdown": toMarkdown(cmp),
      "compare text": toTextTable(cmp),
      "ceiling page": renderToStaticMarkup(createElement(CeilingPage, { initial: view, others: [], command: "" })),
      "ceiling CLI": [
        ...steps.map((s) => stepLine(s, unit)),
        ...resultLines(
          { steps, stop: "converged", ceiling: steps[0].rate, bracket: view.result!.bracket, failedAbove: steps[1] },
          sloOf(view.settings),
          "goal",
          unit,
        ),
      ].join("\n"),
      "ceiling verdict": steps[1].verdict.failures.map((f) => f.message).join("; "),
    };
    // Its own unit where rates are shown: the headline's rate, the ceiling's rates and the verdict's shortfall.
    assert.match(surfaces["ceiling page"], new RegExp(`data-testid="ceiling-value">[^<]*${perSec.replace("/", "\\/")}`), `${kind}: ceiling in ${perSec}`);
    for (const s of ["ceiling page", "ceiling CLI", "ceiling verdict", "compare rows", "compare Markdown"])
      assert.ok(
        surfaces[s].includes(perSec) || (s.startsWith("compare") && !cmp.results.some((r) => r.label.includes(perSec))),
        `${kind} ${s}: says ${perSec}`,
      );
    assert.ok(
      cmp.results.some((r) => r.label.endsWith(`/s`) && d.metrics.operations.some((o) => o.rate && r.label.endsWith(` ${o.unit}/s`))),
      `${kind}: compare labels a rate in its declared unit`,
    );
    // The search's config in words leaves out the rate each step sets, in whatever unit the workload paces it.
    assert.doesNotMatch(searchKnobs(summary.config), /\d [a-z]+\/s\b/, `${kind}: ${searchKnobs(summary.config)}`);
    if (hasMessages(d)) return;
    for (const [surface, text] of Object.entries(surfaces)) noMessageWords(kind, surface, text);
  });
}

test("compare across workloads names each unit: a write row in msg/s · row/s, each item's summary rate in its own", () => {
  const runs = ["pubsub", "inserts", "queued-workflows"].map(fixture);
  const cmp = buildComparison(runs.map((f) => fromRun(f.run as never, f.samples)));
  assert.equal(cmp.results.find((r) => r.key === "writePerSec")?.label, "Write msg/s · row/s · workflow/s");
  const md = toMarkdown(cmp);
  const line = (id: string) => md.split("\n").find((l) => l.startsWith(`| ${id}`)) ?? "";
  assert.match(line(runs[1].run.id), / row\/s \/ /);
  assert.doesNotMatch(line(runs[1].run.id), /msg/);
  assert.match(line(runs[2].run.id), / workflow\/s \/ .* workflow\/s \/ /);
  // Config rows are named by the compared workloads: queued workflows' rate is not pub/sub's "Write throttle (msg/s)".
  const only = buildComparison([fromRun(runs[2].run as never, runs[2].samples)]);
  assert.equal(only.config.find((r) => r.key === "throttleWritesPerSec")?.label, "Target rate (per s)");
});
