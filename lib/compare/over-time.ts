// A run's over-time points for the compare charts, downsampled into whole buckets past MAX_TIME_POINTS.
import { isRateSample, SampleMetrics } from "../measurement/sample";
import type { TimePoint } from "./comparable";
import { METRICS, rateOps } from "./metrics";
import { latencyOf, throughputOf } from "../measurement/operations";

export interface SampleRecord {
  seq: number;
  phase: string;
  metrics: unknown;
}

/** At most this many points per run in the over-time charts. A longer run is downsampled into buckets of
 *  consecutive seconds (never across a phase change), each kept whole: its time-weighted rate with the lowest
 *  and highest second as an envelope, and the highest of each latency percentile, so a one-second spike or
 *  stall still shows (keeping every k-th second lost it). */
export const MAX_TIME_POINTS = 1200;

type Second = { t: number; phase: string; m: SampleMetrics };

export function overTimeOf(samples: SampleRecord[]): TimePoint[] {
  const seconds: Second[] = [];
  for (const s of samples) {
    const m = SampleMetrics.safeParse(s.metrics);
    if (m.success) seconds.push({ t: Math.round(m.data.elapsedSec * 10) / 10, phase: s.phase, m: m.data });
  }
  const size = Math.ceil(seconds.length / MAX_TIME_POINTS);
  if (size <= 1) return seconds.map((s) => bucketPoint([s]));
  const out: TimePoint[] = [];
  let bucket: Second[] = [];
  for (const s of seconds) {
    if (bucket.length && (bucket.length === size || bucket[0].phase !== s.phase)) {
      out.push(bucketPoint(bucket));
      bucket = [];
    }
    bucket.push(s);
  }
  if (bucket.length) out.push(bucketPoint(bucket));
  return out;
}

/** One point for consecutive seconds of one phase, at the time of the last (a sample's time is its end). */
function bucketPoint(bucket: Second[]): TimePoint {
  const last = bucket[bucket.length - 1];
  const rated = bucket.filter((s) => isRateSample(s.m));
  const rates: TimePoint["rates"] = {};
  const rateRange: NonNullable<TimePoint["rateRange"]> = {};
  for (const o of rateOps()) {
    const per = rated.flatMap((s) => {
      const r = throughputOf(s.m, o)?.perSecond;
      return r === undefined ? [] : [{ r, sec: s.m.intervalSec }];
    });
    if (!per.length) {
      rates[o] = null;
      continue;
    }
    const secs = per.reduce((a, p) => a + p.sec, 0);
    rates[o] = per.reduce((a, p) => a + p.r * p.sec, 0) / secs;
    if (bucket.length > 1) rateRange[o] = { min: Math.min(...per.map((p) => p.r)), max: Math.max(...per.map((p) => p.r)) };
  }
  const latency: TimePoint["latency"] = {};
  for (const k of METRICS()) {
    const ls = bucket.flatMap((s) => latencyOf(s.m, k) ?? []);
    if (!ls.length) continue;
    // The bucket's worst second of each percentile: an upper bound, never an average of percentiles.
    const hi = (p: "p50" | "p95" | "p99" | "max") => Math.max(...ls.map((l) => l[p]));
    latency[k] = { p50: hi("p50"), p95: hi("p95"), p99: hi("p99"), max: hi("max") };
  }
  const point: TimePoint = { t: last.t, phase: last.phase, rates, latency };
  if (bucket.length > 1) Object.assign(point, { seconds: bucket.length, rateRange });
  return point;
}
