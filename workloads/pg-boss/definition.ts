// pg-boss as a workload (browser-safe): no-op jobs through the library's public API, its workers named as it names
// them: work() with localConcurrency workers fetching batchSize jobs, polling every pollingIntervalSeconds.
import { plural } from "../fields";
import { jobLibraryWorkload } from "../job-library/fields";
import { PG_BOSS_HARDBYTE } from "./published";

export const pgBoss = jobLibraryWorkload({
  kind: "pg-boss",
  title: "pg-boss",
  purpose: "pg-boss (Node): no-op jobs through its API, drained or offered at a rate",
  description: "pg-boss 12 in the run's schema: jobs sent with its send/insert, fetched by its work() workers (SKIP LOCKED polling).",
  workerFields: [
    {
      name: "localConcurrency",
      label: "Workers",
      hint: "pg-boss's localConcurrency: workers work() starts in the runner, each fetching and running jobs",
      control: "int",
      min: 1,
      max: 1000,
      default: 4,
      group: "load",
      cli: { flag: "local-concurrency", ours: true, help: "pg-boss's localConcurrency: workers polling the queue" },
      compareLabel: "Workers (localConcurrency)",
    },
    {
      name: "batchSize",
      label: "Batch size",
      hint: "jobs each worker fetches per poll (pg-boss's batchSize)",
      control: "int",
      min: 1,
      max: 1000,
      default: 1,
      group: "load",
      cli: { flag: "batch-size", ours: true, help: "pg-boss's batchSize: jobs fetched per poll" },
      compareLabel: "Batch size",
    },
    {
      name: "pollingIntervalSeconds",
      label: "Polling interval",
      unit: "s",
      hint: "how long an idle worker waits before it polls again (pg-boss's pollingIntervalSeconds; its default is 2)",
      control: "int",
      min: 1,
      max: 60,
      default: 2,
      group: "load",
      cli: { flag: "polling-interval", ours: true, help: "pg-boss's pollingIntervalSeconds (whole seconds; its default 2)" },
      compareLabel: "Polling interval (s)",
    },
    {
      name: "burstWhenBatchFull",
      label: "Burst when batch full",
      hint: "fetch again at once while each fetch comes back full (pg-boss's burstWhenBatchFull; off by default, ignored at batch size 1)",
      control: "bool",
      default: false,
      group: "load",
      cli: { flag: "burst-when-batch-full", ours: true, help: "pg-boss's burstWhenBatchFull: fetch again at once while fetches come back full" },
      compareLabel: "Burst when batch full",
    },
    {
      name: "notify",
      label: "LISTEN/NOTIFY",
      hint: "wake workers when a job is created (pg-boss's useListenNotify and the queue's notify; off by default: polling only)",
      control: "bool",
      default: false,
      group: "load",
      cli: { flag: "listen-notify", ours: true, help: "pg-boss's useListenNotify with a notify queue: workers woken as jobs arrive" },
      compareLabel: "LISTEN/NOTIFY",
    },
  ] as const,
  // What a user tuning pg-boss for throughput sets: batches fetched back to back; for latency, NOTIFY wake-ups.
  presetExtras: {
    rate: { batchSize: 10, burstWhenBatchFull: true, notify: true },
    drain: { batchSize: 100, burstWhenBatchFull: true },
  },
  workers: (c) =>
    `${plural(Number(c.localConcurrency), "worker")} × batches of ${c.batchSize}, polling every ${c.pollingIntervalSeconds} s${c.burstWhenBatchFull ? ", bursting" : ""}${c.notify ? ", LISTEN/NOTIFY" : ""}`,
  // pg-boss's own pool: one connection per worker fetching at once, plus one for its bookkeeping.
  workerConnections: (c) => Number(c.localConcurrency) + 1 + (c.notify ? 1 : 0),
  workerConnectionsFormula: "localConcurrency + 1 (+ 1 listener with LISTEN/NOTIFY)",
  published: [PG_BOSS_HARDBYTE],
  // Measured on a private embedded cluster restarted mid-run: with LISTEN/NOTIFY on, 2 of 5 runs had their enqueues
  // stall after the restart until the run ended (no error, no reconnection), so its figures after it would be wrong.
  restartRefused:
    "pg-boss does not reliably survive every connection going at once: in runs restarted here its enqueues stalled after the restart until the run ended",
});
