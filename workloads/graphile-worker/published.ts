// graphile-worker's own published figures (worker.graphile.org/docs/performance, the Performance page), kept as data beside
// the workload that reproduces their mode here. Browser-safe.
import type { PublishedResult } from "../types";

export const GRAPHILE_WORKER_PERF: PublishedResult = {
  id: "graphile-worker-perftest-15k",
  study: "vendors",
  title: "graphile-worker perfTest: 200,000 no-op jobs drained at about 15,600 jobs/s",
  source: "https://worker.graphile.org/docs/performance (graphile-worker 0.17/0.18; its repository's website folder)",
  config: { kind: "graphile-worker", mode: "drain", drainJobs: 200_000, workers: 4, concurrency: 24, warmupSeconds: 0, durationSeconds: 120 },
  rates: { read: 15_600 },
  latencyMs: { start: { avg: 4.28 } },
  measuredThrough: "add_job to job start, averaged over jobs, measured by the library's own perfTest script",
  loadModel: "drain: 200,000 no-op jobs pre-loaded, then 4 worker processes × concurrency 24 drain them (the library's perfTest)",
  server: "Intel i9-14900K desktop, PostgreSQL on the same machine",
  derived: ["with batching enabled (a local queue of 500 jobs per worker) the same page reports about 184,000 jobs/s"],
  caveats: [
    { by: "author", text: "No-op jobs on a fast desktop with the database local: an upper bound, not what a real task sees." },
    { by: "found", text: "Workers here run as pools in one runner process, not as 4 separate processes; the runner shares the machine with Postgres." },
    { by: "found", text: "The latency published is an average from add_job to start, not a percentile; ours are percentiles and are not comparable with it." },
  ],
};
