// The comparison as CSV: one row per item, unrounded, with ratios to the baseline.
import { toCsvText } from "../csv";
import type { Comparison } from "./compare";
import { delta } from "./deltas";
import { configRows, ENV_ROWS, type ResultRow } from "./rows";
import { SUSTAINED_COLUMNS, type SustainedCell, sustainedCells } from "./sustained-table";

/** CSV: one row per item, every config field and metric as a column (unrounded), plus ratios to the baseline. */
export function toCsv(cmp: Comparison): string {
  const { items } = cmp;
  const header = ["key", "kind", "badge", "label", "baseline", ...configRows().map((r) => `config_${r.key}`), ...ENV_ROWS.map((r) => `env_${r.key}`)];
  for (const r of cmp.results) header.push(csvName(r));
  if (cmp.baseline >= 0) for (const r of cmp.results) header.push(`${csvName(r)}_ratio_vs_baseline`);
  // "Which sustained what", when shown: each run's cells unrounded (a rate in items/s, a latency in ms, kept up as
  // yes/no); empty for an item not in the table or a cell the run has no number for.
  const sustained = cmp.sustained ? new Map(cmp.sustained.rows.map((r) => [r.key, sustainedCells(r)])) : null;
  if (sustained) header.push(...SUSTAINED_COLUMNS.map((c) => `sustained_${c.key.replace(".", "_")}`));
  const rows = items.map((c, i) => {
    const row: (string | number | boolean | null)[] = [c.key, c.kind, c.badge, c.label, i === cmp.baseline];
    for (const r of configRows()) row.push(c.config[r.key] ?? null);
    for (const r of ENV_ROWS) row.push(c.env[r.key] ?? null);
    for (const r of cmp.results) row.push(r.values[i]);
    if (cmp.baseline >= 0) for (const r of cmp.results) row.push(delta(r.values[i], r.values[cmp.baseline], r.better)?.ratio ?? null);
    if (sustained) row.push(...SUSTAINED_COLUMNS.map((col) => csvCell(sustained.get(c.key)?.find((x) => x.key === col.key))));
    return row;
  });
  return toCsvText([header, ...rows]);
}

/** A sustained cell in CSV: its unrounded number, else its words ("yes", the settings), empty for a dash. */
const csvCell = (c: SustainedCell | undefined) => (c ? (c.value ?? (c.text === "—" ? null : c.text)) : null);

function csvName(r: ResultRow): string {
  if (r.group === "What the server did") return r.key;
  // "write_per_s" in the operation's own unit (its row's label says which: "Write row/s"), "write_mib_per_s".
  if (r.unit !== "ms") return r.key.replace(/MiBPerSec$/, "_mib_per_s").replace(/(?<!_mib_per_s)PerSec$/, "_per_s");
  const [m, p] = r.key.split(".");
  return `${m}_${p}_ms`;
}
