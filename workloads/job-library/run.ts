// A queue-library run (server-only), whatever the library: its tables installed in the run's schema, jobs enqueued
// through its public API, its workers started and stopped, each job recorded and verified. The library supplies
// those steps (JobLibrary); this file is the run's shape in both modes.
//
// rate: the workers start with the run's readers (before the load), and the enqueuers enqueue on the engine's open-
// loop timetable (runner/core/open-loop.ts), each job carrying its scheduled time, so the handler times it from
// its schedule to its start ("start") and to its return (the delivery, "e2e"), coordinated omission included.
// drain: the run's one connection pre-loads the jobs in batches through the library's bulk API when the load
// starts, then the workers start, and the measured window ends once every job ran (or at its length). The drain's
// throughput is the jobs over the time from the workers' start to the last job's return.
import type pg from "pg";
import { countWords } from "../../lib/words";
import { OpenLoop, type Slot, type TargetClient, drainNotes } from "../../runner/core";
import { errorMessage, type Ledger, stepFailed, type WorkloadContext, type WorkloadModule, type WorkloadRun, type WorkloadVerification } from "../runtime";
import type { WorkloadConfig } from "../../lib/workloads/config";
import type { JobConfig } from "./fields";
import { JobLedger, type JobPayload } from "./ledger";

/** What a library does for a run, through its public API. */
export interface JobLibrary {
  /** Its name and where its jobs wait, for messages ("graphile-worker's jobs table"). */
  readonly queueName: string;
  /** Installs its tables in the run's schema (unquoted name), as its own migrations do. */
  install(schemaName: string): Promise<void>;
  /** Enqueues one job on the run's connection (an enqueuer's). */
  enqueue(tc: TargetClient, job: JobPayload): Promise<void>;
  /** Enqueues a batch (a drain's pre-load) through its bulk API on the run's connection. */
  enqueueMany(tc: TargetClient, jobs: JobPayload[]): Promise<void>;
  /** Starts its workers; each job's payload goes to `handle`, which the job awaits. */
  startWorkers(handle: JobHandler): Promise<void>;
  /** Stops its workers gracefully, jobs in hand finished and marked done (bounded: never hangs). */
  stopWorkers(): Promise<void>;
  /** Stops taking jobs for a pause-workers phase, jobs in hand finished, until startWorkers again; absent: stopWorkers. */
  pauseWorkers?(): Promise<void>;
  /** The seqs of jobs still waiting in its queue (not done), read with SQL on its tables. */
  waitingSeqs(admin: pg.Client, schema: string): Promise<number[]>;
}

/** Where a worker hands each job it runs (the workload times and counts it there), and whether the library runs it
 *  again after an attempt it failed itself (its retry count): the ledger's record of a run again in doubt. */
export type JobHandler = (job: JobPayload, attempt: { retried: boolean }) => void;

/** A queue library's parsed config (graphile-worker's or pg-boss's). */
type JobWorkloadConfig = Extract<WorkloadConfig, JobConfig>;

/** Jobs per pre-load batch in a drain: the libraries' bulk calls take arrays; one call per batch. */
const PRELOAD_BATCH = 1000;

/** The run's operations: the enqueue, the job done (with the backlog between them), its start and its end. */
function jobOperations(ctx: WorkloadContext<JobWorkloadConfig>) {
  const { stats } = ctx;
  return {
    write: stats.op("write"),
    read: stats.perGroup("read", { drains: { operation: "write" } })[0],
    start: stats.op("start", { counted: false }),
    e2e: stats.perGroup("e2e", { counted: false })[0],
  };
}

export function createJobRun(ctx: WorkloadContext<JobWorkloadConfig>, lib: JobLibrary): WorkloadRun {
  const { config: c, pacer } = ctx;
  const ops = jobOperations(ctx);
  const ledger = new JobLedger();
  const notes: string[] = [];
  const now = () => pacer.clock.now();
  const drain = { startedAt: 0, lastDoneAt: 0, preloadSeconds: 0 };

  const handle: JobHandler = (job, attempt) => {
    const at = now();
    if (job.due !== null) ops.start.span(job.due, at);
    ledger.ran(job.seq);
    if (attempt.retried) ledger.retried.add(job.seq);
    // A no-op job: it is done when its handler returns, which is now; the library then marks it complete.
    ops.read.answered(at);
    if (job.due !== null) ops.e2e.span(job.due, now());
    drain.lastDoneAt = at;
  };

  /** Set once the workers start: resolves when they have stopped, after the readers are told to stop. */
  let workersStopped: Promise<void> = Promise.resolve();
  const startWorkers = async () => {
    await lib.startWorkers(handle);
    workersStopped = superviseWorkers(ctx, lib, handle);
  };
  const readers = {
    start: async () => {
      if (c.mode === "rate") await startWorkers();
    },
    done: () => workersStopped,
  };

  const enqueueOne = async (tc: TargetClient, slot: Slot) => {
    const seq = ledger.next();
    const sent = ops.write.send();
    try {
      await lib.enqueue(tc, { seq, due: slot.due });
    } catch (err) {
      ledger.failed.add(seq);
      // Already in doubt in the ledger (any failed enqueue is); a lost connection is reopened in a run that reconnects.
      return !(await stepFailed(ctx, tc, err, { what: "enqueue", count: () => ops.write.failed(1), noTransaction: true, pause: null, stop: ctx.writersStop }));
    }
    ops.write.answered(sent, 1, slot);
    return true;
  };
  const loop = c.mode === "rate" ? new OpenLoop(pacer, ctx, 1, enqueueOne) : null;
  let preloaded: Promise<void> = Promise.resolve();
  /** On the coordinating instance of a run driven in parts: the parts' ledgers, merged (absorb). */
  let absorbed: JobLedger | null = null;

  return {
    roles: c.mode === "rate" ? Array.from({ length: c.enqueuers }, (_, i) => `enqueuer ${i + 1}`) : ["loader"],
    notes,
    readers,
    async setup() {
      await lib.install(ctx.schema.replace(/^"|"$/g, ""));
    },
    startWriters(clients) {
      if (loop) return loop.start(clients);
      preloaded = preload(clients[0]);
    },
    writersDone: () => (loop ? loop.done() : preloaded),
    finished: () => c.mode === "drain" && drain.startedAt > 0 && ledger.done >= c.drainJobs,
    ledger: (): Ledger => ledger.toJSON(),
    absorb(ledgers) {
      absorbed = JobLedger.of(ledgers);
    },
    verify: (admin) => verifyJobs(admin),
  };

  /** A drain's pre-load, then the workers' start; the load's clock runs through both. */
  async function preload(tc: TargetClient) {
    const t0 = now();
    for (let from = 0; from < c.drainJobs && !ctx.writersStop.stopped; from += PRELOAD_BATCH) {
      const jobs = Array.from({ length: Math.min(PRELOAD_BATCH, c.drainJobs - from) }, () => ({ seq: ledger.next(), due: null }));
      const sent = ops.write.send();
      try {
        await lib.enqueueMany(tc, jobs);
      } catch (err) {
        for (const j of jobs) ledger.failed.add(j.seq);
        ops.write.failed(jobs.length);
        ctx.fatal(new Error(`pre-loading ${lib.queueName}: ${errorMessage(err)}`));
        return;
      }
      ops.write.answered(sent, jobs.length);
    }
    drain.preloadSeconds = (now() - t0) / 1000;
    drain.startedAt = now();
    await startWorkers();
  }

  async function verifyJobs(admin: pg.Client): Promise<WorkloadVerification> {
    const l = absorbed ?? ledger;
    const waiting = await lib.waitingSeqs(admin, ctx.schema);
    // A run whose connections a phase takes (kill-backend) accepts a job run again as the library's retry of it.
    const r = l.check(waiting, lib.queueName, ctx.reconnect !== undefined);
    if (loop) notes.push(...drainNotes(loop.result(), "enqueue"));
    else notes.push(...drainWords(c.drainJobs, l.done, drain));
    return {
      ok: r.problems.length === 0,
      checked: l.assigned,
      problems: r.problems,
      unreadAtEnd: waiting.length - r.ranStillQueued,
      facts: [
        { name: "jobs enqueued", value: l.assigned, ok: true },
        { name: "jobs that ran exactly once", value: r.ranOnce, ok: true },
        { name: "jobs lost", value: r.lost, ok: r.lost === 0 },
        { name: "jobs run more than once", value: r.duplicated, ok: r.duplicated === 0 },
        { name: `jobs still waiting in ${lib.queueName}`, value: waiting.length - r.ranStillQueued, ok: true },
        ...(r.ranStillQueued
          ? [
              {
                name: `jobs that ran but were still in ${lib.queueName} when the workers stopped (completion not recorded; the library would run them again)`,
                value: r.ranStillQueued,
                ok: true,
              },
            ]
          : []),
        { name: "enqueues in doubt (failed; may or may not be stored)", value: r.inDoubt, ok: true },
        ...(ctx.reconnect ? [{ name: "jobs run again by the library's retry after a lost connection (completion in doubt)", value: r.rerun, ok: true }] : []),
        ...(c.mode === "drain" && drain.lastDoneAt > drain.startedAt && l.done >= c.drainJobs
          ? [{ name: "drain throughput (jobs/s)", value: Math.round(c.drainJobs / ((drain.lastDoneAt - drain.startedAt) / 1000)), ok: true }]
          : []),
      ],
    };
  }
}

/** The drain in words: how long the pre-load and the drain took, and the throughput; or how far it got. */
export function drainWords(jobs: number, done: number, d: { startedAt: number; lastDoneAt: number; preloadSeconds: number }): string[] {
  const preload = `pre-loaded ${countWords(jobs, "job")} in ${d.preloadSeconds.toFixed(1)} s`;
  if (d.startedAt === 0) return [`${preload}; the workers never started (the run ended first)`];
  if (done < jobs) return [`${preload}; the workers finished ${done.toLocaleString("en-US")} of them before the run ended: no drain time`];
  const sec = (d.lastDoneAt - d.startedAt) / 1000;
  return [
    `${preload}; the workers drained them in ${sec.toFixed(2)} s: ${Math.round(jobs / sec).toLocaleString("en-US")} jobs/s (the libraries' own benchmarks' mode)`,
  ];
}

/**
 * The library's workers from their start to their stop: stopped through its API while a pause-workers phase lasts
 * (runner/phases/) and started again after it, then stopped once the readers are told to stop; resolves when they have.
 */
function superviseWorkers(ctx: WorkloadContext<JobWorkloadConfig>, lib: JobLibrary, handle: JobHandler): Promise<void> {
  const { readersStop: stop, readersPause: pause } = ctx;
  return (async () => {
    while (pause && !stop.stopped) {
      await pause.untilPaused(stop);
      if (stop.stopped) break;
      if (lib.pauseWorkers) await lib.pauseWorkers();
      else await lib.stopWorkers();
      await pause.pass(stop);
      if (!stop.stopped) await lib.startWorkers(handle);
    }
    while (!stop.stopped) await stop.sleep(3_600_000);
    await lib.stopWorkers();
  })();
}

/** A library's workload module: its kind and its JobLibrary for each run. */
export function jobLibraryModule<C extends JobWorkloadConfig>(kind: C["kind"], make: (ctx: WorkloadContext<C>) => JobLibrary): WorkloadModule<C> {
  return {
    kind,
    groupNames: () => ["queue"],
    writerCount: (c) => (c.mode === "rate" ? c.enqueuers : 1),
    create: (ctx) => createJobRun(ctx as never, make(ctx)),
  };
}
