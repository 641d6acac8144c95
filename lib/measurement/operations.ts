// What a run measured, read by the names its workload declares (workloads/<kind>/definition.ts `metrics`):
// the charts, the run page, the runs list, compare, the CSV and the CLI ask this module for "the write
// operation's rate" or "the e2e latency" instead of reading fixed broker fields. Browser-safe.
//
// Where the numbers live: latencies are keyed by the declared name (latencyMs[name], histograms[name]) in
// samples and summaries alike. Rates: the operations named "write" and "read" are the broker's two counters,
// `writes` and `reads` (as every stored run has them); any other operation's rate is `rates[name]`
// (runner/stats.ts RunStats.op(name) counts it).
import type { DeliveryDef, MetricModel, OperationDef } from "../../workloads/types";
import type { LatencyStats, Throughput } from "./metrics";
import { workloadDefinition } from "../workloads/config";

/** One latency histogram a workload declares, in the order every table, chart and CSV lists them. */
export interface LatencyMetricDef {
  /** Its key in latencyMs and histograms. */
  name: string;
  label: string;
  /** What one sample times ("per batch"); empty for a scheduled variant (same as its operation). */
  latencySample: string;
  chart?: { title: string; hint: string };
}

/** The metric model of a workload kind; undefined for a kind this version does not know. */
export function metricModel(kind: string): MetricModel | undefined {
  return workloadDefinition(kind)?.metrics;
}

/** Whether a workload counts messages written and read (pub/sub, queue) rather than requests of its own kinds
 *  (a cache's gets and sets): the words of its verification, totals and CPU figures follow. */
export const countsMessages = (m: MetricModel | undefined): boolean => !!m?.operations.some((o) => o.name === "write" || o.name === "read");

/** Operations with a rate (msg/s), in declared order. */
export const rateOperations = (m: MetricModel): OperationDef[] => m.operations.filter((o) => o.rate);

/** What one writer-lag sample is (runner/engine.ts records it at each write's end and every second per writer). */
export const WRITER_LAG_SAMPLE = "per write and per writer each second: how far the writer is behind its own share of the schedule";

/** Every latency histogram: each operation's, its scheduled variant and writer lag right after it, then the
 *  delivery latency and its scheduled variant. */
export function latencyMetrics(m: MetricModel): LatencyMetricDef[] {
  const out: LatencyMetricDef[] = [];
  for (const o of m.operations) {
    if (o.latency) out.push({ name: o.name, label: o.label, latencySample: o.latencySample, chart: o.chart });
    if (o.scheduled) out.push({ name: o.scheduled.name, label: o.scheduled.label, latencySample: "" });
    const lag = o.scheduled?.writerLag;
    if (lag) out.push({ name: lag.name, label: lag.label, latencySample: WRITER_LAG_SAMPLE });
  }
  const d: DeliveryDef | undefined = m.delivery;
  if (d) out.push({ name: d.name, label: d.label, latencySample: d.latencySample, chart: d.chart });
  if (d?.scheduled) out.push({ name: d.scheduled.name, label: d.scheduled.label, latencySample: "" });
  return out;
}

/** The stored counters of a sample or summary (see the header). */
interface Counted<T extends Throughput> {
  writes: Throughput;
  reads: T;
  rates?: Record<string, Throughput>;
}

/** An operation's counts and rate in a sample or summary, or undefined when none is stored for it. */
export function throughputOf<T extends Throughput>(m: Counted<T>, name: string): Throughput | undefined {
  return name === "write" ? m.writes : name === "read" ? m.reads : m.rates?.[name];
}

/** One of an operation's declared counters (OperationDef.counters: a read's emptyPolls), kept beside its rate. */
export function counterOf<T extends Throughput>(m: Counted<T>, name: string, key: string): number | undefined {
  const v = (throughputOf(m, name) as Record<string, unknown> | undefined)?.[key];
  return typeof v === "number" ? v : undefined;
}

/** A latency's percentiles in a sample or summary, by its declared name. */
export function latencyOf(m: { latencyMs: Partial<Record<string, LatencyStats>> }, name: string): LatencyStats | undefined {
  return m.latencyMs[name];
}

/** The operation whose rate sums consumer groups (pub/sub's read), if any. */
export const perGroupOperation = (m: MetricModel | undefined): OperationDef | undefined => m?.operations.find((o) => o.perGroup);

/** Whether a workload's reads are per consumer group, so its read rate sums the groups (pub/sub fan-out). */
export const readsPerGroup = (kind: string): boolean => perGroupOperation(metricModel(kind))?.name === "read";

/** An operation's name in a rate's legend or row: a per-group rate over several groups says it sums them. */
export function rateLabel(o: OperationDef, groups: number): string {
  return o.perGroup && groups > 1 ? `${o.label} (all groups)` : o.label;
}
