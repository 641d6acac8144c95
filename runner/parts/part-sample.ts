// A part's second as it sends it to the coordinator (lib/measurement/parts.ts PartSample): the counts of the
// engine's own sample, and the interval's HDR histograms themselves, so the run's second is their exact merge.
import { encodeHistogram, type Histogram, newHistogram } from "../../lib/measurement/histogram";
import { type LatencyKind, latencyAddress, type Phase } from "../../lib/measurement/metrics";
import type { EncodedLatency, PartGroup, PartMeasure, PartOperation, PartSample } from "../../lib/measurement/parts";
import type { SampleMetrics } from "../../lib/measurement/sample";
import type { RunStats } from "../core/stats";

type Encoded = Record<string, EncodedLatency>;

function put(into: Encoded, metric: string, h: Histogram) {
  if (!h.totalCount) return;
  const { operation, kind } = latencyAddress(metric);
  (into[operation] ??= {})[kind as LatencyKind] = encodeHistogram(h);
}

/** The interval histograms of every metric, by operation and kind (read before RunStats.tick resets them). */
function intervalHistograms(stats: RunStats): Encoded {
  const out: Encoded = {};
  for (const [name, o] of stats.operations()) put(out, name, o.latency.interval);
  for (const name of stats.groupOperations()) {
    const merged = newHistogram();
    for (const g of stats.groups) merged.add(g.op(name).latency.interval);
    put(out, name, merged);
  }
  return out;
}

const withHistograms = (ops: SampleMetrics["operations"], enc: Encoded): Record<string, PartOperation> =>
  Object.fromEntries(Object.entries(ops).map(([name, { perSecond: _r, latency: _l, ...counts }]) => [name, { ...counts, histograms: enc[name] ?? {} }]));

export interface PartTick {
  /** The engine's sample of the interval (what a one-process run would have sent). */
  metrics: SampleMetrics;
  /** The same interval as the part sends it, without who and when (runId, part, clock). */
  sample: Pick<PartSample, "phase" | "elapsedSec" | "intervalSec" | "operations" | "groups" | "measures" | "errors">;
}

/**
 * Ends the interval (RunStats.tick) and returns it both ways. A part's backlog is its own contribution, not clamped
 * at 0: what its writers wrote less what its readers read (negative for a part of readers only), so the parts' sum
 * is the run's (a group's backlog sums over parts; the run's is its most behind group's).
 */
export function tickPart(stats: RunStats, phase: Phase): PartTick {
  const enc = intervalHistograms(stats);
  const metrics = stats.tick(phase);
  const groups: PartGroup[] | undefined = metrics.groups?.map((g, i) => {
    const backlog = stats.backlogOf(stats.groups[i], true);
    return { group: g.group, operations: withHistograms(g.operations, {}), measures: { backlog: { value: backlog, combine: "sum" } } };
  });
  const measures: Record<string, PartMeasure> = {};
  if (groups?.length) {
    if (groups.length === 1) measures.backlog = { value: groups[0].measures?.backlog.value ?? 0, combine: "sum" };
    else measures.backlog = { value: 0, combine: "maxOverGroups" };
  }
  return {
    metrics,
    sample: {
      phase,
      elapsedSec: metrics.elapsedSec,
      intervalSec: metrics.intervalSec,
      operations: withHistograms(metrics.operations, enc),
      ...(groups ? { groups } : {}),
      measures,
      errors: metrics.errors,
    },
  };
}
