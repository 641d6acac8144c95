// A figure pooled over several runs of one config (an A/B's variant, a ladder's level): a latency's percentiles
// from the runs' merged HDR histograms (percentiles are never averaged), a rate as all the items over all the
// measured seconds. Browser-safe.
import { mergeEncoded, percentilesOf } from "./histogram";
import type { LatencyStats } from "./metrics";
import { histogramOf, throughputOf } from "./operations";
import type { RunSummary } from "./summary";

/** A latency's percentiles over every run's measured window, by its declared name; null when a run lacks its histogram or none was recorded. */
export function pooledLatency(ss: readonly RunSummary[], name: string): LatencyStats | null {
  const encoded = ss.map((s) => histogramOf(s.histograms, name));
  if (!ss.length || encoded.some((e) => !e)) return null;
  const p = percentilesOf(mergeEncoded(encoded as string[]));
  return p.count === 0 ? null : p;
}

/** An operation's items per second over every run's measured window; null when a run lacks it. */
export function pooledRate(ss: readonly RunSummary[], operation: string): number | null {
  const counts = ss.map((s) => throughputOf(s, operation)?.count ?? null);
  const seconds = ss.reduce((a, s) => a + s.window.measuredSeconds, 0);
  return !ss.length || counts.some((c) => c === null) || seconds <= 0 ? null : (counts as number[]).reduce((a, b) => a + b, 0) / seconds;
}
