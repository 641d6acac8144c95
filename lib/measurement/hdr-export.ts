// A run's latency histograms in HdrHistogram's own formats (issue 33: the full histogram to download, not a summary):
// the interval log (`.hlog`, "Histogram log format version 1.3", which HistogramLogProcessor, HistogramLogAnalyzer
// and every HdrHistogram port's log reader read) and the percentile distribution (`.hgrm`, HdrHistogram's
// outputPercentileDistribution text, which the plotting tools read). Both hold the merged histogram of the measured
// window that the summary's percentiles are read from (./histogram.ts). Browser-safe.
import { HistogramLogWriter } from "hdr-histogram-js";
import { decodeHistogram } from "./histogram";
import { LATENCY_KINDS, type LatencyKind } from "./metrics";
import type { RunSummary } from "./summary";

/** The histograms recorded in µs; the `.hgrm` and the `.hlog`'s max column are in ms, as every figure the product shows. */
const MICROS_PER_MS = 1000;

export const HISTOGRAM_FORMATS = ["hlog", "hgrm"] as const;
export type HistogramFormat = (typeof HISTOGRAM_FORMATS)[number];

/** One of a run's histograms: the operation, the latency's kind, and its file name's stem (`e2e.fromSchedule`). */
export interface HistogramRef {
  operation: string;
  kind: LatencyKind;
  name: string;
}

/** Every histogram a summary holds, in a stable order. */
export function histogramsOf(summary: Pick<RunSummary, "histograms">): HistogramRef[] {
  return Object.entries(summary.histograms).flatMap(([operation, kinds]) =>
    LATENCY_KINDS.filter((k) => kinds[k]).map((kind) => ({ operation, kind, name: `${operation}.${kind}` })),
  );
}

/** Parses `e2e.fromSchedule.hlog` into the histogram and the format; null when it names neither. */
export function parseHistogramFile(file: string): { operation: string; kind: LatencyKind; format: HistogramFormat } | null {
  const m = /^([A-Za-z][\w-]*)\.(fromSend|fromSchedule|writerLag)\.(hlog|hgrm)$/.exec(file);
  return m ? { operation: m[1], kind: m[2] as LatencyKind, format: m[3] as HistogramFormat } : null;
}

/** The `.hgrm` text: percentiles at 5 ticks per half distance (HdrHistogram's default), values in milliseconds. */
export function hgrmOf(encoded: string): string {
  return decodeHistogram(encoded).outputPercentileDistribution(5, MICROS_PER_MS);
}

/**
 * The `.hlog` text: the format version, the start time (the measured window's start, as the run's start plus its
 * warm-up), the legend, and one interval, the measured window's merged histogram tagged `<operation>.<kind>`, its
 * values in µs (the comment says so: HistogramLogProcessor's -outputValueUnitRatio 1000 prints them in ms). The
 * runner keeps no per-second histograms, so the window is one interval.
 */
export function hlogOf(summary: Pick<RunSummary, "histograms" | "manifest" | "window" | "workload">, ref: Pick<HistogramRef, "operation" | "kind">): string {
  const encoded = summary.histograms[ref.operation]?.[ref.kind];
  if (!encoded) throw new Error(`the run has no ${ref.operation} ${ref.kind} histogram`);
  const h = decodeHistogram(encoded);
  h.tag = `${ref.operation}.${ref.kind}`;
  let text = "";
  const writer = new HistogramLogWriter((s) => {
    text += s;
  });
  const startMs = Date.parse(summary.manifest.startedAt) + summary.window.warmupSeconds * 1000;
  writer.outputComment(`pg-broker-bench ${summary.workload} run: ${ref.operation} latency (${ref.kind}), values in microseconds`);
  writer.outputComment(`the merged histogram of the measured window, ${summary.window.measuredSeconds.toFixed(3)} s; the interval's max column in ms`);
  writer.outputLogFormatVersion();
  writer.outputStartTime(startMs);
  writer.outputLegend();
  writer.outputIntervalHistogram(h, 0, summary.window.measuredSeconds, MICROS_PER_MS);
  return text;
}
