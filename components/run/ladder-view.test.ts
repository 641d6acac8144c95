// The synchronous commit ladder's page as rendered: a row per level with its latencies, throughput, SyncRep waits and
// what a commit waited for; each standby's lag per level, or plainly "No standbys"; the 2016 ladder with its version
// and caveats; the order the runs went in.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { LadderSlot } from "@/lib/ladder/order";
import { ladderStats } from "@/lib/ladder/stats";
import { ladderSummary } from "@/lib/ladder/testing";
import type { RunSummary } from "@/lib/measurement/summary";
import type { RunView } from "@/lib/runs/view";
import { LadderView } from "./LadderView";

const slots: LadderSlot[] = [
  { round: 1, level: "off", runId: "r_off" },
  { round: 1, level: "remote_apply", runId: "r_ra" },
];
const view = (id: string) =>
  ({ id, workload: "pubsub", status: "completed", phase: "done", targetLabel: "embedded replicated", error: null }) as unknown as RunView;
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&apos;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ");
const render = (runs: Record<string, RunSummary>) =>
  renderToStaticMarkup(
    createElement(LadderView, {
      groupId: "sc_0123456789ab",
      labels: { name: "WAL ladder", notes: null, tags: ["pg18"] },
      slots,
      initial: slots.map((s) => view(s.runId)),
      stats: ladderStats(slots, (id) => ({ status: "completed", summary: runs[id] })),
    }),
  );
const rowCells = (html: string, level: string) => {
  const row = html.match(new RegExp(`<tr data-testid="ladder-row-${level}">(.*?)</tr>`))![1];
  return [...row.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((m) => text(m[1]).trim());
};

test("with standbys: a row per level, each standby's lag, the 2016 ladder labelled with its version and caveats", () => {
  const html = render({
    r_off: ladderSummary("off", [0.5, 0.5], [2, 2], 2000, { share: 0, replayP50: 0.1, replayMax: 1 }),
    r_ra: ladderSummary("remote_apply", [4, 6], [9, 11], 1000, { share: 0.6, replayP50: 0.4, replayMax: 3 }),
  });
  const page = text(html);
  assert.match(page, /in the balanced order off → remote_apply, so no level always runs first/);
  // Its name and tags head the page (components/run/SetLabels.tsx).
  assert.match(html, /data-testid="set-name"[^>]*>WAL ladder</);
  assert.match(html, /data-testid="tag"[^>]*>pg18</);
  assert.deepEqual(rowCells(html, "remote_apply"), [
    "remote_apply",
    "1",
    "4.00 ms",
    "6.00 ms",
    "9.01 ms", // the HDR histogram's bucket of 9 ms
    "11.0 ms",
    "100",
    "60 %",
    "local WAL flush + standby apply",
    "0.50 / 0.49",
    "3,055 TPS (remote_apply, synchronous replica)",
  ]);
  assert.match(
    text(html.match(/<tr data-testid="ladder-lag-remote_apply">(.*?)<\/tr>/)![1]),
    /pg2 \(sync\): replay p50 0\.40 ms, max 3\.00 ms .*pg3 \(potential\)/,
  );
  assert.match(html, /data-testid="ladder-charts"/);
  const ref = text(html.match(/<div data-testid="ladder-reference">(.*)<\/div>/)![1]);
  assert.match(ref, /The 2016 ladder: pgbench on PostgreSQL 9\.6 \(Cybertec, 2016\)/);
  assert.match(ref, /transactions per second only: no latencies were published/);
  assert.match(ref, /hardware not stated/);
});

test("without standbys the page says so plainly, and what the remote levels waited for", () => {
  const html = render({ r_off: ladderSummary("off", [0.5], [2], 2000), r_ra: ladderSummary("remote_apply", [1], [3], 1900) });
  assert.match(text(html), /No standbys : the target had none, so remote_write, on and remote_apply waited for the local WAL flush only/);
  assert.deepEqual(rowCells(html, "remote_apply").slice(7, 9), ["no standbys", "local WAL flush"]);
});
