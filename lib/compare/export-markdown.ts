// The comparison as Markdown (the page's export and `npm run bench -- compare --format md`): a summary table like the
// reference README's, the full results with deltas, the config and the caveats.
import type { Comparable, Metric } from "./comparable";
import { pctsOf, rateOf } from "./comparable";
import type { Comparison } from "./compare";
import { delta } from "./deltas";
import { fmtAnnotated, fmtCell, fmtDelta, fmtLat, fmtNum, fmtValue } from "./format";
import { comparedMetrics } from "./metrics";
import { effectLines } from "./effects";
import { type ContextNote, TOP_NOTES } from "./notes";
import { sustainedGrid } from "./sustained-table";

const mdEscape = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");
/**
 * Free text that may hold a label someone typed (a run's or an import's: the label itself, a note naming it), as text: the characters that open HTML, an entity, a link, an image
 * or code are backslash-escaped (CommonMark escapes any ASCII punctuation), so `<img …>` or `[x](javascript:…)`
 * stays text, while ids such as r_7339 read as typed; a table cell's `|` is escaped by mdRow.
 */
export const mdText = (s: string) => s.replace(/[\\`[\]<>&]/g, "\\$&").replace(/\s*\n\s*/g, " ");
const mdRow = (cells: string[]) => `| ${cells.map(mdEscape).join(" | ")} |`;
const badgeText = (c: Comparable) => `${mdText(c.label)} (${c.badge})`;

function triple(c: Comparable, m: Metric): string {
  const l = pctsOf(c, m);
  return `${fmtLat(l.p50)} / ${fmtLat(l.p95)} / ${fmtLat(l.p99)}`;
}
/** "2,885 msg/s / 2.82 MiB/s", in the operation's own unit. */
const rate = (items: number | null, mib: number | null, perSec: string | undefined) =>
  perSec === undefined ? "—" : `${fmtNum(items, 2)} ${perSec} / ${fmtNum(mib, 2)} MiB/s`;

/** Markdown: a summary table like the reference README's, the full results with deltas, the config and the caveats. */
export function toMarkdown(cmp: Comparison, opts: { url?: string; generatedAt?: string } = {}): string {
  const { items } = cmp;
  const base = cmp.baseline >= 0 ? items[cmp.baseline] : null;
  const lines: string[] = ["# Comparison", ""];
  if (opts.url) lines.push(`Link: ${opts.url}`, "");
  if (opts.generatedAt) lines.push(`Generated ${opts.generatedAt} by pg-broker-bench.`, "");
  lines.push("## Summary", "");
  const m = comparedMetrics(items.map((c) => c.workload));
  const broker = ["write", "read"].every((op) => m.rates.some((r) => r.name === op));
  // Each item's rate in its own workload's unit (a pub/sub run's msg/s beside a queued-workflows run's
  // workflow/s); "—" for an item whose workload has no such operation.
  const perSecOf = (c: Comparable, op: string) => comparedMetrics([c.workload]).rates.find((r) => r.name === op)?.perSec;
  if (broker) {
    // Message workloads: the reference README's own layout, so a comparison pastes beside its tables.
    lines.push(
      mdRow([
        "Configuration",
        "Source",
        "Server",
        "Write Rate",
        "Read Rate",
        "E2E Latency p50 / p95 / p99",
        "Write Latency p50 / p95 / p99",
        "Read Latency p50 / p95 / p99",
      ]),
    );
    lines.push(mdRow(Array(8).fill("---")));
    for (const c of items)
      lines.push(
        mdRow([
          mdText(c.label),
          c.badge,
          fmtCell(c.env.server ?? null),
          rate(rateOf(c, "write", "items"), rateOf(c, "write", "MiB"), perSecOf(c, "write")),
          rate(rateOf(c, "read", "items"), rateOf(c, "read", "MiB"), perSecOf(c, "read")),
          triple(c, "e2e"),
          triple(c, "write"),
          triple(c, "read"),
        ]),
      );
  } else {
    // Other workloads: what they declare, each rate in its own unit and each charted latency as p50 / p95 / p99.
    const head = [
      "Configuration",
      "Source",
      "Server",
      ...m.rates.map((r) => `${r.label} (${r.perSec})`),
      ...m.latencies.map((l) => `${l.label} p50 / p95 / p99`),
    ];
    lines.push(mdRow(head));
    lines.push(mdRow(Array(head.length).fill("---")));
    for (const c of items)
      lines.push(
        mdRow([
          mdText(c.label),
          c.badge,
          fmtCell(c.env.server ?? null),
          ...m.rates.map((r) => fmtNum(rateOf(c, r.name, "items"), 2)),
          ...m.latencies.map((l) => triple(c, l.name)),
        ]),
      );
  }
  if (cmp.sustained) {
    const g = sustainedGrid(cmp.sustained);
    lines.push("", "## Which sustained what", "", mdRow(g.head), mdRow(g.head.map((_, i) => (i < 2 ? "---" : "---:"))));
    for (const r of g.rows) lines.push(mdRow([mdText(r[0]), ...r.slice(1)]));
    lines.push("", ...g.after.map((a) => `- ${mdText(a)}`));
  }
  lines.push("", `## Results${base ? ` (change against ${badgeText(base)})` : ""}`, "");
  lines.push(mdRow(["Metric", ...items.map(badgeText)]));
  lines.push(mdRow(["---", ...items.map(() => "---:")]));
  for (const r of cmp.results) {
    if (r.values.every((v) => v === null)) continue;
    const baseV = cmp.baseline >= 0 ? r.values[cmp.baseline] : null;
    lines.push(
      mdRow([
        r.label,
        ...r.values.map((v, i) => {
          const s = fmtValue(v, r.unit);
          if (!base || i === cmp.baseline || v === null) return s;
          const d = delta(v, baseV, r.better);
          return d ? `${s} (${fmtDelta(d)})` : s;
        }),
      ]),
    );
  }
  lines.push("", "## Configuration", "");
  lines.push(mdRow(["Field", ...items.map((c) => mdText(c.label))]));
  lines.push(mdRow(["---", ...items.map(() => "---")]));
  for (const r of [...cmp.config, ...cmp.env])
    lines.push(mdRow([`${r.label}${r.differs ? " ≠" : ""}`, ...r.values.map((v, i) => fmtAnnotated(v, r.annotations[i]))]));
  if (cmp.notes.length) {
    // Ranked, most telling first; beyond the first few, folded as the page folds them.
    const note = (n: ContextNote) => `- ${n.severity === "warn" ? `**${n.topic}**` : n.topic}: ${mdText(n.text)}`;
    lines.push("", "## What makes this comparison unfair", "");
    for (const n of cmp.notes.slice(0, TOP_NOTES)) lines.push(note(n));
    const rest = cmp.notes.slice(TOP_NOTES);
    if (rest.length)
      lines.push("", `<details><summary>${rest.length} more (less likely to change the reading)</summary>`, "", ...rest.map(note), "", "</details>");
  }
  const effects = effectLines(cmp);
  if (effects.length) {
    lines.push("", "## Known effects beside the deltas", "");
    for (const e of effects) lines.push(`- ${mdText(e)}`);
  }
  const perItem = items.filter((c) => c.notes.length);
  if (perItem.length) {
    lines.push("", "## What the numbers mean", "");
    for (const c of perItem) for (const n of c.notes) lines.push(`- ${mdText(c.label)}: ${mdText(n)}`);
  }
  lines.push("");
  return lines.join("\n");
}
