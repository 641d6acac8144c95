// The finished run's page as rendered, for a run whose latencies reach seconds: the latency table, the KPI and the
// manifest read "16.2 s", never "16,244.735" under an "(ms)" caption. A recorded run (fixtures/client-bound-run.json)
// with a stalled end-to-end tail.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { RunSummary } from "@/lib/measurement/summary";
import { PROJECT_ROOT } from "@/lib/paths";
import { ManifestPanel, RunResult } from "./RunResult";

const recorded = RunSummary.parse(JSON.parse(readFileSync(path.join(PROJECT_ROOT, "fixtures/client-bound-run.json"), "utf8")).run.summary);
const summary: RunSummary = {
  ...recorded,
  operations: {
    ...recorded.operations,
    e2e: {
      ...recorded.operations.e2e!,
      latency: { fromSend: { p50: 1.581, p90: 2_400.5, p95: 9_994, p99: 16_244.735, p999: 59_900, max: 125_000, mean: 1_204.4, count: 12_345 } },
    },
  },
  runnerLoad: { ...recorded.runnerLoad!, loopDelayMs: { p50: 0.002, p99: 147.155, max: 2_148.597 } },
};
const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

test("the run page: multi-second latencies in seconds, each cell with its unit, no (ms) header over them", () => {
  const html = renderToStaticMarkup(createElement(RunResult, { summary }));
  const table = html.match(/<table class="data" data-testid="latency-table">(.*?)<\/table>/)![1];
  const row = table.match(/<tr><th scope="row"[^>]*>end-to-end<\/th>(.*?)<\/tr>/)![1];
  assert.deepEqual(
    [...row.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((m) => m[1]),
    ["1.581 ms", "2.4 s", "9.99 s", "16.2 s", "59.9 s", "125 s", "1.2 s", "12,345"],
  );
  assert.doesNotMatch(table, /\(ms\)/);
  assert.match(text(html), /Caution: these latencies include up to 2\.15 s of the runner/);
  const manifest = text(renderToStaticMarkup(createElement(ManifestPanel, { summary })));
  assert.match(manifest, /event-loop delay p50 0\.002 ms · p99 147\.155 ms · max 2\.15 s/);
  for (const t of [text(html), manifest]) assert.doesNotMatch(t, /\d,?\d{3}(\.\d+)? ms|16,24\d/, "never 2148.597 ms nor 16,244.735 ms");
});
