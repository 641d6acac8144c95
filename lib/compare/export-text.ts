// The comparison as a plain-text table for the CLI (`npm run bench -- compare`).
import type { Comparison } from "./compare";
import { delta } from "./deltas";
import { fmtAnnotated, fmtDelta, fmtValue } from "./format";
import { effectLines } from "./effects";
import { type ContextNote, TOP_NOTES } from "./notes";
import { sustainedGrid } from "./sustained-table";

/** Plain-text table for the CLI: the same results table as the page, with Δ against the baseline. */
export function toTextTable(cmp: Comparison): string {
  const { items } = cmp;
  const head = ["metric", ...items.map((c, i) => `${c.label} [${c.badge}]${i === cmp.baseline ? " (baseline)" : ""}`)];
  const body: string[][] = [];
  for (const r of cmp.results) {
    if (r.values.every((v) => v === null)) continue;
    body.push([
      r.label,
      ...r.values.map((v, i) => {
        const s = fmtValue(v, r.unit);
        if (cmp.baseline < 0 || i === cmp.baseline || v === null) return s;
        const d = delta(v, r.values[cmp.baseline], r.better);
        return d ? `${s} (${fmtDelta(d)})` : s;
      }),
    ]);
  }
  const cfg = [...cmp.config, ...cmp.env].filter((r) => r.differs).map((r) => [`≠ ${r.label}`, ...r.values.map((v, i) => fmtAnnotated(v, r.annotations[i]))]);
  const { fmt, rule } = layout(head, [head, ...body, ...(cfg.length ? [head.map(() => ""), ...cfg] : [])]);
  const out = [...sustainedText(cmp), fmt(head), rule, ...body.map(fmt)];
  if (cfg.length) out.push("", "Config and environment that differ:", ...cfg.map(fmt));
  // Ranked, most telling first; the rest under their own heading (a terminal cannot fold them).
  const note = (n: ContextNote) => `  ${n.severity === "warn" ? "!" : "-"} ${n.text}`;
  if (cmp.notes.length) out.push("", "What makes this comparison unfair (most telling first):", ...cmp.notes.slice(0, TOP_NOTES).map(note));
  if (cmp.notes.length > TOP_NOTES)
    out.push("", `${cmp.notes.length - TOP_NOTES} more, less likely to change the reading:`, ...cmp.notes.slice(TOP_NOTES).map(note));
  const effects = effectLines(cmp);
  if (effects.length) out.push("", "Known effects beside the deltas:", ...effects.map((e) => `  ! ${e}`));
  return `${out.join("\n")}\n`;
}

/** Columns as wide as their head, and as their cells up to 48 characters (longer cells are cut with "…"); the first
 *  left-aligned, the others right-aligned. */
function layout(head: string[], all: string[][]): { fmt: (r: string[]) => string; rule: string } {
  const width = head.map((h, i) => Math.max(h.length, Math.min(48, Math.max(...all.map((r) => (r[i] ?? "").length)))));
  const cut = (c: string, w: number) => (c.length > w ? `${c.slice(0, w - 1)}…` : c);
  const fmt = (r: string[]) =>
    r
      .map((c, i) => (i === 0 ? cut(c, width[i]).padEnd(width[i]) : cut(c, width[i]).padStart(width[i])))
      .join("  ")
      .trimEnd();
  return { fmt, rule: width.map((w) => "-".repeat(w)).join("  ") };
}

/** "Which sustained what" first, when runs of different queue-like workloads are compared (./sustained-table.ts). */
function sustainedText(cmp: Comparison): string[] {
  if (!cmp.sustained) return [];
  const g = sustainedGrid(cmp.sustained);
  const { fmt, rule } = layout(g.head, [g.head, ...g.rows]);
  return ["Which sustained what:", fmt(g.head), rule, ...g.rows.map(fmt), ...g.after.map((a) => `  ${a}`), ""];
}
