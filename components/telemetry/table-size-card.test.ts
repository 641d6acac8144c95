// The run page's table-size card as rendered: the run's tables' and indexes' bytes over the run with the autovacuum
// runs counted in its hint; a run recorded before sizes were read (its readings have tables but no bytes) shows no
// card, as old runs rendered.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { XAxis } from "recharts";
import type { TelemetrySample } from "@/lib/telemetry/shape";
import { replicatedReading } from "@/lib/telemetry/testing";
import { TableSizeCard } from "./TableSizeCard";

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ");
/** Readings at t = 1, 2, … s, the tables' row given by `tables(i)`. */
const frameOf = (n: number, tables: (i: number) => TelemetrySample["tables"]) => ({
  points: Array.from({ length: n }, (_, i) => ({ t: i + 1, telemetry: { ...replicatedReading(i, undefined), tables: tables(i) } })),
  rows: [],
  xAxis: createElement(XAxis, { dataKey: "t", type: "number" }),
  shading: () => null,
});
const row = (i: number) => ({ liveTuples: 100, deadTuples: 50 * i, autovacuumRuns: i === 2 || i === 4 ? 1 : 0, autoanalyzeRuns: 0 });

test("table and index bytes over the run, the autovacuum runs counted in its hint", () => {
  const html = text(
    renderToStaticMarkup(createElement(TableSizeCard, { frame: frameOf(5, (i) => ({ ...row(i), tableBytes: 65_536 * (i + 1), indexBytes: 16_384 })) })),
  );
  assert.match(html, /The run's tables' size table and index bytes \(pg_table_size, pg_indexes_size\); 2 autovacuum runs of these tables over the run, marked/);
});

test("readings without sizes (runs recorded before them): no card", () => {
  assert.equal(renderToStaticMarkup(createElement(TableSizeCard, { frame: frameOf(3, row) })), "");
  assert.equal(renderToStaticMarkup(createElement(TableSizeCard, { frame: frameOf(3, () => undefined) })), "");
});
