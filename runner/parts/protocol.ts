// The messages between a run's coordinator and its part processes (runner/parts/coordinator.ts forks
// part-main.ts and talks to it over Node's IPC channel). Every message is checked with its schema on arrival: a
// message of another shape fails the run naming what was wrong, never a guess.
import { z } from "zod";
import { PartSample } from "../../lib/measurement/parts";
import { RunSummary } from "../../lib/measurement/summary";

/** Coordinator → part. */
export const ToPart = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("run"),
    runId: z.string().min(1),
    /** The run's whole config (parsed again in the part with the workloads' schemas). */
    config: z.unknown(),
    targetUrl: z.string().min(1),
    /** The run's schema on the target, unquoted (pgbb_…): the coordinator created it and set the workload up. */
    schemaName: z.string().min(1),
    part: z.object({ index: z.number().int().nonnegative(), of: z.number().int().positive() }),
    /** Tests only: the liveness watch's shorter bounds (runner/pg/liveness.ts). */
    liveness: z.object({ silenceMs: z.number().optional(), probeTimeoutMs: z.number().optional() }).optional(),
    /** Tests only: block this part's event loop for `forMs` every `everyMs` while its load runs (a slowed part). */
    busyWaitForTest: z.object({ everyMs: z.number().positive(), forMs: z.number().nonnegative() }).optional(),
  }),
  /** A clock probe: `t` is the coordinator's clock when sent; the part answers with pong at once. */
  z.object({ type: z.literal("ping"), t: z.number() }),
  /**
   * The start barrier at `atMs` on the coordinator's clock, and this part's clock minus the coordinator's as the
   * probes measured it (`clockOffsetMs`, ± `uncertaintyMs`): the part corrects its clock by it before its load.
   */
  z.object({ type: z.literal("start"), atMs: z.number(), clockOffsetMs: z.number(), uncertaintyMs: z.number().nonnegative() }),
  /** The drain is over for every part: stop the readers at `atMs` (coordinator's clock, a whole second of the run,
   *  so every part cuts its last second alike, or has already sent it as one of its seconds). */
  z.object({ type: z.literal("drained"), atMs: z.number() }),
  /** Stop now (a cancel, or another part failed): the part stops its loops, closes its connections and exits. */
  z.object({ type: z.literal("stop"), reason: z.string() }),
]);
export type ToPart = z.infer<typeof ToPart>;

/** Part → coordinator. */
export const FromPart = z.discriminatedUnion("type", [
  z.object({ type: z.literal("pong"), t: z.number(), partClock: z.number() }),
  /** Connected, readers polling: `backendPids` are its connections' server pids (the coordinator's telemetry watches them). */
  z.object({
    type: z.literal("ready"),
    pid: z.number().int().positive(),
    host: z.string().min(1),
    backendPids: z.array(z.number().int()),
    /** The product it runs: every part of a run must run the coordinator's (absent: a version before this check). */
    product: z.object({ version: z.string(), commit: z.string() }).optional(),
  }),
  /** A second: `slotMs` is where the timeline ends it (ms after the barrier: a whole second, or a phase's end), the
   *  same in every part, so the coordinator pairs the parts' seconds by it. */
  z.object({ type: z.literal("sample"), slotMs: z.number().int(), sample: PartSample }),
  /** Its writers have finished (the drain's first step): the coordinator ends the drain only once every part's have. */
  z.object({ type: z.literal("writersDone") }),
  /** Its own window's summary (no telemetry, no whole-run verification), its workload's ledger, its CPU. */
  z.object({
    type: z.literal("done"),
    summary: RunSummary,
    ledger: z.record(z.string(), z.unknown()),
    cpuSeconds: z.number().nonnegative(),
    startSkewMs: z.number(),
  }),
  z.object({ type: z.literal("failed"), error: z.string() }),
]);
export type FromPart = z.infer<typeof FromPart>;

/** A message's schema problem in one line: where and what. */
export function shapeProblem(err: z.ZodError): string {
  const issue = err.issues[0];
  return `${issue?.path.join(".") || "(root)"}: ${issue?.message}`;
}
