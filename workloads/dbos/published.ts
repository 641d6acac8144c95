// DBOS's published figures ("Does Postgres Scale?"), kept as data beside the workloads that reproduce them.
// Browser-safe. The inserts and workflows definitions attach theirs; the queued ones are for queued-workflows.
import type { PublishedResult } from "../types";

const SOURCE = "dbos.dev/blog/benchmarking-workflow-execution-scalability-on-postgres (DBOS, April 2026)";

/** RDS instance and client, as the study's terraform (no custom parameter group) and blog state them. */
export const DBOS_SERVER =
  "AWS RDS PostgreSQL 16, db.m7i.24xlarge (96 vCPU, 384 GB), io2 storage with 120,000 provisioned IOPS, single AZ, RDS default parameters (synchronous_commit on, no commit_delay); load from one EC2 c7i.48xlarge (192 vCPU) in the same AZ";

/** Caveats every DBOS figure shares. */
const COMMON_CAVEATS: PublishedResult["caveats"] = [
  { by: "found", text: "No latency was published for any DBOS workload: only throughput." },
  {
    by: "found",
    text: "Which version of the benchmark script and which flags (processes, pool sizes, run length, rate sweep) produced this figure is not published; the script kept changing for months after the post.",
  },
  {
    by: "found",
    text: 'How the sustained rate was picked is not published; we call a rate sustained when the drain after the schedule ends is near 0 (the scripts print "Drain time > 0 means DB couldn\'t keep up").',
  },
];

export const DBOS_INSERTS_144K: PublishedResult = {
  id: "dbos-inserts-144k",
  study: "dbos",
  title: "Raw point inserts, one row per transaction: 144K inserts/s",
  source: SOURCE,
  config: { kind: "inserts", rate: 144_000, connections: 512, batchSize: 10 },
  rates: { write: 144_000 },
  loadModel:
    "open loop on a fixed timetable: batches of 10 sequential single-row INSERTs (autocommit) launched every batch/rate seconds, unbounded in flight, waiting for one of 16 processes × 32 pooled asyncpg connections (benchmarks/postgres_insert.py)",
  server: DBOS_SERVER,
  bottleneck:
    "the WAL flush: CPU and IOPS not saturated; pg_stat_activity showed one backend flushing the WAL (group commit) and most others waiting on the WAL lock",
  derived: ["1 write per insert: 144K commits/s, about 12 billion rows a day (ours: 144,000 × 86,400)"],
  caveats: [
    ...COMMON_CAVEATS,
    { by: "author", text: "Rows are about 60 bytes with one btree (a UUIDv7 primary key): a commit-rate test, not a bandwidth test." },
  ],
};

export const DBOS_WORKFLOWS_43K: PublishedResult = {
  id: "dbos-workflows-43k",
  study: "dbos",
  title: "No-op durable workflows, started directly: 43K workflows/s",
  source: SOURCE,
  config: { kind: "workflows", rate: 43_000, connections: 256, steps: 0, profile: "2.17" },
  rates: { workflow: 43_000 },
  loadModel:
    "open loop at a target rate: per workflow the start INSERT … ON CONFLICT (PENDING) and the completion UPDATE (SUCCESS), each its own transaction, from several processes each running DBOS (benchmarks/dbos_start_workflow.py)",
  server: DBOS_SERVER,
  bottleneck:
    "the WAL flush again; the difference from raw inserts put down to the UPDATE's extra WAL and per-transaction overhead on a 31-column, 9-index table",
  derived: ["2 writes per workflow: about 86K write transactions/s (ours: 43,000 × 2)"],
  caveats: [
    ...COMMON_CAVEATS,
    { by: "found", text: "The published scripts' latency, where they have one, mixes the database clock (updated_at) with the client's." },
  ],
};

export const DBOS_QUEUED_ONE_QUEUE_12K: PublishedResult = {
  id: "dbos-queued-one-queue-12.1k",
  study: "dbos",
  title: "Queued workflows, one queue: 12.1K workflows/s",
  source: SOURCE,
  config: { kind: "queued-workflows", profile: "2.17", queues: 1 },
  rates: { workflow: 12_100 },
  loadModel:
    "enqueuers insert ENQUEUED rows; workers poll every second (×U(0.95, 1.05)) with a REPEATABLE READ SELECT … FOR UPDATE SKIP LOCKED and one UPDATE per claimed row, then start and complete each workflow (benchmarks/dbos_queue.py)",
  server: DBOS_SERVER,
  bottleneck: "row-lock contention on the head of the queue in workflow_status, despite SKIP LOCKED",
  derived: ["4 writes per workflow (enqueue, start, completion, and the dequeue's UPDATE in a transaction shared by the poll's claims)"],
  caveats: COMMON_CAVEATS,
};

export const DBOS_QUEUED_MANY_QUEUES_30K: PublishedResult = {
  id: "dbos-queued-many-queues-30.6k",
  study: "dbos",
  title: "Queued workflows over many queues or partitions: 30.6K workflows/s",
  source: SOURCE,
  config: { kind: "queued-workflows", profile: "2.17" },
  rates: { workflow: 30_600 },
  loadModel: "as one queue, with the work spread over many queues (or partitions of one queue) so dequeuers stop contending for the same head rows",
  server: DBOS_SERVER,
  bottleneck: "the WAL flush once the head-of-queue contention is spread out",
  derived: ["about 2/3 of the 43K of direct workflows, with 4 writes per workflow instead of 2"],
  caveats: [
    ...COMMON_CAVEATS,
    { by: "found", text: "How many queues or partitions gave 30.6K is not published: the figures per queue count exist only as a chart image." },
  ],
};
