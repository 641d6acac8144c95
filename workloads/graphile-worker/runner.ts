// graphile-worker as a workload (server-only), through its public API: runMigrations installs its tables in the run's
// schema; jobs are added with its SQL functions add_job / add_jobs (documented: "Adding jobs through SQL") on the
// run's own connections, so the engine times each enqueue; its workers are run() pools with a task list of one no-op
// task. Its cron is not used (no crontab), its signal handlers are off (the runner stops it), and its logger only
// passes on errors.
import { type Logger, run, runMigrations, type Runner, Logger as WorkerLogger } from "graphile-worker";
import type pg from "pg";
import { libraryApplicationName, type TargetClient, withApplicationName } from "../../runner/core";
import type { JobPayload } from "../job-library/ledger";
import { type JobLibrary, jobLibraryModule } from "../job-library/run";
import type { WorkloadContext } from "../runtime";
import type { graphileWorker as definition } from "./definition";

type Config = import("zod").output<typeof definition.params>;

const TASK = "bench_noop";
/** How long a stop waits for the jobs in hand before it gives up on a pool (graphile-worker's own abort follows). */
const STOP_MS = 10_000;

/** graphile-worker's log lines below errors are its start-up chatter: the run's log has its own. */
const quiet = (log: (line: string) => void): Logger =>
  new WorkerLogger(() => (level, message) => {
    if (level === "error") log(`graphile-worker: ${message}`);
  });

function library(ctx: WorkloadContext<Config>): JobLibrary {
  const c = ctx.config;
  const schemaName = () => ctx.schema.replace(/^"|"$/g, "");
  let runners: Runner[] = [];
  return {
    queueName: "graphile-worker's jobs table",
    async install(schema) {
      await runMigrations({ connectionString: ctx.targetUrl, schema, logger: quiet(ctx.log) });
    },
    async enqueue(tc: TargetClient, job: JobPayload) {
      await tc.client.query(`SELECT ${ctx.schema}.add_job($1::text, $2::json)`, [TASK, JSON.stringify(job)]);
    },
    async enqueueMany(tc: TargetClient, jobs: JobPayload[]) {
      const specs = JSON.stringify(jobs.map((payload) => ({ identifier: TASK, payload })));
      await tc.client.query(`SELECT count(*) FROM ${ctx.schema}.add_jobs(array(SELECT json_populate_recordset(null::${ctx.schema}.job_spec, $1::json)))`, [
        specs,
      ]);
    },
    async startWorkers(handle) {
      runners = await Promise.all(
        Array.from({ length: c.workers }, () =>
          run({
            // Named for the run, so the telemetry counts the pool's connections as the run's.
            connectionString: withApplicationName(ctx.targetUrl, libraryApplicationName(ctx.schema)),
            schema: schemaName(),
            concurrency: c.concurrency,
            maxPoolSize: c.concurrency + 1,
            noHandleSignals: true,
            pollInterval: 1000,
            logger: quiet(ctx.log),
            // attempts > 1: graphile-worker runs it again after an attempt it failed (the handler never throws).
            taskList: { [TASK]: async (payload, helpers) => handle(payload as JobPayload, { retried: helpers.job.attempts > 1 }) },
          }),
        ),
      );
    },
    async stopWorkers() {
      const stopping = runners.map((r) => r.stop());
      runners = [];
      await Promise.race([Promise.allSettled(stopping), new Promise((r) => setTimeout(r, STOP_MS).unref())]);
    },
    async waitingSeqs(admin: pg.Client, schema: string) {
      const { rows } = await admin.query<{ seq: string }>(`SELECT (payload->>'seq') AS seq FROM ${schema}._private_jobs`);
      return rows.map((r) => Number(r.seq));
    },
  };
}

export const graphileWorkerModule = jobLibraryModule<Config>("graphile-worker", library);
