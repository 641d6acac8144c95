// What a run measured, read by the names its workload declares (workloads/<kind>/definition.ts `metrics`):
// the charts, the run page, the runs list, compare, the CSV and the CLI ask this module for "the write
// operation's rate" or "the e2e latency" instead of reading fixed broker fields. Browser-safe.
//
// Where the numbers live: samples and summaries alike keep `operations[name]` (count, perSecond, errors, bytes,
// counters, and latency by kind: fromSend, fromSchedule, writerLag), consumer groups' figures in `groups`, and what
// a workload declares of its own in `measures` (a sample's backlog) and `totals.measures` (unreadAtEnd, drain).
// A latency's declared name says where it is kept (metrics.ts latencyAddress): "writeScheduled" is the write's
// latency from schedule, "e2e" the delivery operation's own. Old stored runs are converted on read (upgrade.ts).
import type { DeliveryDef, MetricModel, OperationDef } from "../../workloads/types";
export type { MetricModel } from "../../workloads/types";
import { type GroupFigures, type LatencyStats, latencyAddress, type OperationFigures, type Operations } from "./metrics";
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

/**
 * The items a workload's runner CPU is quoted per (per 1,000 of them): the declared `countedItems`, else its "total"
 * operation when it has one (requests of every kind), else every rate operation in the first one's unit (a broker's
 * messages written and read; inserted rows; workflows).
 */
export function countedItems(m: MetricModel | undefined): { operations: string[]; unit: string } | undefined {
  if (!m) return undefined;
  const rated = rateOperations(m);
  const first = rated[0];
  if (!first) return undefined;
  const total = rated.find((o) => o.name === "total");
  if (total) return { operations: [total.name], unit: total.unit };
  return { operations: rated.filter((o) => o.unit === first.unit).map((o) => o.name), unit: first.unit };
}

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

/** An operation's counts and rate as every table shows them, MiB/s from its payload bytes. */
export interface Rate {
  count: number;
  perSecond: number;
  mibPerSec: number;
  errors: number;
}

/** An operation's stored figures in a sample or summary, or undefined when none is stored for it. */
export const operationOf = (m: { operations: Operations }, name: string): OperationFigures | undefined => m.operations[name];

/** An operation's counts and rate in a sample or summary, or undefined when none is stored for it. */
export function throughputOf(m: { operations: Operations }, name: string): Rate | undefined {
  const o = m.operations[name];
  return o && rateOf(o);
}

/** MiB/s of an operation's payload: its bytes per item times its rate (as the reference: msg/s × payload / 2^20). */
export function rateOf(o: OperationFigures): Rate {
  const mibPerSec = o.bytes && o.count ? ((o.bytes / o.count) * o.perSecond) / 1048576 : 0;
  return { count: o.count, perSecond: o.perSecond, mibPerSec, errors: o.errors };
}

/** One of an operation's declared counters (OperationDef.counters: a read's emptyPolls), kept beside its rate. */
export function counterOf(m: { operations: Operations }, name: string, key: string): number | undefined {
  return m.operations[name]?.counters?.[key];
}

/** A latency's percentiles in a sample or summary, by its declared name ("write", "writeScheduled", "e2e"). */
export function latencyOf(m: { operations: Operations }, name: string): LatencyStats | undefined {
  const { operation, kind } = latencyAddress(name);
  return m.operations[operation]?.latency[kind];
}

/** Every latency stored in a sample or summary, by its declared name (latencyAddress in reverse). */
export function latenciesOf(m: { operations: Operations }): Record<string, LatencyStats> {
  const out: Record<string, LatencyStats> = {};
  for (const [name, o] of Object.entries(m.operations)) {
    if (o.latency.fromSend) out[name] = o.latency.fromSend;
    if (o.latency.fromSchedule) out[`${name}Scheduled`] = o.latency.fromSchedule;
    if (o.latency.writerLag) out.writerLag = o.latency.writerLag;
  }
  return out;
}

/** A figure the workload declares of its own (a sample's backlog), or undefined. */
export const measureOf = (m: { measures?: Record<string, number> }, name: string): number | undefined => m.measures?.[name];

/** The consumer groups' figures of a sample or summary (pub/sub's groups, the queue's one), [] when it has none. */
export const groupsOf = <G extends GroupFigures>(m: { groups?: G[] }): G[] => m.groups ?? [];

/** A stored histogram (base64) by a latency's declared name. */
export function histogramOf(h: Record<string, Partial<Record<string, string>>>, name: string): string | undefined {
  const { operation, kind } = latencyAddress(name);
  return h[operation]?.[kind];
}

/** The operation whose rate sums consumer groups (pub/sub's read), if any. */
export const perGroupOperation = (m: MetricModel | undefined): OperationDef | undefined => m?.operations.find((o) => o.perGroup);

/** Whether a workload's reads are per consumer group, so its read rate sums the groups (pub/sub fan-out). */
export const readsPerGroup = (kind: string): boolean => perGroupOperation(metricModel(kind))?.name === "read";

/** An operation's name in a rate's legend or row: a per-group rate over several groups says it sums them. */
export function rateLabel(o: OperationDef, groups: number): string {
  return o.perGroup && groups > 1 ? `${o.label} (all groups)` : o.label;
}
