// The sets' exported reports (issue 33): an A/B set's (its page's runs, order and figures with their intervals) and a
// ceiling search's (its answer, steps and both curves as SVG). Each holds its page's own markup, so its figures, and
// neither a script nor a URL that loads anything.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { parseSlo, type Slo } from "@/lib/ceiling/slo";
import type { CeilingStep } from "@/lib/ceiling/step";
import { judgeStep, type StepFacts } from "@/lib/ceiling/verdict";
import type { CeilingView } from "@/lib/ceiling/view";
import type { AbSlot } from "@/lib/compare/ab-order";
import { abStats, completedPairs } from "@/lib/compare/ab-stats";
import { encodeHistogram, newHistogram, percentilesOf, recordMicros } from "@/lib/measurement/histogram";
import type { RunSummary } from "@/lib/measurement/summary";
import type { RunView } from "@/lib/runs/view";
import { WorkloadConfig } from "@/lib/workloads/config";
import { StepsPanel } from "../ceiling/CeilingSections";
import { AbView } from "../run/AbView";
import { renderAbReport, renderCeilingReport } from "./render";

const meta = { exportedAt: "2026-11-29T03:00:00.000Z" };
const dropLinks = (html: string) => html.replace(/<a\b([^>]*?)\shref="[^"]*"/g, "<a$1");
const loadsNothing = (html: string) => {
  assert.doesNotMatch(html, /<script/i);
  assert.doesNotMatch(html, /https?:\/\//i);
  assert.doesNotMatch(html, /\s(src|href|srcset|action)=["']/i);
};

/** A cache run whose requests took `fast` ms (60 %) or `slow` ms (40 %), `count` of them in 10 s (as components/run/ab-view.test.ts). */
function run(id: string, variant: "baseline" | "modded", fast: number, slow: number, count: number) {
  const h = newHistogram();
  recordMicros(h, fast * 1000, 60);
  recordMicros(h, slow * 1000, 40);
  const config = WorkloadConfig.parse({ kind: "cache", variant, vus: 200, thinkMs: 111, durationSeconds: 10, warmupSeconds: 0 });
  const summary = {
    config,
    window: { measuredSeconds: 10, warmupSeconds: 0 },
    operations: { total: { count, perSecond: count / 10, errors: 0, latency: { fromSend: percentilesOf(h) } } },
    histograms: { total: { fromSend: encodeHistogram(h) } },
  } as unknown as RunSummary;
  const view = { id, workload: "cache", config, status: "completed", phase: "done", targetLabel: "embedded default", error: null } as unknown as RunView;
  return { view, summary };
}

test("an A/B set's report: its page's runs, order and figures with their intervals, no link", () => {
  const b = run("r_b", "baseline", 2, 19_218, 100);
  const m = run("r_m", "modded", 1.04, 1_040, 13_400);
  const slots: AbSlot[] = [
    { pair: 1, variant: "baseline", runId: "r_b" },
    { pair: 1, variant: "modded", runId: "r_m" },
  ];
  const { pairs } = completedPairs(slots, (id) => ({ status: "completed", summary: (id === "r_b" ? b : m).summary }));
  const stats = abStats(pairs);
  const data = { groupId: "ab_0123456789ab", slots, views: [b.view, m.view], stats };
  const html = renderAbReport(data, meta);
  const page = renderToStaticMarkup(createElement(AbView, { groupId: data.groupId, slots, initial: data.views, stats }));
  assert.ok(html.includes(dropLinks(page)), "the A/B page as rendered, its links dropped");
  assert.match(html, /<h1>Baseline and modded ab_0123456789ab<\/h1>/);
  assert.match(html, /data-testid="ab-order"/);
  assert.doesNotMatch(html, /data-testid="export-html"/, "no export button inside the export");
  loadsNothing(html);
});

const slo = (parseSlo("p99<50ms") as { ok: true; slo: Slo }).slo;
/** A step at `rate`, its e2e p99 30 ms (held) or 80 ms (too slow), judged by the real verdict. */
function step(rate: number, index: number, held: boolean): CeilingStep {
  const facts: StepFacts = {
    targetRate: rate,
    unit: "msg",
    achievedRate: held ? rate : rate * 0.8,
    measuredSeconds: 8,
    readRate: rate,
    fanOut: 1,
    backlog: null,
    backlogSlack: 2,
    writeBatch: 1,
    latency: { name: "e2e", label: "e2e", stats: { p50: 5, p90: 10, p95: 12, p99: held ? 30 : 80, p999: 90, max: 100, mean: 6, count: rate * 8 } },
    errors: { count: 0, messages: [] },
    client: { cpuCores: 0.3, eventLoopP99Ms: 2 },
  };
  const verdict = judgeStep(facts, slo);
  return {
    index,
    rate,
    sustained: verdict.sustained,
    verdict,
    achievedRate: facts.achievedRate,
    readRate: facts.readRate,
    measuredSeconds: 8,
    goal: facts.latency,
    latencyMs: {},
    client: facts.client,
    startedAt: "2026-11-28T08:00:00.000Z",
    endedAt: "2026-11-28T08:00:10.000Z",
  };
}

test("a ceiling search's report: its answer, its steps as the page shows them, both curves as SVG with a point a step", () => {
  const steps = [step(100, 0, true), step(200, 1, true), step(400, 2, true), step(800, 3, false)];
  const view: CeilingView = {
    id: "c_0123456789ab",
    workload: "queue",
    config: WorkloadConfig.parse({ kind: "queue", writers: 1, readers: 1, durationSeconds: 8, warmupSeconds: 1 }),
    targetId: null,
    targetLabel: "embedded",
    status: "completed",
    cancelRequested: false,
    settings: { slo: "p99<50ms", stepSeconds: 8, startRate: 100, maxRate: 1_000_000, precisionPercent: 10, maxSteps: 16 } as CeilingView["settings"],
    createdAt: "2026-11-28T08:00:00.000Z",
    startedAt: null,
    finishedAt: null,
    error: null,
    progress: null,
    labels: { name: null, notes: null, tags: [] },
    steps,
    result: { stop: "max-steps", ceiling: 400, bracket: { low: 400, high: 800 }, failedAbove: 3, confirmation: null },
  } as CeilingView;
  assert.ok(steps[2].sustained && !steps[3].sustained, "the verdict holds 400 and refuses 800");
  const html = renderCeilingReport({ view, others: [], command: "npm run bench -- ceiling queue --slo 'p99<50ms'" }, meta);
  assert.ok(html.includes(renderToStaticMarkup(createElement(StepsPanel, { steps, goalLabel: "e2e", perSec: "msg/s" }))), "the steps as the page shows them");
  const rate = html.match(/data-testid="report-chart-ceiling-rate"(.*?)<\/figure>/s)?.[1];
  assert.ok(rate, "the rate curve");
  assert.equal((rate.match(/class="dot-point"/g) ?? []).length, 4, "a point a step");
  assert.match(rate, />sustained</);
  assert.match(rate, />not sustained</);
  const latency = html.match(/data-testid="report-chart-ceiling-latency"(.*?)<\/figure>/s)?.[1];
  assert.ok(latency);
  assert.match(latency, />goal p99 50 ms</);
  assert.match(html, /npm run bench -- ceiling queue --slo &#x27;p99&lt;50ms&#x27;/);
  loadsNothing(html);
});
