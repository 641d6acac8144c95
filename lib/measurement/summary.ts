// The summary of a finished run: one documented schema, written by the runner into Run.summary and
// by `bench --json`, read by every page, the compare view and the exports.
import { z } from "zod";
import { LatencyByMetric, Throughput } from "./metrics";
import { SummaryRunnerLoad } from "./runner-load";
import { BACKOFF_MODES, WorkloadConfig, workloadDefinition, workloadDefinitions, type WorkloadKind } from "../workloads/config";
import { RunTelemetry } from "../telemetry/report";
import { Verification, withVerificationUnit } from "./verification";

export const Manifest = z.object({
  postgresVersion: z.string(),
  /** Settings whose source is not 'default' (pg_settings), name → value with unit. */
  serverSettings: z.record(z.string(), z.string()),
  maxConnections: z.number().int(),
  /**
   * The server's address as the runner reached it (inet_server_addr()): "127.0.0.1" or "::1" when Postgres runs
   * on the runner's own machine, null over a Unix socket (also local). Absent in runs recorded before it was kept.
   */
  serverAddress: z.string().nullable().optional(),
  /**
   * Whether Postgres ran on the runner's own machine (serverAddress a loopback address or one of the machine's
   * own, or a Unix socket): runner and target then share its cores, and each one's load slows the other.
   * Absent in runs recorded before it was kept.
   */
  targetOnRunnerMachine: z.boolean().optional(),
  runnerHost: z.string(),
  runnerCores: z.number().int(),
  runnerCpuModel: z.string(),
  nodeVersion: z.string(),
  productVersion: z.string(),
  productCommit: z.string(),
  startedAt: z.string(),
  endedAt: z.string(),
  /** CPU seconds (user + system) the runner process used during the measured window. */
  runnerCpuSeconds: z.number(),
  /** runnerCpuSeconds per 1,000 messages (writes + reads) in the measured window. */
  runnerCpuMsPer1000Msgs: z.number(),
  /** Which clock e2e latency is measured on. */
  e2eClock: z.string(),
  /**
   * The readers' back-off after an empty poll (config.backoff), recorded so compare can tell runs apart. Absent in
   * runs recorded before it was a setting: those slept the nominal back-off, whatever their parsed config says.
   */
  backoff: z.enum(BACKOFF_MODES).optional(),
});
export type Manifest = z.infer<typeof Manifest>;

export const GroupSummary = Throughput.extend({ group: z.string(), latencyMs: LatencyByMetric, emptyPolls: z.number().int() });

const RunSummaryObject = z.object({
  schemaVersion: z.literal(1),
  workload: z.custom<WorkloadKind>((v) => typeof v === "string" && workloadDefinition(v) !== undefined, {
    error: (iss) =>
      `workload "${String(iss.input)}" is not one this version knows (${workloadDefinitions()
        .map((d) => d.kind)
        .join(", ")})`,
  }),
  config: WorkloadConfig,
  manifest: Manifest,
  window: z.object({
    /** Real length of the measured window (warm-up excluded), which rates are divided by. */
    measuredSeconds: z.number(),
    warmupSeconds: z.number(),
  }),
  writes: Throughput,
  /** Reads summed over consumer groups (pubsub fan-out counts each group's read). */
  reads: Throughput.extend({ emptyPolls: z.number().int(), perGroup: z.array(GroupSummary) }),
  latencyMs: LatencyByMetric,
  /** Measured-window rates of declared operations other than write and read, by name (as SampleMetrics.rates). */
  rates: z.record(z.string(), Throughput).optional(),
  verification: Verification,
  /** Whole-run counts (warm-up, measured window and drain), which verification compares with the target's rows. */
  totals: z
    .object({
      writes: z.number().int(),
      reads: z.number().int(),
      /** Messages written but not read by the end of the drain (pubsub: summed over groups; queue: still queued). */
      unreadAtEnd: z.number().int(),
      /** How long the drain (writers stopped, readers catching up) took, in seconds. */
      drainSeconds: z.number(),
      /** Whole-run counts of the declared operations other than write and read, by name (as `rates`, warm-up and
       *  drain included): what verification compares with the target. Absent in runs recorded before. */
      operations: z.record(z.string(), z.number().int()).optional(),
    })
    .optional(),
  /** The runner's own load over the measured window and whether it distorted the latencies (lib/measurement/runner-load.ts).
   *  Absent in runs recorded before it was measured. */
  runnerLoad: SummaryRunnerLoad.optional(),
  /** What the server was doing over the measured window and what limited the run (lib/telemetry/report.ts).
   *  Absent in runs recorded before telemetry, or run with it off. */
  telemetry: RunTelemetry.optional(),
  /** Remarks about this run's measurement, e.g. why a metric is missing. */
  notes: z.array(z.string()).optional(),
  /** Cumulative HDR histograms of the measured window (values in microseconds), base64 compressed
   *  (hdr-histogram-js encodeIntoCompressedBase64), so runs can be merged and re-read later. */
  histograms: z.record(z.string(), z.string()),
});
// An old verification takes its unit from the run's workload (./verification.ts withVerificationUnit).
export const RunSummary = z.preprocess(withVerificationUnit, RunSummaryObject);
export type RunSummary = z.infer<typeof RunSummary>;
