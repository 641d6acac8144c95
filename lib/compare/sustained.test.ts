// "Which sustained what" from recorded runs: the article's queue (fixtures/client-bound-run.json, 200 msg/s, and
// fixtures/old-runs/queue.json, 500 msg/s), pg-boss and graphile-worker at 200 jobs/s (fixtures/runs/) and a
// closed-loop jobqueue run (fixtures/old-runs/jobqueue.json): every cell is the stored run's own number, a missing
// one says why, and runs offered different rates are flagged.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { SustainedTable } from "../../components/compare/SustainedTable";
import { decodeHistogram } from "../measurement/histogram";
import { histogramOf, latencyOf, throughputOf } from "../measurement/operations";
import { RunSummary } from "../measurement/summary";
import { PROJECT_ROOT } from "../paths";
import { fromRun } from "./build";
import { buildComparison } from "./compare";
import { toCsv } from "./export-csv";
import { toJson } from "./export-json";
import { toMarkdown } from "./export-markdown";
import { toTextTable } from "./export-text";
import { NOT_SAME_RATE, sustainedCells, sustainedTable } from "./sustained-table";

interface Recorded {
  run: { id: string; summary: unknown; status: string; createdAt: string; targetLabel: string };
  samples: never[];
}
const recorded = (file: string): Recorded => JSON.parse(readFileSync(path.join(PROJECT_ROOT, "fixtures", file), "utf8"));
const QUEUE_200 = recorded("client-bound-run.json");
const QUEUE_500 = recorded("old-runs/queue.json");
const PG_BOSS = recorded("runs/pg-boss.json");
const GRAPHILE = recorded("runs/graphile-worker.json");
const JOBQUEUE = recorded("old-runs/jobqueue.json");
const PUBSUB = recorded("old-runs/pubsub.json");

const item = (r: Recorded) => fromRun(r.run, r.samples);
const summaryOf = (r: Recorded) => RunSummary.parse(r.run.summary);
const table = (...runs: Recorded[]) => {
  const t = sustainedTable(runs.map(item));
  assert.ok(t, "a table for runs of different queue-like workloads");
  return t;
};
const rowOf = (t: ReturnType<typeof table>, r: Recorded) => t.rows.find((x) => x.key === r.run.id)!;

test("the article's queue, pg-boss and graphile-worker at 200 items/s: one row each, the stored numbers, no rate flag", () => {
  const t = table(QUEUE_200, PG_BOSS, GRAPHILE);
  assert.deepEqual(
    t.rows.map((r) => r.workload),
    ["queue", "pg-boss", "graphile-worker"],
  );
  assert.equal(t.notSameRate, null);
  for (const r of [QUEUE_200, PG_BOSS, GRAPHILE]) {
    const s = summaryOf(r);
    const row = rowOf(t, r);
    assert.equal(row.offered.value, 200);
    assert.equal(row.consumed.value, throughputOf(s, "read")?.perSecond);
  }
  // The libraries' latencies from the scheduled enqueue are their merged start and e2e histograms' percentiles.
  for (const r of [PG_BOSS, GRAPHILE]) {
    const s = summaryOf(r);
    const row = rowOf(t, r);
    for (const [col, metric] of [
      ["start", "start"],
      ["done", "e2e"],
    ] as const) {
      const stored = latencyOf(s, metric)!;
      assert.deepEqual(row[col].value, { p50: stored.p50, p99: stored.p99, p999: stored.p999 });
      const h = decodeHistogram(histogramOf(s.histograms, metric)!);
      assert.equal(row[col].value?.p99, h.getValueAtPercentile(99) / 1000, `${r.run.id} ${col} p99 is the merged histogram's`);
    }
  }
  // The queue's is its delivery from the write's schedule; it has no start of its own, and says so.
  const q = rowOf(t, QUEUE_200);
  const e2eScheduled = latencyOf(summaryOf(QUEUE_200), "e2eScheduled")!;
  assert.deepEqual(q.done.value, { p50: e2eScheduled.p50, p99: e2eScheduled.p99, p999: e2eScheduled.p999 });
  assert.equal(q.start.value, null);
  assert.match(q.start.why, /no handler apart from its dequeue/);
  assert.match(q.offered.why, /write throttle/);
  assert.match(rowOf(t, PG_BOSS).offered.why, /open loop's timetable/);
});

test("kept up: consumed at least 95% of the offer (the verdict's 'met'), with the shares in its title", () => {
  const t = table(QUEUE_200, PG_BOSS, GRAPHILE);
  const q = rowOf(t, QUEUE_200);
  assert.equal(q.keptUp.value, true);
  // pg-boss's recorded 2 s run consumed 120 of its 200 jobs/s.
  const boss = rowOf(t, PG_BOSS);
  assert.equal(boss.keptUp.value, false);
  assert.match(boss.keptUp.why, /^consumed 120 of 200 job\/s offered: 60%, below the 95% the verdict calls met/);
  const cells = sustainedCells(boss);
  assert.equal(cells.find((c) => c.key === "keptUp")?.text, "no");
  assert.equal(cells.find((c) => c.key === "consumed")?.text, "120 job/s");
  assert.equal(cells.find((c) => c.key === "done.p99")?.text, "1.27 s");
});

test("runs offered different rates are flagged, each rate named; a closed loop offers none and says why", () => {
  const t = table(QUEUE_500, PG_BOSS, JOBQUEUE);
  assert.ok(t.notSameRate?.startsWith(NOT_SAME_RATE));
  assert.match(t.notSameRate!, /queue 2w\/2r: 500 msg\/s; .*pg-boss 200\/s: 200 job\/s; .*jobqueue .*: none offered/);
  const jq = rowOf(t, JOBQUEUE);
  assert.equal(jq.offered.value, null);
  assert.match(jq.offered.why, /closed loop/);
  assert.equal(jq.keptUp.value, null);
  assert.equal(jq.consumed.value, throughputOf(summaryOf(JOBQUEUE), "dequeue")?.perSecond);
  for (const c of sustainedCells(jq).filter((c) => c.key.startsWith("start") || c.key.startsWith("done"))) {
    assert.equal(c.text, "—");
    assert.ok(c.title.length > 20, `${c.key} says why it is empty`);
  }
});

test("a drain run offers no rate: its offer and its kept-up say so", () => {
  const drained = structuredClone(PG_BOSS);
  (drained.run.summary as { config: { mode: string } }).config.mode = "drain";
  const row = rowOf(table(QUEUE_200, drained), drained);
  assert.equal(row.offered.value, null);
  assert.match(row.offered.why, /^drain mode/);
  assert.equal(row.keptUp.value, null);
});

test("no table for runs of one workload or a single queue-like run; other items are named as left out", () => {
  assert.equal(sustainedTable([item(QUEUE_200), item(QUEUE_500)]), null);
  assert.equal(sustainedTable([item(QUEUE_200), item(PUBSUB)]), null);
  assert.equal(item(PUBSUB).queue, undefined);
  const t = table(QUEUE_200, PG_BOSS, PUBSUB);
  assert.equal(t.rows.length, 2);
  assert.deepEqual(t.leftOut, [item(PUBSUB).label]);
});

test("the page, the Markdown, the CLI's text and the JSON carry the table and its flag", () => {
  const cmp = buildComparison([QUEUE_500, PG_BOSS, GRAPHILE].map(item));
  const html = renderToStaticMarkup(createElement(SustainedTable, { table: cmp.sustained! }));
  assert.match(html, /Which sustained what/);
  assert.match(html, /data-testid="not-same-rate"[^>]*>not at the same offered rate/);
  assert.match(html, new RegExp(`data-testid="sustained-start.p50-${QUEUE_500.run.id}"[^>]*>—<`));
  assert.match(html, /title="the article&#x27;s queue has no handler/);
  const md = toMarkdown(cmp);
  assert.match(md, /## Which sustained what\n\n\| Run \| Workload and settings \| Offered \| Consumed \| Kept up \|/);
  assert.match(md, /\| fixture-pg-boss · pg-boss 200\/s \| pg-boss: .* \| 200 job\/s \| 120 job\/s \| no \| 1\.18 s \|/);
  assert.match(md, /- not at the same offered rate: compare at one rate/);
  const text = toTextTable(cmp);
  assert.match(text, /^Which sustained what:\nRun /);
  assert.match(text, /\n {2}not at the same offered rate/);
  assert.equal(toJson(cmp).sustained?.rows.length, 3);
  // The CSV: each run's cells unrounded, under sustained_* columns.
  const fields = (line: string) => line.match(/("([^"]|"")*"|[^,]*)(,|$)/g)!.map((c) => c.replace(/,$/, ""));
  const [head, ...rows] = toCsv(cmp).trim().split("\n").map(fields);
  const boss = rows.find((r) => r[0] === PG_BOSS.run.id)!;
  assert.equal(Number(boss[head.indexOf("sustained_done_p99")]), latencyOf(summaryOf(PG_BOSS), "e2e")!.p99);
  assert.equal(boss[head.indexOf("sustained_keptUp")], "no");
});

test("jobqueue on an open loop offers requests of both kinds: kept up judges the requests served, and the rate flag says so", () => {
  const open = structuredClone(JOBQUEUE);
  const summary = open.run.summary as { config: Record<string, unknown> };
  summary.config = { ...summary.config, load: "rate", rate: 500 };
  const t = table(QUEUE_500, open);
  const jq = rowOf(t, open);
  assert.deepEqual([jq.offered.value, jq.offered.unit, jq.offered.enqueue], [500, "req/s", false]);
  const served = throughputOf(summaryOf(open), "total")!.perSecond;
  assert.equal(jq.keptUp.value, served / 500 >= 0.95);
  assert.match(jq.keptUp.why, /^requests of both kinds \(enqueue and dequeue\) served [\d,]+ of 500 req\/s offered/);
  // 500 msg/s beside 500 req/s is not one offered rate of enqueues.
  assert.match(t.notSameRate!, /jobqueue .*: 500 req\/s \(requests of both kinds, not enqueues\)/);
});
