// The engine: runs one workload against a target and returns its summary. Used by the runner process
// (runs claimed from the control store), the CLI and the benchmark scripts alike.
//
// Steps (./run-steps.ts, over one ./run-context.ts RunContext): preflight → setup → load → verify → teardown.
// The load is this process's own (./local-load.ts) or carried by config.processes parts (./parts/coordinator.ts);
// either way it is ./load.ts runLoad: warmup (if warmupSeconds > 0) → measuring (durationSeconds) → draining
// (writers stopped, readers catch up until the backlog is 0 or drainSeconds pass). One sample per second through
// onSample. The summary covers exactly the measured window.
import type { RunSummary } from "../lib/measurement/summary";
import type { WorkloadConfig } from "../lib/workloads/config";
import { partsProblem } from "../lib/workloads/parts";
import { longRunRunProblem } from "../lib/workloads/long-run";
import { runnerOf } from "../workloads/runners";
import { drainLimitOf, loadHere } from "./local-load";
import { coordinate } from "./parts/coordinator";
import { CANCEL_DEADLINE_MS, cancelOnAbort, type EngineOptions, newRunContext, RunCancelled, type RunContext } from "./run-context";
import type { LoadOutcome } from "./load-outcome";
import { closeRun, failedRun, preflight, setup, teardown, verify } from "./run-steps";
import { sessionSettingsOf, withSessionSettings } from "./session-options";

export { isLocalAddress } from "./run-summary";
export {
  CANCEL_DEADLINE_MS,
  type EngineOptions,
  type EngineSample,
  RunCancelled,
  schemaNameFor,
  verificationError,
} from "./run-context";

export async function runWorkload(config: WorkloadConfig, targetUrl: string, opts: EngineOptions = {}): Promise<RunSummary> {
  // Over several processes each part owns a whole piece of the load: a config that cannot be split is refused first.
  const unsplittable = partsProblem(config);
  if (unsplittable) throw new Error(unsplittable);
  const longRun = longRunRunProblem(config, opts.telemetry !== false);
  if (longRun) throw new Error(longRun);
  if (opts.signal?.aborted) throw new RunCancelled();
  // Every connection of the run starts with its session settings (synchronous_commit): they ride on the URL.
  const ctx = newRunContext(config, await runnerOf(config), withSessionSettings(targetUrl, sessionSettingsOf(config)), opts);
  const stopListening = cancelOnAbort(ctx);
  try {
    await preflight(ctx);
    await setup(ctx);
    const load = (config.processes ?? 1) > 1 ? await loadOverParts(ctx) : await loadHere(ctx);
    const summary = await verify(ctx, load);
    await teardown(ctx);
    // A cancel (Ctrl-C) that came while verifying or dropping the schema ends the run as cancelled, as in any phase.
    ctx.control.check();
    ctx.setPhase("done");
    return summary;
  } catch (err) {
    throw await failedRun(ctx, err);
  } finally {
    stopListening();
    await closeRun(ctx);
  }
}

/** The load carried by config.processes part processes: this process coordinates them and runs no load itself. */
async function loadOverParts(ctx: RunContext): Promise<LoadOutcome> {
  const { config, control, opts } = ctx;
  const outcome = await coordinate({
    ...{ config, targetUrl: ctx.targetUrl, schemaName: ctx.schemaName, run: ctx.run!, stats: ctx.stats, facts: ctx.facts!, log: ctx.log },
    ...{ setPhase: ctx.setPhase, failed: control.failed, fail: control.fail, drainSeconds: drainLimitOf(ctx) },
    ...{ runId: opts.runId ?? ctx.schemaName, onSample: opts.onSample, onReport: opts.onReport, telemetry: opts.telemetry !== false },
    ...{ cancelled: () => control.failure instanceof RunCancelled, cancelDeadlineMs: CANCEL_DEADLINE_MS, track: (tc) => control.liveness.add(tc) },
    ...{ liveness: opts.livenessForTest, forTest: opts.partsForTest, everySecond: () => ctx.checkDisk() },
    ...{ remote: opts.remoteParts, maxLocalParts: opts.maxLocalParts },
  });
  ctx.telemetry = outcome.telemetry;
  return outcome;
}
