// The results table as rendered: a known effect on a reference's figures (its start-up burst, its rate divisor, its
// tail without warm-up) is said once under the table, with the rows it moves, and each cell it moves names it
// briefly with its number; it used to repeat its whole text in every cell of the four rows it moves.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { fromImport, fromReference } from "@/lib/compare/build";
import { buildComparison } from "@/lib/compare/compare";
import { parseToolOutput } from "@/lib/imports/parse";
import { TOOL_OUTPUT_DIR } from "@/lib/paths";
import { referenceById } from "@/lib/references/references";
import { ResultsTable } from "./ResultsTable";

const PUBSUB_OUT = readFileSync(path.join(TOOL_OUTPUT_DIR, "pubsub-4vcpu-preset-30s.txt"), "utf8");
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&apos;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");

test("a known effect's text appears once, under the table; the cells it moves name it with its number", () => {
  const ref = fromReference(referenceById("pubsub-4vcpu-single-node")!);
  const imp = fromImport({ id: "imp_x", label: "kinds paste", createdAt: new Date(), parsed: parseToolOutput(PUBSUB_OUT) });
  const cmp = buildComparison([ref, imp], "imp_x");
  const html = renderToStaticMarkup(createElement(ResultsTable, { cmp, onBaseline: () => undefined }));
  const page = text(html);
  const burst = "start-up burst: the tool's throttle lets one second of writes (5,000) out at t=0";
  assert.equal(page.split(burst).length - 1, 1, "the burst's whole text once");
  // Said once with the rows it moves: write and read, msg/s and MiB/s.
  const notes = text(html.match(/<ol data-testid="effects-notes">(.*?)<\/ol>/)![1]);
  assert.match(notes, /Published: pub\/sub · 4 vCPU single node: start-up burst: .*\(Write msg\/s, Write MiB\/s, Read msg\/s, Read MiB\/s\)/);
  const n = Number(html.match(/<li id="effect-(\d+)" value="\d+" data-testid="effect-note-\d+">Published: pub\/sub · 4 vCPU single node: start-up burst/)![1]);
  // Each of the four cells names it and links to it.
  for (const row of ["writePerSec", "writeMiBPerSec", "readPerSec", "readMiBPerSec"]) {
    const cell = html.match(new RegExp(`<ul class="effects" data-testid="effects-${row}-ref:pubsub-4vcpu-single-node">(.*?)</ul>`))![1];
    assert.match(text(cell), new RegExp(`start-up burst \\[${n}\\]`), row);
    assert.ok(cell.includes(`href="#effect-${n}"`), row);
    // The baseline's own divisor beside a delta it moves (the import has no MiB/s, so those cells have no delta).
    if (!row.includes("MiB")) assert.match(text(cell), /baseline: rate divisor \[\d+\]/, row);
  }
  // The import's divisor and the reference's are two notes (two items), each once.
  assert.equal(page.split("rate divisor: totals are divided by the configured 120 s").length - 1, 1);
  assert.equal(page.split("rate divisor: totals are divided by the configured 30 s").length - 1, 1);
});
