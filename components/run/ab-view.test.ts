// The baseline-and-modded page as rendered: every figure with thousands separators and its unit (a latency over a
// second in seconds), a change beyond +100 % as a factor, and the think time described as the code derives it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { RunSummary } from "@/lib/measurement/summary";
import type { RunView } from "@/lib/runs/view";
import { WorkloadConfig } from "@/lib/workloads/config";
import { AbView } from "./AbView";

const summary = (p50: number, p95: number, mean: number, rate: number) =>
  ({
    operations: {
      total: { count: 1, perSecond: rate, errors: 0, latency: { fromSend: { p50, p95, mean, p90: 0, p99: 0, p999: 0, max: 0, count: 1 } } },
    },
  }) as unknown as RunSummary;

function view(id: string, variant: "baseline" | "modded", s: RunSummary): RunView {
  // The article's cache shape (200 VUs, its think time): the published pair is shown beside ours.
  const config = WorkloadConfig.parse({ kind: "cache", variant, vus: 200, thinkMs: 111, durationSeconds: 10, warmupSeconds: 0 });
  return { id, workload: "cache", config, status: "completed", phase: "done", targetLabel: "embedded default", summary: s, error: null } as unknown as RunView;
}

const render = () =>
  renderToStaticMarkup(
    createElement(AbView, {
      initial: { baseline: view("r_b", "baseline", summary(2, 19_218, 4_000.5, 10)), modded: view("r_m", "modded", summary(1.04, 1_040, 3.5, 1_340)) },
    }),
  );
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&apos;/g, "'")
    .replace(/\s+/g, " ");
const rowCells = (html: string, key: string) => {
  const row = html.match(new RegExp(`<tr data-testid="ab-row-${key}">(.*?)</tr>`))![1];
  return [...row.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((m) => text(m[1]).trim());
};

test("the A/B table: thousands separators, latencies with their unit (seconds from a second on), big changes as a factor", () => {
  const html = render();
  assert.deepEqual(rowCells(html, "p95").slice(0, 4), ["p95", "19.2 s", "1.04 s", "−94.6 %"]);
  assert.deepEqual(rowCells(html, "avg").slice(0, 4), ["average", "4 s", "3.50 ms", "−99.9 %"]);
  assert.deepEqual(rowCells(html, "p50").slice(0, 4), ["p50", "2.00 ms", "1.04 ms", "−48.0 %"]);
  assert.deepEqual(rowCells(html, "rate").slice(0, 4), ["requests/s", "10", "1,340", "134× the requests/s"]);
  // The published pair's figures, in the same voice (the article's 1,754 → 1,760 requests/s).
  assert.deepEqual(rowCells(html, "rate").slice(4), ["1,754", "1,760", "+0.3 %"]);
  // No figure of four digits or more without its separator, no latency in thousands of milliseconds.
  const table = text(html.match(/<table class="data" data-testid="ab-table">(.*?)<\/table>/)![1]);
  assert.doesNotMatch(table, /\d{4}/);
  assert.doesNotMatch(table, /\d,\d{3}(\.\d+)? ms/);
});

test("the think time is described as the code derives it: from the published figures, not tuned to this machine", () => {
  const page = text(render());
  assert.match(
    page,
    /think time is derived \(ours\) from its published figures: the iteration time \(VUs ÷ requests\/s\) less the modded run's average latency/,
  );
  assert.match(page, /not tuned to this machine/);
  assert.doesNotMatch(page, /calibrated/);
});
