// pg-boss as a workload (server-only), through its public API: start() installs its tables in the run's schema (its
// own migrations; the schema exists, so createSchema is off); jobs are sent with send() / insert() on the run's own
// connections (their `db` option takes any executeSql), so the engine times each enqueue; its workers are one
// work() with localConcurrency workers. Its supervisor, scheduler and maintenance are off: they would run beside
// the load on timers the run does not measure, and a run's queue lives for minutes.
import { PgBoss } from "pg-boss";
import type pg from "pg";
import { libraryApplicationName, type TargetClient } from "../../runner/core";
import type { JobPayload } from "../job-library/ledger";
import { type JobLibrary, jobLibraryModule } from "../job-library/run";
import type { WorkloadContext } from "../runtime";
import type { pgBoss as definition } from "./definition";

type Config = import("zod").output<typeof definition.params>;

const QUEUE = "bench_noop";
/** How long a stop waits for the jobs in hand (pg-boss's graceful stop), in ms. */
const STOP_MS = 10_000;

/** A run's connection as pg-boss's `db` option: its executeSql. */
const dbOf = (tc: TargetClient) => ({ executeSql: (text: string, values?: unknown[]) => tc.client.query(text, values as unknown[]) });

function library(ctx: WorkloadContext<Config>): JobLibrary {
  const c = ctx.config;
  const schema = ctx.schema.replace(/^"|"$/g, "");
  const options = (migrate: boolean) => ({
    connectionString: ctx.targetUrl,
    schema,
    createSchema: false,
    migrate,
    supervise: false,
    schedule: false,
    max: c.localConcurrency + 2,
    // Named for the run, so the telemetry counts its pool's connections as the run's.
    application_name: libraryApplicationName(ctx.schema),
    useListenNotify: c.notify,
  });
  /** The run's pg-boss for sending and working, started on first use (a part of a run never runs setup). */
  let running: Promise<PgBoss> | null = null;
  const boss = () => {
    running ??= (async () => {
      const b = new PgBoss(options(false));
      b.on("error", (err) => ctx.log(`pg-boss: ${(err as Error).message}`));
      return b.start();
    })();
    return running;
  };
  return {
    queueName: "pg-boss's job table",
    async install() {
      // Its migrations and the queue, then closed: the run's loops start their own (this instance may only set up).
      const b = new PgBoss(options(true));
      b.on("error", (err) => ctx.log(`pg-boss: ${(err as Error).message}`));
      await b.start();
      await b.createQueue(QUEUE, c.notify ? { notify: true } : {});
      await b.stop({ graceful: false, close: true });
    },
    async enqueue(tc: TargetClient, job: JobPayload) {
      await (await boss()).send(QUEUE, job, { db: dbOf(tc) });
    },
    async enqueueMany(tc: TargetClient, jobs: JobPayload[]) {
      await (await boss()).insert(
        QUEUE,
        jobs.map((data) => ({ data })),
        { db: dbOf(tc) },
      );
    },
    async startWorkers(handle) {
      await (await boss()).work<JobPayload>(
        QUEUE,
        {
          localConcurrency: c.localConcurrency,
          batchSize: c.batchSize,
          pollingIntervalSeconds: c.pollingIntervalSeconds,
          burstWhenBatchFull: c.burstWhenBatchFull,
        },
        async (jobs) => {
          // retryCount > 0: pg-boss claimed it again after an attempt it failed (the handler never throws; a lost
          // connection under its completion does: manager.js fails the batch and retries it).
          for (const j of jobs) handle(j.data, { retried: j.retryCount > 0 });
        },
      );
    },
    async pauseWorkers() {
      // Its own way to stop working a queue, the instance kept (it still sends): jobs in hand finish first.
      if (running) await (await running).offWork(QUEUE, { wait: true });
    },
    async stopWorkers() {
      const b = running;
      running = null;
      if (b) await (await b).stop({ graceful: true, timeout: STOP_MS, close: true });
    },
    async waitingSeqs(admin: pg.Client, quoted: string) {
      const { rows } = await admin.query<{ seq: string }>(`SELECT (data->>'seq') AS seq FROM ${quoted}.job WHERE name = $1 AND state <> 'completed'`, [QUEUE]);
      return rows.map((r) => Number(r.seq));
    },
  };
}

export const pgBossModule = jobLibraryModule<Config>("pg-boss", library);
