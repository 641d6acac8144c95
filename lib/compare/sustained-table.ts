// "Which sustained what" (issue 32): when runs of different queue-like workloads are compared, one table says for
// each what rate it was offered, what it consumed, whether it kept up and at which latency from the scheduled
// enqueue; and whether they were offered the same rate at all. The facts are each run's own (./sustained.ts, read
// from its stored summary by ./from-run.ts); this file only lays them out. Browser-safe.
import type { Comparable } from "./comparable";
import { fmtLat, fmtNum } from "./format";
import type { QueueFacts } from "./sustained";

export interface SustainedRow extends QueueFacts {
  key: string;
  label: string;
  href: string;
  workload: string;
}

export interface SustainedTable {
  rows: SustainedRow[];
  /** Set when the runs were not offered one same enqueue rate: the flag's words, naming each run's rate. */
  notSameRate: string | null;
  /** Compared items that are not runs of a queue-like workload, left out of the table. */
  leftOut: string[];
}

export const NOT_SAME_RATE = "not at the same offered rate: compare at one rate";

/**
 * The table, when at least two compared runs are of queue-like workloads and those are not all one workload;
 * otherwise null (the results table already lines up runs of one workload).
 */
export function sustainedTable(items: Comparable[]): SustainedTable | null {
  const rows: SustainedRow[] = items.flatMap((c) => (c.queue ? [{ key: c.key, label: c.label, href: c.href, workload: c.workload, ...c.queue }] : []));
  if (rows.length < 2 || new Set(rows.map((r) => r.workload)).size < 2) return null;
  return {
    rows,
    notSameRate: sameRate(rows) ? null : `${NOT_SAME_RATE} (${rows.map(offeredWords).join("; ")})`,
    leftOut: items.filter((c) => !c.queue).map((c) => c.label),
  };
}

/** One same rate of items enqueued, asked of every run (a message, a job and a workflow are each one item queued). */
function sameRate(rows: SustainedRow[]): boolean {
  const first = rows[0].offered.value;
  return first !== null && rows.every((r) => r.offered.enqueue && r.offered.value === first);
}

/** "pg-boss: 200 job/s", "jobqueue: 500 req/s of requests of both kinds", "pg-boss: none (drain)". */
export function offeredWords(r: SustainedRow): string {
  const o = r.offered;
  if (o.value === null) return `${r.label}: none offered`;
  return `${r.label}: ${o.value.toLocaleString("en-US")} ${o.unit}${o.enqueue ? "" : " (requests of both kinds, not enqueues)"}`;
}

/** A cell as every surface writes it: its text ("—" when the run has no such number) and where it came from or why not. */
export interface SustainedCell {
  /** The column's key (data-testid suffixes, JSON). */
  key: string;
  text: string;
  title: string;
  /** The unrounded number behind the text (rates in items/s, latencies in ms); null for words and dashes. */
  value: number | null;
}

/** A column after the run's name: its key, its heading in a flat table (the exports), and for a latency the group
 *  the page heads it under with its short label ("p99"). */
export interface SustainedColumn {
  key: string;
  label: string;
  group?: string;
  short?: string;
}

const PCTS = [
  ["p50", "p50"],
  ["p99", "p99"],
  ["p999", "p99.9"],
] as const;
const latencyColumns = (which: "start" | "done"): SustainedColumn[] =>
  PCTS.map(([p, short]) => ({ key: `${which}.${p}`, label: `→ ${which} ${short}`, group: `Enqueue → ${which}`, short }));

/** The columns after the run's name, in order. Latencies are from the scheduled enqueue. */
export const SUSTAINED_COLUMNS: readonly SustainedColumn[] = [
  { key: "settings", label: "Workload and settings" },
  { key: "offered", label: "Offered" },
  { key: "consumed", label: "Consumed" },
  { key: "keptUp", label: "Kept up" },
  ...latencyColumns("start"),
  ...latencyColumns("done"),
];

const rateText = (v: number | null, unit: string) => (v === null ? "—" : `${fmtNum(v, v < 100 ? 1 : 0)} ${unit}`);

/** A row's cells, in SUSTAINED_COLUMNS' order. */
export function sustainedCells(r: SustainedRow): SustainedCell[] {
  const lat = (which: "start" | "done"): SustainedCell[] =>
    PCTS.map(([p]) => ({ key: `${which}.${p}`, text: fmtLat(r[which].value?.[p] ?? null), title: r[which].why, value: r[which].value?.[p] ?? null }));
  return [
    { key: "settings", text: `${r.workload}: ${r.settings}`, title: r.label, value: null },
    { key: "offered", text: rateText(r.offered.value, r.offered.unit), title: r.offered.why, value: r.offered.value },
    { key: "consumed", text: rateText(r.consumed.value, r.consumed.unit), title: r.consumed.why, value: r.consumed.value },
    { key: "keptUp", text: r.keptUp.value === null ? "—" : r.keptUp.value ? "yes" : "no", title: r.keptUp.why, value: null },
    ...lat("start"),
    ...lat("done"),
  ];
}

/** The table as the exports write it (Markdown, the CLI's text): the head, one row of texts per run, and the words
 *  under it (the flag first, then what was left out). */
export function sustainedGrid(t: SustainedTable): { head: string[]; rows: string[][]; after: string[] } {
  return {
    head: ["Run", ...SUSTAINED_COLUMNS.map((c) => c.label)],
    rows: t.rows.map((r) => [r.label, ...sustainedCells(r).map((c) => c.text)]),
    after: [
      ...(t.notSameRate ? [t.notSameRate] : []),
      "Latencies from each job's scheduled enqueue; kept up: consumed at least 95% of the rate offered. — = not offered or not measured (the page says why on hover).",
      ...(t.leftOut.length ? [`Not in this table (not runs of a queue-like workload): ${t.leftOut.join(", ")}.`] : []),
    ],
  };
}
