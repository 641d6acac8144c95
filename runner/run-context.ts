// What a run's steps share (runner/run-steps.ts: preflight → setup → load → verify → teardown, run in order by
// runner/engine.ts runWorkload): the run's options, its failure plumbing, and what each step leaves for the next
// (the admin connection, the target's facts, the workload's instance, the loops' connections, the telemetry).
// The engine's public types live here too (runner/engine.ts re-exports them), so the steps need not import it.
import { randomBytes } from "node:crypto";
import type { Phase } from "../lib/measurement/metrics";
import type { SampleMetrics } from "../lib/measurement/sample";
import type { RunSummary } from "../lib/measurement/summary";
import type { ServerIdentity } from "../lib/targets/connect";
import { phasesOf, reconnectsOn } from "../lib/phases/shape";
import { payloadBytesOf, pacingOf, type WorkloadConfig } from "../lib/workloads/config";
import { runRoles, type WorkloadRun } from "../workloads/runtime";
import type { WorkloadModule } from "../workloads/runtime";
import type { WatchedFolder, DiskWatch } from "./disk-watch";
import { RunFootprint } from "./core/footprint";
import type { RunnerLoadMeter } from "./load-meter";
import { Pacer } from "./core/pacing";
import type { LivenessOptions } from "./pg/liveness";
import { ident, type TargetClient } from "./core/pg/pgclient";
import type { PartsForTest } from "./parts/coordinator";
import type { RemotePartsOptions } from "./parts/remote-parts";
import { RunControl } from "./run-control";
import type { TargetFacts } from "./run-summary";
import { RunStats, type Report } from "./core/stats";
import type { TelemetryRecorder } from "./telemetry/recorder";
import { clock } from "./core/timing";

export interface EngineSample {
  seq: number;
  phase: Phase;
  time: Date;
  metrics: SampleMetrics;
}

export interface EngineOptions {
  signal?: AbortSignal;
  onSample?: (s: EngineSample) => void | Promise<void>;
  onPhase?: (p: Phase) => void;
  log?: (line: string) => void;
  /** Every config.reportIntervalSeconds: rates and percentiles since the previous report (the CLI's live line). */
  onReport?: (r: Report) => void;
  /** Names the run's schema on the target: pgbb_<runId>. Default: pgbb_cli_<random>. */
  runId?: string;
  /** Longest drain in seconds (default 10). */
  drainSeconds?: number;
  /** Leave the schema on the target at the end (tests inspect it; the caller must drop it). */
  keepSchema?: boolean;
  /** Told the schema name once it exists (tests use it to tamper with a run). */
  onSchema?: (schema: string) => void;
  /** More folders whose disk is watched besides a local target's data (the runner adds the control store's). */
  watchDisks?: WatchedFolder[];
  /** Space kept free on each watched disk, in MiB (default: DISK_RESERVE_MB, else platform/disk.ts's rule). */
  diskReserveMb?: number;
  /** The app's control store, when the caller has one: a target that is its database is refused (lib/targets/connect.ts). */
  controlStore?: ServerIdentity | null;
  /** Collect server telemetry beside the run and judge what limited it (default true; runner/telemetry/). */
  telemetry?: boolean;
  /** Told every throttled write's due time, send time and end time (clock ms): tests check the schedule. */
  onScheduledWrite?: (due: number, sent: number, done: number) => void;
  /**
   * Tests only (never a setting of a run): blocks the runner's event loop for `forMs` every `everyMs` while the
   * load runs, as a busy runner would, to check that the run then calls itself client-bound.
   */
  busyWaitForTest?: { everyMs: number; forMs: number };
  /** Tests only: shorter bounds for declaring the target unresponsive (runner/pg/liveness.ts). */
  livenessForTest?: LivenessOptions;
  /** Tests only: a run over several processes with another part entry or shorter bounds (runner/parts/coordinator.ts). */
  partsForTest?: PartsForTest;
  /** A runner with a control store: parts past its RUNNER_MAX_LOCAL_PARTS go to other runners (runner/parts/remote-parts.ts). */
  remoteParts?: RemotePartsOptions;
  /** Without one: RUNNER_MAX_LOCAL_PARTS, to say that every part is forked here all the same. */
  maxLocalParts?: number;
}

/** Rejection of a run stopped by its AbortSignal. */
export class RunCancelled extends Error {
  /** What else happened on the way out (the target did not answer, the schema left behind), for the run's error. */
  readonly notes: string[] = [];
  constructor(message = "the run was cancelled") {
    super(message);
    this.name = "AbortError";
  }
}

/**
 * A cancelled run ends within this, whatever the target does: past it, every connection still open is destroyed.
 * Normally the liveness watch (runner/pg/liveness.ts) has found a stopped target, or the run ended, well before.
 */
export const CANCEL_DEADLINE_MS = 8000;

export function schemaNameFor(runId?: string): string {
  const base = runId ? runId.toLowerCase().replace(/[^a-z0-9_]/g, "_") : `cli_${randomBytes(4).toString("hex")}`;
  return `pgbb_${base}`.slice(0, 63);
}

/** The loud one-line error for a run whose verification failed, or null when it passed. */
export function verificationError(summary: RunSummary): string | null {
  const v = summary.verification;
  if (v.ok) return null;
  const shown = v.problems.slice(0, 5).join("; ");
  const more = v.problems.length > 5 ? `; and ${v.problems.length - 5} more` : "";
  return `verification FAILED: ${shown || "counts do not match the target"}${more}`;
}

export interface RunContext {
  readonly config: WorkloadConfig;
  readonly targetUrl: string;
  readonly opts: EngineOptions;
  readonly log: (line: string) => void;
  readonly control: RunControl;
  readonly startedAt: Date;
  readonly module: WorkloadModule<WorkloadConfig>;
  readonly stats: RunStats;
  /** The run's pacer, built from the definition's declared pacing. */
  readonly pacer: Pacer;
  readonly footprint: RunFootprint;
  /** The run's schema, unquoted (pgbb_…) and quoted. */
  readonly schemaName: string;
  readonly schema: string;
  readonly phase: Phase;
  setPhase(p: Phase): void;
  /** Fails the run when a watched disk is short of free space (checked once a second). */
  checkDisk(): void;
  // Left by the steps, in order:
  admin?: TargetClient;
  facts?: TargetFacts;
  /** The target's cluster folder, when a restart-target phase may restart it (checked at preflight). */
  restartDir?: string;
  diskWatch?: DiskWatch;
  schemaCreated: boolean;
  run?: WorkloadRun;
  /** The loops' connections (a run in one process). */
  clients: TargetClient[];
  meter?: RunnerLoadMeter;
  telemetry?: TelemetryRecorder;
  /** The samples handed to onSample, in order: awaited before the run ends. */
  sampleChain: Promise<void>;
}

/** A run's context before its first step, in the setup phase. */
export function newRunContext(config: WorkloadConfig, module: WorkloadModule<WorkloadConfig>, targetUrl: string, opts: EngineOptions): RunContext {
  const log = opts.log ?? (() => undefined);
  // A message broker's payload size (the others have none: their MiB/s reads 0).
  const stats = new RunStats(runRoles.groups(module, config as never), payloadBytesOf(config) ?? 0, clock);
  stats.onScheduledWrite = opts.onScheduledWrite;
  const schemaName = schemaNameFor(opts.runId);
  const ctx: RunContext = {
    ...{ config, targetUrl, opts, log, module, stats, schemaName, schema: ident(schemaName) },
    control: new RunControl(targetUrl, opts.livenessForTest),
    startedAt: new Date(),
    pacer: new Pacer(pacingOf(config), stats),
    footprint: new RunFootprint(log),
    phase: "setup",
    setPhase(p) {
      (ctx as { phase: Phase }).phase = p;
      opts.onPhase?.(p);
    },
    checkDisk() {
      const full = ctx.diskWatch?.check();
      if (full) ctx.control.fail(new Error(full));
    },
    schemaCreated: false,
    clients: [],
    sampleChain: Promise.resolve(),
  };
  // A run whose phases take connections from under its loops (kill-backend) has them reconnect: known before set-up,
  // which gives the workload its ctx.reconnect, and before the loops' connections open (on control.loopWatch).
  ctx.control.reconnects = reconnectsOn(phasesOf(config));
  ctx.setPhase("setup");
  return ctx;
}

/**
 * Fails the run on its signal's abort: at once, with the target probed urgently, and every connection destroyed
 * past CANCEL_DEADLINE_MS. Returns the function that stops listening.
 */
export function cancelOnAbort(ctx: RunContext): () => void {
  const { signal } = ctx.opts;
  const { control } = ctx;
  let deadline: NodeJS.Timeout | undefined;
  const onAbort = () => {
    control.fail(new RunCancelled());
    control.liveness.urgent();
    deadline = setTimeout(
      () => control.liveness.destroyAll(new Error(`the run did not stop within ${CANCEL_DEADLINE_MS / 1000} s of the cancel`)),
      CANCEL_DEADLINE_MS,
    );
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  return () => {
    clearTimeout(deadline);
    signal?.removeEventListener("abort", onAbort);
  };
}
