// The CLI's live line (EngineOptions.onReport) of a run over several processes: every report interval, the parts'
// seconds since the previous report merged exactly (their histograms added), as one process's RunStats.report.
import { decodeHistogram, percentilesOf } from "../../lib/measurement/histogram";
import type { LatencyByMetric, Phase } from "../../lib/measurement/metrics";
import { mergePartOperations, type PartSample } from "../../lib/measurement/parts";
import { loadOverSamples, type SampleRunnerLoad } from "../../lib/measurement/runner-load";
import type { SampleMetrics } from "../../lib/measurement/sample";
import type { Report } from "../core/stats";

/** A latency kind's metric name as a report keys it (metrics.ts latencyAddress, the other way round). */
const metricName = (operation: string, kind: string) => (kind === "fromSend" ? operation : kind === "writerLag" ? "writerLag" : `${operation}Scheduled`);

export class LiveReports {
  private seconds: PartSample[] = [];
  private loads: { load: SampleRunnerLoad; sec: number }[] = [];
  private sec = 0;
  private lastAt = 0;
  private errors = 0;

  constructor(
    private readonly everySec: number,
    /** The main operation, whose p50 the runner's loop delay is judged against (the engine's rule). */
    private readonly mainOp: string | undefined,
    private readonly onReport: (r: Report) => void,
  ) {}

  /** One merged second: its parts' samples and the merge. Reports once a report interval has passed. */
  add(parts: readonly PartSample[], merged: SampleMetrics, phase: Phase) {
    this.seconds.push(...parts);
    this.sec += merged.intervalSec;
    for (const o of Object.values(merged.operations)) this.errors += o.errors;
    if (merged.runnerLoad) this.loads.push({ load: merged.runnerLoad, sec: merged.intervalSec });
    if (merged.elapsedSec - this.lastAt < this.everySec - 0.05) return;
    this.lastAt = merged.elapsedSec;
    const ops = mergePartOperations(this.seconds);
    const latencyMs: LatencyByMetric = {};
    const rates: Record<string, number> = {};
    for (const [name, o] of Object.entries(ops)) {
      rates[name] = o.count / this.sec;
      for (const [kind, b64] of Object.entries(o.histograms)) if (b64) latencyMs[metricName(name, kind)] = percentilesOf(decodeHistogram(b64));
    }
    const runnerLoad = loadOverSamples(this.loads, this.mainOp ? latencyMs[this.mainOp]?.p50 : undefined);
    this.onReport({
      elapsedSec: merged.elapsedSec,
      intervalSec: this.sec,
      phase,
      writesPerSec: rates.write ?? 0,
      readsPerSec: rates.read ?? 0,
      backlog: merged.measures.backlog ?? 0,
      errors: this.errors,
      latencyMs,
      rates,
      ...(runnerLoad ? { runnerLoad } : {}),
    });
    this.seconds = [];
    this.loads = [];
    this.sec = 0;
  }
}
