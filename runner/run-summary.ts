// A run's summary from what one process measured: its measured window's figures, the manifest, the runner's own
// load and the notes. The engine builds a one-process run's summary with it, and each part of a run over several
// processes its own (runner/parts/part-main.ts), which the coordinator merges.
import type { PhaseReport } from "../lib/phases/report";
import { execFileSync } from "node:child_process";
import os from "node:os";
import type { Operations } from "../lib/measurement/metrics";
import { countedItems, latenciesOf, throughputOf } from "../lib/measurement/operations";
import { runnerLoadText } from "../lib/measurement/runner-load";
import { rateMetOf } from "../lib/measurement/headline";
import type { Manifest, RunSummary } from "../lib/measurement/summary";
import type { Verification } from "../lib/measurement/verification";
import { PRODUCT_VERSION } from "../lib/env";
import { PROJECT_ROOT } from "../lib/paths";
import type { RunTelemetry } from "../lib/telemetry/report";
import type { ClientInput } from "../lib/telemetry/verdict";
import { backoffOf, definitionOf, type WorkloadConfig } from "../lib/workloads/config";
import type { RunnerLoadMeter } from "./load-meter";
import type { ScheduleWatch } from "./core/schedule-watch";
import type { RunStats } from "./core/stats";
import { E2E_CLOCK } from "./core/timing";
import { agree, countWords } from "../lib/words";

export interface TargetFacts {
  postgresVersion: string;
  serverSettings: Record<string, string>;
  maxConnections: number;
  serverAddress: string | null;
}

let commitCache: string | undefined;
/** The product's commit: PGBB_COMMIT when set (an image built without .git can be given it), else git's HEAD. */
export function productCommit(): string {
  if (commitCache === undefined && process.env.PGBB_COMMIT?.trim()) commitCache = process.env.PGBB_COMMIT.trim();
  if (commitCache === undefined) {
    try {
      commitCache = execFileSync("git", ["rev-parse", "HEAD"], { cwd: PROJECT_ROOT, timeout: 3000, stdio: ["ignore", "pipe", "ignore"] })
        .toString()
        .trim();
    } catch {
      commitCache = "unknown";
    }
  }
  return commitCache;
}

/** Whether the target's address (inet_server_addr(); null over a Unix socket) is this machine's own. */
export function isLocalAddress(addr: string | null): boolean {
  if (addr === null || /^(127\.|::1$|::ffff:127\.)/.test(addr)) return true;
  const own = Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
  return own.includes(addr.replace(/^::ffff:/, ""));
}

export interface OwnSummaryInput {
  config: WorkloadConfig;
  stats: RunStats;
  meter: RunnerLoadMeter;
  facts: TargetFacts;
  startedAt: Date;
  /** The runner's CPU over the measured window (s). */
  cpuSeconds: number;
  /** The workload's remarks (WorkloadRun.notes). */
  runNotes: readonly string[];
  schedule: ScheduleWatch | null;
  /** How long the drain took, and its limit (s). */
  drainSeconds: number;
  drainLimitSeconds: number;
  verification: Verification;
  unreadAtEnd: number;
  /** Finishes the run's telemetry with the runner's numbers over the window (absent: no telemetry). */
  telemetry?: (client: ClientInput, window: { operations: Operations }) => Promise<RunTelemetry | undefined>;
  /** What each of the run's fault and bloat phases did and cost (runner/phases/driver.ts); absent: it had none. */
  phases?: PhaseReport[];
}

/** The summary of the measured window this process recorded (checked against its schema by the caller). */
export async function ownSummary(i: OwnSummaryInput): Promise<RunSummary> {
  const { config, stats, meter, facts, cpuSeconds, schedule, unreadAtEnd, verification } = i;
  const endedAt = new Date();
  const measuredSeconds = stats.measuredSeconds();
  // Each operation's figures over the measured window, per consumer group too, and the histograms (runner/core/stats.ts).
  const window = stats.windowFigures(measuredSeconds);
  const latencyMs = latenciesOf(window);
  const writes = throughputOf(window, "write") ?? { count: 0, perSecond: 0 };
  const counted = countedItems(definitionOf(config).metrics);
  const items = counted?.operations.reduce((n, name) => n + (window.operations[name]?.count ?? 0), 0) ?? 0;
  const cpus = os.cpus();
  const manifest: Manifest = {
    ...facts,
    runnerHost: os.hostname(),
    runnerCores: cpus.length,
    runnerCpuModel: cpus[0]?.model?.trim() ?? "unknown",
    nodeVersion: process.version,
    productVersion: PRODUCT_VERSION,
    productCommit: productCommit(),
    startedAt: i.startedAt.toISOString(),
    endedAt: endedAt.toISOString(),
    runnerCpuSeconds: round(cpuSeconds, 3),
    ...(counted && items > 0 ? { runnerCpuMsPer1000: { ms: round((cpuSeconds * 1000) / (items / 1000), 3), ...counted } } : {}),
    targetOnRunnerMachine: isLocalAddress(facts.serverAddress),
    e2eClock: E2E_CLOCK,
    backoff: backoffOf(config),
  };
  // Judged against the workload's first timed operation (the broker's write): the shortest latency a delay
  // distorts the most, and the one every workload has.
  const mainOp = definitionOf(config).metrics.operations.find((o) => o.latency);
  const mainLatency = mainOp ? latencyMs[mainOp.name] : undefined;
  const runnerLoad = meter.summary(mainOp && mainLatency ? { metric: mainOp.label, p99: mainLatency.p99, p50: mainLatency.p50 } : null);
  // The verdict judges the runner by the very numbers the runner-load check judged (one rule, CLIENT_RULE).
  const runTelemetry = await i.telemetry?.(
    {
      cpuPct: 100 * runnerLoad.cpuCores,
      exposedDelayMs: runnerLoad.exposedDelayMs,
      ...(runnerLoad.eventLoopUtilization !== undefined ? { eventLoopUtilization: runnerLoad.eventLoopUtilization } : {}),
      ...(runnerLoad.runQueueWaitMsPerSec !== undefined ? { runQueueWaitMsPerSec: runnerLoad.runQueueWaitMsPerSec } : {}),
      ...(runnerLoad.judgedAgainst ? { mainP99Ms: runnerLoad.judgedAgainst.p99 } : {}),
      // The longest delay: what "these latencies include up to N ms of the runner's own delay" says, as the note does.
      eventLoopDelayMaxMs: runnerLoad.loopDelayMs.max,
      // The operation's own service time: a loop delay is starvation when it reaches it (not a p99 it blew up).
      ...(mainLatency && mainLatency.count > 0 && mainLatency.p50 > 0 ? { serviceMs: runnerLoad.judgedAgainst?.p50 } : {}),
    },
    window,
  );
  const errorNotes = stats.errorCounts().map((e) => `error ×${e.count}: ${e.message}`);
  return {
    schemaVersion: 2,
    workload: config.kind,
    config,
    manifest,
    window: { measuredSeconds, warmupSeconds: config.warmupSeconds },
    operations: window.operations,
    ...(window.groups.length ? { groups: window.groups } : {}),
    verification,
    ...(runTelemetry ? { telemetry: runTelemetry } : {}),
    ...(i.phases?.length ? { phases: i.phases } : {}),
    totals: {
      operations: window.totals,
      measures: { ...(window.groups.length || unreadAtEnd > 0 ? { unreadAtEnd } : {}), drainSeconds: round(i.drainSeconds, 3) },
    },
    runnerLoad,
    notes: [
      // The runner's load by its role: the limit (client-bound) only when it was at its limit and the rate was missed;
      // otherwise a caution on the latencies (runner-load.ts runnerRole). The verdict applies the same rule.
      ...[runnerLoadText(runnerLoad, rateMetOf(config, window))].filter((t): t is string => t !== undefined),
      ...i.runNotes,
      ...(schedule?.notes(latencyMs.writeScheduled?.max ?? 0, writes.count, measuredSeconds) ?? []),
      ...(stats.unreadableStamps > 0
        ? [
            `${countWords(stats.unreadableStamps, "message")} carried an e2e time stamp that could not be read (payload not in bytea hex form, or not a clock reading of this run): they are not in the e2e latency`,
          ]
        : []),
      ...(unreadAtEnd > 0 ? [unreadNote(unreadAtEnd, i.drainLimitSeconds)] : []),
      ...errorNotes.slice(0, 20),
    ],
    histograms: window.histograms,
  };
}

/** The note of messages still unread when the drain ended. */
export const unreadNote = (unread: number, drainLimitSeconds: number) =>
  `${countWords(unread, "message")} ${agree(unread, "were", "was")} still unread when the ${drainLimitSeconds} s drain ended (readers did not keep up)`;

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
