// Figures published for queue systems the product does not run as workloads (River, PGMQ, Oban), with their mode and
// hardware: printed beside the libraries' own by scripts/bench-queue-libraries.ts, never compared as like for like.
// From their sources as gathered for issue 32 (each named). Browser-safe.

export interface OtherQueueFigure {
  system: string;
  figure: string;
  mode: string;
  hardware: string;
  source: string;
}

export const OTHER_QUEUES: readonly OtherQueueFigure[] = [
  {
    system: "River (Go)",
    figure: "River: about 46,000 jobs/s (its own benchmark); 501 jobs/s peak in the independent harness",
    mode: "river bench -n 1,000,000: 1 M jobs pre-inserted after TRUNCATE + VACUUM FULL, drained by 2,000 workers; the harness: a held queue depth of 4,000",
    hardware: "8-core M2 MacBook Air (its own); a 4 CPU / 8 GB container, PostgreSQL 18.3 (the harness)",
    source: "riverqueue.com docs, benchmarks; riverqueue/river issue 278; hardbyte/postgresql-job-queue-benchmarking (2026-05-09)",
  },
  {
    system: "PGMQ (extension)",
    figure: "PGMQ: over 150,000 msg/s written, about 30,000 msg/s read",
    mode: "20 writers and 10 readers, batches of 100",
    hardware: "16 vCPU / 32 GB",
    source: "Tembo blog, December 2023 (not run here: no npm package ships its SQL-only install)",
  },
  {
    system: "Oban (Elixir)",
    figure: "Oban: 1 M jobs per minute (about 16,700 jobs/s)",
    mode: "1 M jobs inserted in batches of 5,000, one queue, one node",
    hardware: "not stated",
    source: "oban.pro, 2022",
  },
];
