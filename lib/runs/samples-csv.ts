// A run's samples as CSV: one row per one-second sample, so a spreadsheet or pandas can redraw any chart.
// The columns are what the run's workload declares (workloads/<kind>/definition.ts metrics): per operation
// with a rate `<op>_<unit>_s, <op>_mib_s, <op>_count, <op>_errors` and its counters, the backlog, then per
// latency `<name>_p50_ms … <name>_latency_count`. Latency columns are that second's own percentiles (never a
// cumulative figure), in milliseconds. Every column name is unique and says what it holds: `write_count` is
// the items (messages, rows) written that second, `write_latency_count` how many latencies that second's write
// histogram holds (one per batch in pubsub).
import {
  counterOf,
  groupsOf,
  latencyMetrics,
  latencyOf,
  measureOf,
  metricModel,
  perGroupOperation,
  rateOperations,
  throughputOf,
} from "../measurement/operations";
import type { Sample, SampleMetrics } from "../measurement/sample";
import { toCsvText, type CsvValue } from "../csv";
import { TELEMETRY_CSV } from "../telemetry/report";

const LAT_STATS = ["p50", "p95", "p99", "max", "count"] as const;

interface Column {
  name: string;
  value: (s: Sample) => string | number | undefined;
}

/** The fixed columns of a workload, in order (docs/api.md lists pub/sub's and queue's). Per-group columns
 *  follow: group_g0_msg_s, group_g0_backlog, … */
function columnsOf(kind: string): Column[] {
  const model = metricModel(kind);
  if (!model) throw new Error(`no workload "${kind}" is registered: its samples' columns are unknown`);
  const m = (s: Sample): SampleMetrics => s.metrics;
  const cols: Column[] = [
    { name: "seq", value: (s) => s.seq },
    { name: "time", value: (s) => s.time },
    { name: "phase", value: (s) => s.phase },
    { name: "elapsed_s", value: (s) => m(s).elapsedSec },
    { name: "interval_s", value: (s) => m(s).intervalSec },
  ];
  for (const o of rateOperations(model)) {
    const tp = (s: Sample) => throughputOf(m(s), o.name);
    cols.push(
      { name: `${o.name}_${o.unit}_s`, value: (s) => tp(s)?.perSecond },
      { name: `${o.name}_mib_s`, value: (s) => tp(s)?.mibPerSec },
      { name: `${o.name}_count`, value: (s) => tp(s)?.count },
    );
    if (o.errors) cols.push({ name: `${o.name}_errors`, value: (s) => tp(s)?.errors });
  }
  // Counters come after every rate (empty_polls after read_errors, as the columns have always been).
  for (const o of rateOperations(model)) for (const c of o.counters ?? []) cols.push({ name: c.column, value: (s) => counterOf(m(s), o.name, c.key) });
  if (model.backlog) cols.push({ name: "backlog", value: (s) => measureOf(m(s), "backlog") });
  for (const l of latencyMetrics(model))
    for (const st of LAT_STATS)
      cols.push({ name: st === "count" ? `${l.name}_latency_count` : `${l.name}_${st}_ms`, value: (s) => latencyOf(m(s), l.name)?.[st] });
  // The runner's own load that second (lib/measurement/runner-load.ts); empty in samples recorded before it was measured.
  cols.push(
    { name: "runner_loop_delay_p99_ms", value: (s) => m(s).runnerLoad?.loopDelayMs.p99 },
    { name: "runner_loop_delay_max_ms", value: (s) => m(s).runnerLoad?.loopDelayMs.max },
    { name: "runner_cpu_cores", value: (s) => m(s).runnerLoad?.cpuCores },
  );
  return cols;
}

/** The fixed column names of a workload's samples.csv. */
export const csvColumns = (kind: string): string[] => columnsOf(kind).map((c) => c.name);

/** Rates and latencies to 6 decimals (below a histogram's resolution), so a sample's row stays short. */
const rounded = (v: string | number | undefined): CsvValue => (typeof v === "number" && !Number.isInteger(v) ? +v.toFixed(6) : v);

export function samplesToCsv(samples: Sample[], kind: string): string {
  const cols = columnsOf(kind);
  const groups = [...new Set(samples.flatMap((s) => groupsOf(s.metrics).map((g) => g.group)))];
  // The per-group operation (pub/sub's read) in its own unit.
  const model = metricModel(kind);
  const op = perGroupOperation(model) ?? model?.operations.find((o) => o.name === "read") ?? { name: "read", unit: "item" };
  // "group_" keeps a group's columns apart from the fixed ones whatever the group is called.
  // The server's telemetry (lib/telemetry/report.ts TELEMETRY_CSV) after the errors, only for runs that have it:
  // older runs' exports keep their columns.
  const telemetry = samples.some((s) => s.metrics.telemetry) ? TELEMETRY_CSV : [];
  const header = [
    ...cols.map((c) => c.name),
    ...groups.flatMap((g) => [`group_${g}_${op.unit}_s`, `group_${g}_backlog`]),
    "errors",
    ...telemetry.map((c) => c.name),
  ];
  const rows = samples.map((s) => {
    const byGroup = new Map(groupsOf(s.metrics).map((g) => [g.group, g]));
    const t = s.metrics.telemetry;
    return [
      ...cols.map((c) => c.value(s)),
      ...groups.flatMap((g) => {
        const f = byGroup.get(g);
        return [f && throughputOf(f, op.name)?.perSecond, f && measureOf(f, "backlog")];
      }),
      s.metrics.errors.join(" | "),
      ...telemetry.map((c) => (t ? c.value(t) : undefined)),
    ].map(rounded);
  });
  return toCsvText([header, ...rows]);
}
