// The summary of a finished run: one documented schema, written by the runner into Run.summary and
// by `bench --json`, read by every page, the compare view and the exports.
import { PhaseReport } from "../phases/report";
import { z } from "zod";
import { GroupFigures, Histograms, Operations } from "./metrics";
import { isOldSummary, upgradeSummary } from "./upgrade";
import { SummaryRunnerLoad } from "./runner-load";
import { SummaryPart } from "./part-figures";
import { BACKOFF_MODES, WorkloadConfig, workloadDefinition, workloadDefinitions, type WorkloadKind } from "../workloads/config";
import { RunTelemetry } from "../telemetry/report";
import { Verification, withVerificationUnit } from "./verification";
import { ClusterShape } from "../targets/replicated-shape";

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
  /** Runner CPU milliseconds per 1,000 of the workload's counted items in the measured window (operations.ts
   *  countedItems: messages written and read, rows inserted, requests, workflows), in their unit. Absent when none
   *  were counted. */
  runnerCpuMsPer1000: z.object({ ms: z.number(), unit: z.string(), operations: z.array(z.string()) }).optional(),
  /** Which clock e2e latency is measured on. */
  e2eClock: z.string(),
  /**
   * The readers' back-off after an empty poll (config.backoff), recorded so compare can tell runs apart. Absent in
   * runs recorded before it was a setting: those slept the nominal back-off, whatever their parsed config says.
   */
  backoff: z.enum(BACKOFF_MODES).optional(),
  /** A run carried by several runner processes: per part its host, pid, start skew, clock offset, rates and load
   *  (lib/measurement/merge-summaries.ts); runnerHost then names every host. Absent for one process. */
  parts: z.array(SummaryPart).optional(),
  /** The worst-loaded part, whose load the summary's `runnerLoad` is (the client check is per part). */
  worstPart: z.number().int().nullable().optional(),
  /** The embedded replicated target's shape when the run used it (CLI --replicas): standbys, sync names, delay. */
  cluster: ClusterShape.optional(),
});
export type Manifest = z.infer<typeof Manifest>;

/** A summary's histograms (./metrics.ts, where the recorder that writes them reads their shape). */
export { Histograms };

const RunSummaryV2 = z.object({
  schemaVersion: z.literal(2),
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
  /** What each declared operation did in the measured window, by its name: counts, rate over the window's real
   *  length, errors, and percentiles from its merged histograms (lib/measurement/metrics.ts OperationFigures). */
  operations: Operations,
  /** Per consumer group (pub/sub fan-out; the queue's one group): the same figures, and its histograms. */
  groups: z.array(GroupFigures.extend({ histograms: Histograms.optional() })).optional(),
  verification: Verification,
  /** Whole-run counts (warm-up, measured window and drain), which verification compares with the target's rows. */
  totals: z
    .object({
      /** Items each operation counted over the whole run, by name: what verification compares with the target. */
      operations: z.record(z.string(), z.number().int()),
      /** What the workload declares of its own: `unreadAtEnd` (items still waiting after the drain), `drainSeconds`
       *  (how long the drain, writers stopped and readers catching up, took). */
      measures: z.record(z.string(), z.number()),
    })
    .optional(),
  /** The runner's own load over the measured window and whether it distorted the latencies (lib/measurement/runner-load.ts).
   *  Absent in runs recorded before it was measured. */
  runnerLoad: SummaryRunnerLoad.optional(),
  /** What the server was doing over the measured window and what limited the run (lib/telemetry/report.ts); with
   *  standbys, each one's lag and the replication events (./summary-replication.ts reads them). Absent in runs
   *  recorded before telemetry, or run with it off. */
  telemetry: RunTelemetry.optional(),
  /** Remarks about this run's measurement, e.g. why a metric is missing. */
  notes: z.array(z.string()).optional(),
  /** What each of its fault and bloat phases did and cost (lib/phases/report.ts). Absent: the run had none. */
  phases: z.array(PhaseReport).optional(),
  histograms: Histograms,
});
export type RunSummary = z.infer<typeof RunSummaryV2>;

/** The old shape's broker counters belong to a workload when it declares an operation of their name. */
function upgrade(s: Record<string, unknown>) {
  const model = workloadDefinition(String(s.workload))?.metrics;
  const op = (name: string) => model?.operations.find((o) => o.name === name);
  return upgradeSummary(
    s,
    (name) => !!op(name),
    (name) => op(name)?.unit,
  );
}

/** A finished run's summary; stored summaries of schemaVersion 1 are converted when read (./upgrade.ts), and an old
 *  verification takes its unit from the run's workload (./verification.ts withVerificationUnit). */
export const RunSummary = z.preprocess((s) => withVerificationUnit(isOldSummary(s) ? upgrade(s) : s), RunSummaryV2);
