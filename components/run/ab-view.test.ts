// The baseline-and-modded page as rendered: every figure with thousands separators and its unit (a latency over a
// second in seconds), a change beyond ±50 % as a factor (× larger, ÷ smaller), and the think time described as the code derives it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { AbSlot } from "@/lib/compare/ab-order";
import { abStats, completedPairs } from "@/lib/compare/ab-stats";
import { encodeHistogram, newHistogram, percentilesOf, recordMicros } from "@/lib/measurement/histogram";
import type { RunSummary } from "@/lib/measurement/summary";
import type { RunView } from "@/lib/runs/view";
import { WorkloadConfig } from "@/lib/workloads/config";
import { AbView } from "./AbView";

/** A run of the article's cache shape whose requests took `fast` ms (60 %) or `slow` ms (40 %), `count` of them in 10 s. */
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

const b = run("r_b", "baseline", 2, 19_218, 100);
const m = run("r_m", "modded", 1.04, 1_040, 13_400);
const slots: AbSlot[] = [
  { pair: 1, variant: "baseline", runId: "r_b" },
  { pair: 1, variant: "modded", runId: "r_m" },
];
const { pairs } = completedPairs(slots, (id) => ({ status: "completed", summary: (id === "r_b" ? b : m).summary }));
const render = () => renderToStaticMarkup(createElement(AbView, { groupId: null, slots, initial: [b.view, m.view], stats: abStats(pairs) }));
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&apos;/g, "'")
    .replace(/\s+/g, " ");
const rowCells = (html: string, key: string) => {
  const row = html.match(new RegExp(`<tr data-testid="ab-row-${key}">(.*?)</tr>`))![1];
  return [...row.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((m) => text(m[1]).trim());
};

test("one pair: no interval, and the page says a difference cannot be told from noise", () => {
  const html = render();
  assert.deepEqual(rowCells(html, "p50").slice(4), ["—", "no interval (one pair)"]);
  assert.match(text(html), /One pair: no interval, so a difference cannot be told from noise/);
  assert.match(text(html), /balanced order AB \(A baseline, B modded\)/);
});

test("the A/B table: thousands separators, latencies with their unit (seconds from a second on), big changes as a factor", () => {
  const html = render();
  assert.deepEqual(rowCells(html, "p95").slice(0, 4), ["p95", "19.2 s", "1.04 s", "÷18.5"]);
  assert.deepEqual(rowCells(html, "avg").slice(0, 4), ["average", "7.69 s", "417 ms", "÷18.4"]);
  assert.deepEqual(rowCells(html, "p50").slice(0, 4), ["p50", "2.00 ms", "1.04 ms", "−48.0 %"]);
  assert.deepEqual(rowCells(html, "rate").slice(0, 4), ["requests/s", "10", "1,340", "×134 the requests/s"]);
  // The published pair's figures, in the same voice (the article's 1,754 → 1,760 requests/s).
  const published = html.match(/<div data-testid="ab-published">(.*?)<\/div>/)![1];
  assert.match(text(published), /requests\/s 1,754 1,760 \+0\.3 %/);
  assert.match(text(published), /one run each, with no spread, so its deltas may be noise too/);
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
