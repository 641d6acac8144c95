// Verification in the workload's own unit: stored runs of the old, broker-shaped verification (lost, duplicated,
// out of order, counts match) read as today's shape, in their workload's unit, on the run page and in the CLI text;
// today's shape passes through unchanged.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { Kpis, VerificationPanel } from "../../components/run/RunResult";
import { summaryText } from "../../runner/format";
import { PROJECT_ROOT } from "../paths";
import { RunSummary } from "./summary";
import { factOf, Verification } from "./verification";
import { unitWords } from "../words";

const stored = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "fixtures/old-shape-runs.json"), "utf8")).runs as {
  workload: string;
  summary: Record<string, unknown>;
}[];
const oldPubsub = stored[0].summary;
const panel = (s: RunSummary) => renderToStaticMarkup(createElement(VerificationPanel, { v: s.verification }));

test("an old pub/sub run's verification reads as messages checked, its broker fields as facts", () => {
  const s = RunSummary.parse(oldPubsub);
  assert.deepEqual(s.verification, {
    ok: true,
    checked: 8020,
    unit: "message",
    problems: [],
    facts: [
      { name: "lost", value: 0, ok: true },
      { name: "duplicated", value: 0, ok: true },
      { name: "out of order", value: 0, ok: true },
      { name: "runner counts match the target's rows", value: true, ok: true },
    ],
  });
  assert.match(
    panel(s),
    /Verification passed\.<\/strong> 8,020 messages checked · lost: 0 · duplicated: 0 · out of order: 0 · runner counts match the target&#x27;s rows: yes/,
  );
  assert.match(renderToStaticMarkup(createElement(Kpis, { summary: s })), />8,020 messages checked</);
  assert.match(summaryText(s, "embedded default"), /^verification: OK: 8,020 messages checked · lost: 0/m);
});

test("an old run of a workload without messages (inserts) reads in its declared unit: rows checked", () => {
  const config = { kind: "inserts", rate: 500, connections: 4, batchSize: 10, durationSeconds: 2, warmupSeconds: 0 };
  const s = RunSummary.parse({ ...oldPubsub, workload: "inserts", config });
  assert.equal(s.verification.unit, "row");
  // Its stored zeros for the broker's words are not facts of an insert run; the count match is.
  assert.deepEqual(s.verification.facts, [{ name: "runner counts match the target's rows", value: true, ok: true }]);
  for (const shown of [panel(s), renderToStaticMarkup(createElement(Kpis, { summary: s })), summaryText(s, "embedded default")]) {
    assert.match(shown, /\b8,020 rows checked/);
    assert.doesNotMatch(shown, /messages? checked|out of order/);
  }
});

test("an old failed verification keeps its findings: the failing facts say so", () => {
  const v = { ok: false, lost: 5, duplicated: 0, outOfOrder: 0, checked: 100, countsMatch: false, problems: ["5 message(s) lost in group g0 partition 2"] };
  const s = RunSummary.parse({ ...oldPubsub, verification: v });
  assert.equal(factOf(s.verification, "lost"), 5);
  assert.deepEqual(
    s.verification.facts.filter((f) => !f.ok).map((f) => f.name),
    ["lost", "runner counts match the target's rows"],
  );
  const html = panel(s);
  assert.match(html, /data-ok="false"/);
  assert.match(html, /100 messages checked · lost: 5 · .*rows: NO/);
  assert.match(html, /<li>5 message\(s\) lost in group g0 partition 2<\/li>/);
});

test("today's shape passes through unchanged, and a stored one without a unit it cannot place says what is wrong", () => {
  const v = { ok: true, checked: 3, unit: "workflow", problems: [], facts: [{ name: "not final", value: 0, ok: true }] };
  assert.deepEqual(Verification.parse(v), v);
  assert.deepEqual(RunSummary.parse({ ...oldPubsub, verification: v }).verification, v);
  const bad = Verification.safeParse({ ok: true, checked: 3, problems: [], facts: [] });
  assert.equal(bad.success, false);
  assert.deepEqual(
    bad.error?.issues.map((i) => i.path.join(".")),
    ["unit"],
  );
});

test("units read in the plural except for one item", () => {
  assert.deepEqual(
    ["message", "row", "query", "batch", "workflow"].map((u) => unitWords(u, 2)),
    ["messages", "rows", "queries", "batches", "workflows"],
  );
  assert.equal(unitWords("row", 1), "row");
});
