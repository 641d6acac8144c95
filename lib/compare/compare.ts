// The comparison, shared by /compare, GET /api/compare and `npm run bench -- compare`: the items (lib/compare/
// comparable.ts), their config and environment diffs and result rows (rows.ts), and what makes it unfair (notes.ts).
// Deltas are in deltas.ts, the words and numbers in format.ts, the exports in export-*.ts, the URL in view-state.ts.
// Pure and browser-safe (no Node APIs, no database): the builders live in lib/compare/build.ts.
import type { Comparable } from "./comparable";
import { type ContextNote, contextNotes } from "./notes";
import { configDiff, type DiffRow, envDiff, type ResultRow, resultRows } from "./rows";
import { type SustainedTable, sustainedTable } from "./sustained-table";

export interface Comparison {
  items: Comparable[];
  /** Index into items, or -1 for none. */
  baseline: number;
  config: DiffRow[];
  env: DiffRow[];
  results: ResultRow[];
  notes: ContextNote[];
  /** "Which sustained what", when runs of different queue-like workloads are compared; else null. */
  sustained: SustainedTable | null;
}

export function buildComparison(items: Comparable[], baselineKey?: string | null): Comparison {
  const b = baselineKey ? items.findIndex((i) => i.key === baselineKey) : -1;
  return {
    items,
    baseline: b >= 0 ? b : items.length ? 0 : -1,
    config: configDiff(items),
    env: envDiff(items),
    results: resultRows(items),
    notes: contextNotes(items),
    sustained: sustainedTable(items),
  };
}
