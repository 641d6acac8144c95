// A run's samples as CSV: one row per one-second sample, so a spreadsheet or pandas can redraw any chart.
// Latency columns are that second's own percentiles (never a cumulative figure), in milliseconds.
// Every column name is unique and says what it holds: `write_messages` is messages written that second,
// `write_latency_count` is how many latencies that second's write histogram holds (one per batch in pubsub).
import { LATENCY_METRICS } from "./metrics";
import type { Sample } from "./sample";
import { toCsvText, type CsvValue } from "./csv";

const LAT_STATS = ["p50", "p95", "p99", "max", "count"] as const;

/** The fixed columns, in order (README "API" lists them). Per-group columns follow: group_g0_msg_s, group_g0_backlog, … */
export const CSV_COLUMNS = [
  "seq",
  "time",
  "phase",
  "elapsed_s",
  "interval_s",
  "write_msg_s",
  "write_mib_s",
  "write_messages",
  "write_errors",
  "read_msg_s",
  "read_mib_s",
  "read_messages",
  "read_errors",
  "empty_polls",
  "backlog",
  ...LATENCY_METRICS.flatMap((m) => LAT_STATS.map((s) => (s === "count" ? `${m}_latency_count` : `${m}_${s}_ms`))),
] as const;

/** Rates and latencies to 6 decimals (below a histogram's resolution), so a sample's row stays short. */
const rounded = (v: string | number | undefined): CsvValue => (typeof v === "number" && !Number.isInteger(v) ? +v.toFixed(6) : v);

/** The header of a CSV of these groups' samples ("g0", "g1", … or "queue"). */
export function csvHeader(groups: string[]): string[] {
  // "group_" keeps a group's columns apart from the fixed ones whatever the group is called.
  return [...CSV_COLUMNS, ...groups.flatMap((g) => [`group_${g}_msg_s`, `group_${g}_backlog`]), "errors"];
}

export function samplesToCsv(samples: Sample[]): string {
  const groups = [...new Set(samples.flatMap((s) => s.metrics.groups.map((g) => g.group)))];
  const header = csvHeader(groups);
  const rows = samples.map((s) => {
    const m = s.metrics;
    const byGroup = new Map(m.groups.map((g) => [g.group, g]));
    return [
      s.seq,
      s.time,
      s.phase,
      m.elapsedSec,
      m.intervalSec,
      m.writes.msgPerSec,
      m.writes.mibPerSec,
      m.writes.count,
      m.writes.errors,
      m.reads.msgPerSec,
      m.reads.mibPerSec,
      m.reads.count,
      m.reads.errors,
      m.reads.emptyPolls,
      m.backlog,
      ...LATENCY_METRICS.flatMap((metric) => LAT_STATS.map((st) => m.latencyMs[metric]?.[st])),
      ...groups.flatMap((g) => [byGroup.get(g)?.msgPerSec, byGroup.get(g)?.backlog]),
      m.errors.join(" | "),
    ].map(rounded);
  });
  return toCsvText([header, ...rows]);
}
