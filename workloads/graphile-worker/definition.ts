// graphile-worker as a workload (browser-safe): no-op jobs through the library's public API, workers named as it
// names them: worker pools (`run()`, each with its own connection pool) of `concurrency` jobs each.
import { plural } from "../fields";
import { jobLibraryWorkload } from "../job-library/fields";
import { GRAPHILE_WORKER_PERF } from "./published";

export const graphileWorker = jobLibraryWorkload({
  kind: "graphile-worker",
  title: "graphile-worker",
  purpose: "graphile-worker (Node): no-op jobs through its API, drained or offered at a rate",
  description: "graphile-worker 0.18 in the run's schema: jobs added with its add_job, run by its worker pools (LISTEN/NOTIFY and SKIP LOCKED).",
  workerFields: [
    {
      name: "workers",
      label: "Worker pools",
      hint: "graphile-worker run() instances in the runner, each with its own connection pool (the perfTest ran 4 processes)",
      control: "int",
      min: 1,
      max: 32,
      default: 1,
      group: "load",
      cli: { flag: "workers", help: "graphile-worker run() instances (worker pools), each with its own pool of connections" },
      compareLabel: "Worker pools",
    },
    {
      name: "concurrency",
      label: "Concurrency",
      hint: "jobs each worker pool runs at once (graphile-worker's concurrency)",
      control: "int",
      min: 1,
      max: 1000,
      default: 10,
      group: "load",
      cli: { flag: "concurrency", ours: true, help: "graphile-worker's concurrency: jobs each worker pool runs at once" },
      compareLabel: "Concurrency",
    },
  ] as const,
  workers: (c) => `${plural(Number(c.workers), "worker pool")} × concurrency ${c.concurrency}`,
  // Each pool holds a connection per concurrent job plus its listener.
  workerConnections: (c) => Number(c.workers) * (Number(c.concurrency) + 1),
  workerConnectionsFormula: "worker pools × (concurrency + 1)",
  published: [GRAPHILE_WORKER_PERF],
  // Measured on a private embedded cluster restarted mid-run: its workers took no job after it, and a completion
  // rejected on a connection the restart ended was left unhandled, which ended the runner's process.
  restartRefused:
    "graphile-worker does not survive every connection going at once: after a restart its workers took no more jobs and a rejected completion ended the runner's process",
});
