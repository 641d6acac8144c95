// What compare shows for a set of workloads: the rates and latencies their definitions declare
// (lib/measurement/operations.ts), by name and label.
import { latencyMetrics, metricModel, rateOperations } from "../measurement/operations";
import { workloadDefinitions } from "../workloads/config";
import { perSecond } from "../words";
import type { Metric } from "./comparable";

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * What compare shows for these workloads, from their declarations (workloads/<kind>/definition.ts metrics): the
 * operations with a rate and the charted latencies (operations' and delivery), in declared order, each once
 * (the first workload to declare a name labels it). Pub/sub and queue: write and read rates; write, read and
 * end-to-end latencies. Imports and references are of those workloads, so they read by the same names.
 */
export function comparedMetrics(kinds: readonly string[]): {
  /** `perSec`: the rate's unit per second ("row/s"), or each of them when the compared workloads count the
   *  operation in different units (pub/sub's write beside inserts': "msg/s · row/s"). */
  rates: { name: string; label: string; unit: string; perSec: string }[];
  latencies: { name: string; label: string }[];
} {
  const rates = new Map<string, { label: string; unit: string; units: Set<string> }>();
  const latencies = new Map<string, string>();
  for (const kind of distinct([...kinds])) {
    const model = metricModel(kind);
    if (!model) continue;
    for (const o of rateOperations(model)) {
      if (!rates.has(o.name)) rates.set(o.name, { label: cap(o.label), unit: o.unit, units: new Set() });
      rates.get(o.name)?.units.add(o.unit);
    }
    for (const l of latencyMetrics(model)) if (l.chart && !latencies.has(l.name)) latencies.set(l.name, cap(l.label));
  }
  return {
    rates: [...rates].map(([name, { label, unit, units }]) => ({ name, label, unit, perSec: [...units].map(perSecond).join(" · ") })),
    latencies: [...latencies].map(([name, label]) => ({ name, label })),
  };
}

/** A published figure's name that no workload declares: "total" is the study's aggregate over all operations. */
export const extraLabel = (name: string) => (name === "total" ? "All operations" : cap(name));

/** Every operation with a rate any registered workload declares. */
export const rateOps = (): string[] => comparedMetrics(workloadDefinitions().map((d) => d.kind)).rates.map((o) => o.name);

/** Every latency any registered workload lets compare show (the ?m= values a link may carry). */
export const METRICS = (): string[] => comparedMetrics(workloadDefinitions().map((d) => d.kind)).latencies.map((l) => l.name);

/** A metric's label ("Write", "End-to-end"), by the declaration that names it; the name itself if none does. */
export function metricLabel(m: Metric): string {
  return comparedMetrics(workloadDefinitions().map((d) => d.kind)).latencies.find((l) => l.name === m)?.label ?? m;
}

const distinct = <T>(xs: T[]) => [...new Set(xs)];
