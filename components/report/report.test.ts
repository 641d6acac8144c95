// A run's exported report (issue 33), rendered from recorded runs (fixtures/client-bound-run.json: a queue run without
// telemetry; fixtures/runs/graphile-worker.json: one with it): one HTML document that holds the charts as SVG with their
// lines drawn from the samples, the verdict, the page's own tables with the page's own figures, the manifest and the
// command; no script, no URL that loads anything, and a policy that forbids loading.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { isRateSample, type Sample } from "@/lib/measurement/sample";
import { PROJECT_ROOT } from "@/lib/paths";
import { REPORT_PHASE_COLOURS } from "@/lib/report/charts";
import { type RunView, toRunView, toSample } from "@/lib/runs/view";
import { PHASE_COLOURS } from "../charts/PhaseBands";
import { ManifestPanel, RunResult } from "../run/RunResult";
import { fromReference, fromRun } from "@/lib/compare/build";
import { rateOf } from "@/lib/compare/comparable";
import { buildComparison } from "@/lib/compare/compare";
import { referenceById } from "@/lib/references/references";
import { ResultsTable } from "../compare/ResultsTable";
import { renderCompareReport, renderRunReport } from "./render";
import { niceTicks } from "./SvgChart";

type Raw = Record<string, unknown> & { createdAt: string; startedAt: string | null; finishedAt: string | null };

function recorded(file: string): { run: RunView; samples: Sample[] } {
  const d = JSON.parse(readFileSync(path.join(PROJECT_ROOT, file), "utf8"));
  const raw: Raw = d.run;
  const rawSamples: { seq: number; time: string; phase: string; metrics: unknown }[] = d.samples ?? d.run.samples;
  const date = (s: string | null) => (s ? new Date(s) : null);
  const run = toRunView({ ...raw, createdAt: new Date(raw.createdAt), startedAt: date(raw.startedAt), finishedAt: date(raw.finishedAt) } as never, {
    withSummary: true,
  });
  const samples = rawSamples.map((s) => toSample({ ...s, time: new Date(s.time) })).filter((s): s is Sample => s !== null);
  assert.equal(samples.length, rawSamples.length, `every sample of ${file} parses`);
  return { run, samples };
}

const meta = { exportedAt: "2026-11-29T03:00:00.000Z" };
const chart = (html: string, id: string) => html.match(new RegExp(`<figure[^>]*data-testid="report-chart-${id}"[^>]*>(.*?)</figure>`, "s"))?.[1];

test("a run's report: one document, its charts as SVG with lines from every sample, the page's own tables and figures", () => {
  const { run, samples } = recorded("fixtures/client-bound-run.json");
  const html = renderRunReport({ run, samples, command: "npm run bench -- queue -writers 1" }, meta);
  assert.match(html, /^<!DOCTYPE html>\n<html lang="en">/);
  const throughput = chart(html, "throughput");
  assert.ok(throughput, "a throughput chart");
  assert.match(throughput, /<svg[^>]*data-series="write\|read"/);
  // One point per rate sample on each line: the lines are the samples, not a placeholder.
  const rates = samples.filter((s) => isRateSample(s.metrics)).length;
  assert.deepEqual(
    [...throughput.matchAll(/data-points="(\d+)"/g)].map((m) => Number(m[1])),
    [rates, rates],
  );
  assert.match(throughput, /<path d="M[\d.]+,[\d.]+(L[\d.]+,[\d.]+){2,}"/, "a drawn line");
  assert.match(throughput, />0s</, "a time axis in seconds");
  assert.match(throughput, />warm-up</, "the warm-up shaded and named");
  for (const id of ["latency-write", "latency-read", "latency-e2e", "backlog"]) assert.ok(chart(html, id), `a ${id} chart`);
  // The verdict, the headline, the latency table and the manifest: the run page's own markup, so the page's figures.
  const page = renderToStaticMarkup(createElement(RunResult, { summary: run.summary! }));
  assert.ok(html.includes(page), "the run page's result (verdict, headline, verification, tables) as the page renders it");
  assert.ok(html.includes(renderToStaticMarkup(createElement(ManifestPanel, { summary: run.summary! }))), "the manifest as the page renders it");
  assert.match(html, /data-testid="verdict"/);
  assert.match(html, /npm run bench -- queue -writers 1/);
  assert.match(html, /created 2026-\d\d-\d\d \d\d:\d\d UTC/);
});

test("a run with telemetry: the server's charts; a failed run says so; no script and nothing that loads", () => {
  const { run, samples } = recorded("fixtures/runs/graphile-worker.json");
  assert.ok(run.summary?.telemetry, "the fixture has telemetry");
  const failed = { ...run, status: "failed" as const, error: "verification failed: 3 jobs lost" };
  const html = renderRunReport({ run: failed, samples, command: null }, meta);
  for (const id of ["waits", "wal", "commits", "dead-tuples", "cpu"]) assert.ok(chart(html, id), `a ${id} chart`);
  assert.match(html, /This run failed\.<\/strong> verification failed: 3 jobs lost/);
  assert.doesNotMatch(html, /<script/i);
  assert.doesNotMatch(html, /https?:\/\//i, "no http(s) URL at all");
  assert.doesNotMatch(html, /\s(src|href|srcset|action|poster|data)=["']/i, "no attribute that loads or navigates");
  assert.doesNotMatch(html, /url\(|@import/i, "no stylesheet fetch");
  assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src &#x27;none&#x27;;/);
});

test("a run without samples or summary still renders, saying what it lacks", () => {
  const { run } = recorded("fixtures/client-bound-run.json");
  const html = renderRunReport({ run: { ...run, status: "cancelled", summary: null, error: "cancelled on request" }, samples: [], command: null }, meta);
  assert.match(html, /This run recorded no samples\./);
  assert.match(html, /This run has no summary/);
  assert.match(html, /was cancelled\.<\/strong> cancelled on request/);
});

test("the axis ticks: rounded steps of 1, 2 or 5 from 0 past the largest value", () => {
  assert.deepEqual(niceTicks(0, 237), [0, 50, 100, 150, 200, 250]);
  assert.deepEqual(niceTicks(0, 4.655), [0, 1, 2, 3, 4, 5]);
  assert.deepEqual(niceTicks(0, 0.012), [0, 0.005, 0.01, 0.015]);
  assert.deepEqual(niceTicks(0, 0), [0, 1], "an empty chart still has an axis");
  assert.deepEqual(PHASE_COLOURS, REPORT_PHASE_COLOURS, "the report's phase colours are the page's");
});

test("a comparison's report: the compare page's results and config tables as rendered there, bars of the same figures, no link", () => {
  const { run, samples } = recorded("fixtures/client-bound-run.json");
  const d = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "fixtures/client-bound-run.json"), "utf8")).run;
  const row = { ...d, createdAt: new Date(d.createdAt), startedAt: new Date(d.startedAt), finishedAt: new Date(d.finishedAt) };
  const items = [
    fromRun(
      row,
      samples.map((s) => ({ ...s, runId: run.id })),
    ),
    fromReference(referenceById("queue-4vcpu-single-node")!),
  ];
  const cmp = buildComparison(items, run.id);
  const html = renderCompareReport(cmp, meta);
  const page = renderToStaticMarkup(createElement(ResultsTable, { cmp, onBaseline: () => undefined })).replace(/<a\b([^>]*?)\shref="[^"]*"/g, "<a$1");
  assert.ok(html.includes(page), "the results table as the compare page renders it (its links dropped)");
  assert.match(html, /data-testid="config-table"/);
  const bars = chart(html, "throughput-bars");
  assert.ok(bars);
  // Each item's bar carries the figure the results table shows for it.
  const writeRun = rateOf(items[0], "write", "items")!;
  const writeRef = rateOf(items[1], "write", "items")!;
  assert.match(bars, new RegExp(`data-item="${items[0].label}" data-value="${writeRun}"`));
  assert.match(bars, new RegExp(`data-item="${items[1].label.replace(/[()]/g, "\\$&")}" data-value="${writeRef}"`));
  assert.ok(chart(html, "latency-bars-e2e"), "the end-to-end percentiles' bars");
  // Over time: the run's points (its samples, lib/compare/over-time.ts), the reference has none.
  const overTime = chart(html, "over-time-rates");
  assert.ok(overTime, "the throughput over time");
  const points = items[0].overTime.filter((p) => p.rates.write !== null).length;
  assert.ok(points > 2);
  assert.match(overTime, new RegExp(`data-points="${points}"`), "the run's write line, a point a second");
  assert.ok(chart(html, "over-time-latency"));
  assert.doesNotMatch(html, /<script|https?:\/\/|\shref=/i);
});
