// HDR histograms for latencies, shared by the runner (recording), the web app and the compare view
// (re-reading stored runs). Browser-safe: nothing here touches Node APIs.
//
// Values are recorded in MICROSECONDS with 3 significant digits (the reference tool records nanoseconds with
// 3 digits; at 3 digits the relative error is the same ±0.1%, and µs keep every value well inside the safe
// integer range). Percentiles are always read from one (possibly merged) histogram, never averaged.
import { build, decodeFromCompressedBase64, encodeIntoCompressedBase64, type Histogram } from "hdr-histogram-js";
import type { LatencyStats } from "./metrics";

export type { Histogram };

/** A new empty latency histogram (µs). Auto-resizes, so no value is ever dropped. */
export function newHistogram(): Histogram {
  return build({
    lowestDiscernibleValue: 1,
    // 60 s to start with; autoResize grows it if a latency is ever longer (a stalled target).
    highestTrackableValue: 60_000_000,
    numberOfSignificantValueDigits: 3,
    autoResize: true,
  });
}

/** Records `micros` (rounded, at least 1 µs so sub-µs values still count) `count` times. */
export function recordMicros(h: Histogram, micros: number, count = 1): void {
  const v = micros < 1 ? 1 : Math.round(micros);
  if (count === 1) h.recordValue(v);
  else if (count > 1) h.recordValueWithCount(v, count);
}

/** Serialises a histogram (base64 of the compressed V2 encoding, readable by every HdrHistogram port). */
export function encodeHistogram(h: Histogram): string {
  return encodeIntoCompressedBase64(h);
}

/** Reads a histogram back from encodeHistogram's output. Throws a clear Error on bad input. */
export function decodeHistogram(b64: string): Histogram {
  try {
    return decodeFromCompressedBase64(b64, 32, false);
  } catch (err) {
    throw new Error(`not a valid encoded HDR histogram: ${(err as Error).message}`, { cause: err });
  }
}

/** Merges histograms into a new one (the inputs are left untouched). */
export function mergeHistograms(hs: Iterable<Histogram>): Histogram {
  const out = newHistogram();
  for (const h of hs) out.add(h);
  return out;
}

/** Merges encoded histograms, e.g. the same metric of several stored runs. */
export function mergeEncoded(b64s: Iterable<string>): Histogram {
  const out = newHistogram();
  for (const b of b64s) out.add(decodeHistogram(b));
  return out;
}

const ms = (micros: number) => Math.round(micros) / 1000;

/** p50 … max, mean and count of one histogram, in milliseconds (values recorded in µs). */
export function percentilesOf(h: Histogram): LatencyStats {
  const count = h.totalCount;
  if (count === 0) return { p50: 0, p90: 0, p95: 0, p99: 0, p999: 0, max: 0, mean: 0, count: 0 };
  return {
    p50: ms(h.getValueAtPercentile(50)),
    p90: ms(h.getValueAtPercentile(90)),
    p95: ms(h.getValueAtPercentile(95)),
    p99: ms(h.getValueAtPercentile(99)),
    p999: ms(h.getValueAtPercentile(99.9)),
    // The max bucket's highest equivalent value (as hdrhistogram-go's Max(), used by the reference), which
    // survives encode/decode unchanged; the exact max is not kept by the serialised form.
    max: ms(h.getValueAtPercentile(100)),
    mean: Math.round(h.mean) / 1000,
    count,
  };
}
