// pg-boss's published figure: none from its author; the independent harness hardbyte/postgresql-job-queue-benchmarking
// measured it (run of 2026-05-09). Kept as data beside the workload. Browser-safe.
import type { PublishedResult } from "../types";

export const PG_BOSS_HARDBYTE: PublishedResult = {
  id: "pg-boss-hardbyte-2387",
  study: "hardbyte",
  title: "pg-boss under a held queue depth of 4,000: 2,387 jobs/s peak (64 workers)",
  source: "github.com/hardbyte/postgresql-job-queue-benchmarking, results of 2026-05-09",
  config: { kind: "pg-boss", mode: "rate", rate: 2_400, enqueuers: 8, localConcurrency: 64, warmupSeconds: 30, durationSeconds: 180 },
  rates: { read: 2_387 },
  loadModel:
    "offered load: a producer holds the queue at a depth of 4,000 jobs; 30 s warm-up, then 180 s measured per cell; worker counts from 4 to 256 (the peak at 64)",
  server: "a 4 CPU / 8 GB container, PostgreSQL 18.3",
  caveats: [
    { by: "author", text: "The harness's author also wrote one of the eight systems it tests (awa), and says so." },
    {
      by: "found",
      text: "The harness holds a queue depth rather than a rate: its producer enqueues as fast as jobs leave. Our rate mode offers a fixed rate instead; the preset offers about the published peak.",
    },
    { by: "found", text: "pg-boss's author publishes no throughput figure of their own." },
  ],
};
