// Queued durable workflows as the DBOS library runs them (browser-safe): enqueuers insert workflows with status
// ENQUEUED, workers poll their queues, claim what is there, then start and complete each claimed workflow. The
// SQL, the loops and the verification are in runner.ts beside this (server-only).
import type { z } from "zod";
import { queuedParts } from "../dbos/fields";
import { profileField } from "../dbos/schema";
import { DBOS_QUEUED_MANY_QUEUES_30K, DBOS_QUEUED_ONE_QUEUE_12K } from "../dbos/published";
import { runTimeOf } from "../../lib/run-time";
import { byGroup, paramsObject, plural, throttlePacing, throttleKnob, timingFields } from "../fields";
import { longRunPreset } from "../../lib/workloads/long-run";
import { defineWorkload, type MetricModel } from "../types";

const FIELDS = byGroup([
  {
    name: "enqueuers",
    label: "Enqueuers",
    hint: "clients enqueuing workflows on the shared schedule, one connection each",
    control: "int",
    min: 1,
    max: 1000,
    default: 8,
    group: "load",
    cli: { flag: "enqueuers", help: "enqueuer connections (the study's --enqueuers processes)" },
    compareLabel: "Enqueuers",
  },
  {
    name: "workers",
    label: "Workers",
    hint: "worker processes: each polls every queue on its own poller connection",
    control: "int",
    min: 1,
    max: 200,
    default: 8,
    group: "load",
    cli: { flag: "workers", help: "worker processes, each polling every queue (the study's --workers)" },
    compareLabel: "Workers",
  },
  {
    name: "executors",
    label: "Executors per worker",
    hint: "connections per worker that start and complete the workflows it claimed (the library's pool of 5 = 1 poller + 4)",
    control: "int",
    min: 1,
    max: 64,
    default: 4,
    group: "load",
    cli: { flag: "executors", help: "connections per worker starting and completing claimed workflows" },
    compareLabel: "Executors per worker",
  },
  {
    name: "throttleWritesPerSec",
    label: "Target enqueue rate",
    unit: "workflows/s",
    hint: "over all enqueuers; 0 = as fast as they can",
    control: "int",
    min: 0,
    max: 10_000_000,
    default: 1000,
    group: "load",
    cli: { flag: "rate", ours: true, help: "target enqueue rate in workflows/s over all enqueuers (the study's --rps), 0 = unthrottled" },
    compareLabel: "Target rate (per s)",
  },
  {
    name: "queues",
    label: "Queues",
    hint: "queue names the workflows are spread over, uniformly (the study's many queues)",
    control: "int",
    min: 1,
    max: 1024,
    default: 1,
    group: "load",
    cli: { flag: "queues", help: "queue names to spread workflows over (a list such as 1,2,4,8 sweeps them, one run each)" },
    compareLabel: "Queues",
  },
  {
    name: "queuePartitions",
    label: "Partition keys",
    hint: "0 = an ordinary queue; N = a partitioned queue with N uniform keys, one running workflow per key",
    control: "int",
    min: 0,
    max: 100_000,
    default: 0,
    group: "load",
    cli: { flag: "partitions", help: "partition keys of a partitioned queue (the study's --partitions; 0 = not partitioned)" },
    compareLabel: "Queue partition keys",
  },
  profileField,
  {
    name: "pollMs",
    label: "Polling interval",
    unit: "ms",
    hint: "each worker polls each queue this often, × a uniform 0.95–1.05 jitter (the library's 1 s default)",
    control: "int",
    min: 10,
    max: 60_000,
    default: 1000,
    group: "timing",
    cli: { flag: "poll-ms", help: "dequeue polling interval in ms, jittered ×0.95–1.05 (default 1000, the library's)" },
    compareLabel: "Polling interval (ms)",
  },
  {
    name: "workerConcurrency",
    label: "Worker concurrency",
    unit: "workflows",
    hint: "current profile: per queue, a worker claims at most this many minus what it runs from that queue (the study's 1000); 2.17 claims every visible row",
    control: "int",
    min: 1,
    max: 100_000,
    default: 1000,
    group: "timing",
    cli: { flag: "worker-concurrency", help: "current profile: a worker's claim limit per queue (default 1000, the study's)" },
    compareLabel: "Worker concurrency",
  },
  ...timingFields,
]);

export const QueuedWorkflowsParams = paramsObject("queued-workflows", FIELDS);
export type QueuedWorkflowsConfig = z.output<typeof QueuedWorkflowsParams>;

/** What it measures: enqueues (the broker's write counters), completions (its reads), dequeue polls (claims). */
export const QW_METRICS: MetricModel = {
  operations: [
    {
      name: "write",
      label: "enqueue",
      unit: "workflow",
      rate: true,
      latency: true,
      errors: true,
      latencySample: "per enqueue transaction",
      chart: { title: "Enqueue latency", hint: "per enqueue transaction (INSERT … ON CONFLICT, status ENQUEUED)" },
      scheduled: { name: "writeScheduled", label: "enqueue from schedule" },
    },
    {
      name: "read",
      label: "completion",
      unit: "workflow",
      rate: true,
      latency: true,
      errors: true,
      latencySample: "per workflow, start to completion",
      chart: { title: "Start-to-completion latency", hint: "per workflow: from an executor taking it to its SUCCESS commit" },
      counters: [{ key: "emptyPolls", column: "empty_polls", label: "empty polls" }],
    },
    { name: "claim", label: "dequeue poll", unit: "poll", rate: false, latency: true, errors: false, latencySample: "per dequeue transaction" },
  ],
  delivery: {
    name: "e2e",
    label: "enqueue to completion",
    latencySample: "per workflow",
    chart: { title: "Enqueue-to-completion latency", hint: "per workflow: enqueue sent → SUCCESS committed (runner clock)" },
  },
  backlog: { label: "Backlog", unit: "workflows", what: "workflows enqueued but not yet completed", place: "in workflow_status, over all queues" },
};

/** A workflow in flight in the runner: its id (36 characters) and enqueue time in a Map entry, about this many bytes. */
const IN_FLIGHT_BYTES = 150;
/** Unthrottled enqueuers, for the memory bound: well above what one Postgres took in the study (12.1K–30.6K/s). */
const UNTHROTTLED_RATE = 20_000;

/** The study's README defaults for its queue script: 64 enqueuer processes, 8 worker processes (pool of 5 each). */
const PUBLISHED_CLIENTS = { enqueuers: 64, workers: 8, executors: 4 } as const;
/** "Many queues" for the 30.6K figure: the study's chart is the only source of counts (see the caveat). */
const MANY_QUEUES = 32;

const partsOf = (c: QueuedWorkflowsConfig) => [
  plural(c.enqueuers, "enqueuer"),
  `${plural(c.workers, "worker")} × ${c.executors} executors`,
  plural(c.queues, "queue"),
  ...(c.queuePartitions ? [plural(c.queuePartitions, "partition key")] : []),
  `dbos ${c.profile}`,
  c.throttleWritesPerSec ? `${c.throttleWritesPerSec.toLocaleString("en-US")} workflows/s target` : "unthrottled",
  ...(c.pollMs !== 1000 ? [`polling every ${c.pollMs} ms`] : []),
  `${c.durationSeconds.toLocaleString("en-US")} s measured`,
];

export const queuedWorkflows = defineWorkload({
  kind: "queued-workflows",
  title: "queued workflows",
  purpose: "Workflow queues: enqueue, polling workers dequeue, start and complete; one or many queues",
  description: "DBOS queued workflows: enqueue, dequeue by polling workers (FOR UPDATE SKIP LOCKED), start and complete, over one or many queues.",
  params: QueuedWorkflowsParams,
  fields: FIELDS,
  defaultPresetId: "queued-workflows-defaults",
  presets: [
    {
      id: "queued-workflows-defaults",
      label: "queued workflows: one queue, 1,000/s",
      description: "8 enqueuers, 8 workers × 4 executors, one queue, dbos 2.17, 1,000 workflows/s (the study's README rate), 30 s.",
      config: { kind: "queued-workflows" },
    },
    // 200/s: DBOS keeps every workflow's row, so an hour is 720,000 of them.
    longRunPreset("queued-workflows", "queued workflows", "8 enqueuers, 8 workers × 4 executors, one queue, 200 workflows/s", {
      throttleWritesPerSec: 200,
    }),
    {
      id: "queued-workflows-many-queues",
      label: "queued workflows: 16 queues, 1,000/s",
      description: "As the defaults, spread over 16 queue names (the study's many queues).",
      config: { kind: "queued-workflows", queues: 16 },
    },
    {
      id: "queued-workflows-published-one-queue",
      label: "queued workflows: 12.1K/s, one queue (published)",
      description:
        "The published rate on one queue, 12,100 workflows/s, from 64 enqueuers and 8 workers × 4 executors (the study's README defaults): 105 connections, far beyond a small machine.",
      config: { kind: "queued-workflows", ...PUBLISHED_CLIENTS, throttleWritesPerSec: 12_100 },
    },
    {
      id: "queued-workflows-published-many-queues",
      label: `queued workflows: 30.6K/s, ${MANY_QUEUES} queues (published)`,
      description: `The published rate over many queues, 30,600 workflows/s, spread over ${MANY_QUEUES} queues (the study names no count), same clients as the one-queue figure.`,
      config: { kind: "queued-workflows", ...PUBLISHED_CLIENTS, queues: MANY_QUEUES, throttleWritesPerSec: 30_600 },
    },
    {
      id: "queued-workflows-partitioned",
      label: "queued workflows: partitioned queue, 1,000 keys",
      description:
        "One partitioned queue with 1,000 uniform keys, one running workflow per key, polling every 100 ms (the study's partition script, current profile).",
      config: { kind: "queued-workflows", queuePartitions: 1000, pollMs: 100, profile: "current" },
    },
  ],
  describe: partsOf,
  shortName: (c) => `queued q${c.queues}${c.queuePartitions ? `/p${c.queuePartitions}` : ""} ${c.profile}`,
  clients: (c) => c.enqueuers + c.workers * (1 + c.executors),
  clientsFormula: "enqueuers + workers × (1 poller + executors)",
  // The runner holds, per workflow enqueued and not yet completed, its id (36 characters) and its enqueue time
  // in a Map (about 150 bytes each with the Map's entry); at the target rate the backlog is what the workers
  // have not caught up with, so a run of the whole window unworked is the bound.
  clientMemory: (c) => {
    const inFlight = (c.throttleWritesPerSec || UNTHROTTLED_RATE) * runTimeOf(c).load;
    return [
      {
        bytes: inFlight * IN_FLIGHT_BYTES,
        words: `up to ${inFlight.toLocaleString("en-US")} workflows in flight (target rate${c.throttleWritesPerSec ? "" : ", unthrottled taken as 20,000/s"} × warm-up and window) × ${IN_FLIGHT_BYTES} bytes (id and enqueue time)`,
        fields: ["throttleWritesPerSec", "durationSeconds"],
      },
    ];
  },
  clientMemoryFormula: "target rate × (warm-up + duration) × 150 bytes",
  rateKnob: throttleKnob(),
  parts: queuedParts(),
  pacing: (c) => throttlePacing(c, "workflow"),
  verifiedUnit: "workflow",
  pausable: "the workers' polls",
  reconnects:
    "its enqueuers and workers reconnect; an enqueue, a claim, a start or a completion whose commit reply was lost is settled from workflow_status, and a claimed workflow runs again from where its row stands, as DBOS's recovery runs its own",
  metrics: QW_METRICS,
  // The study's figures count completed workflows: the completion rate here.
  published: [
    {
      ...DBOS_QUEUED_ONE_QUEUE_12K,
      rates: { read: 12_100 },
      config: { ...DBOS_QUEUED_ONE_QUEUE_12K.config, ...PUBLISHED_CLIENTS, throttleWritesPerSec: 12_100 },
    },
    {
      ...DBOS_QUEUED_MANY_QUEUES_30K,
      rates: { read: 30_600 },
      config: { ...DBOS_QUEUED_MANY_QUEUES_30K.config, ...PUBLISHED_CLIENTS, queues: MANY_QUEUES, throttleWritesPerSec: 30_600 },
      caveats: [
        ...DBOS_QUEUED_MANY_QUEUES_30K.caveats,
        { by: "found", text: `${MANY_QUEUES} queues is our pick for "many": the post names no count, and its chart is the only place the counts appear.` },
      ],
    },
  ],
});

/** The most runs one queues sweep launches: each is a whole run (warm-up, window, drain). */
export const MAX_SWEEP_RUNS = 16;

/**
 * A queues sweep's list, "1,2,4,8": whole numbers within the Queues field's range, none twice, at most
 * MAX_SWEEP_RUNS. The CLI's -queues list and the browser's sweep read it alike; messages name what to fix.
 */
export function parseQueueCounts(text: string): { ok: true; counts: number[] } | { ok: false; message: string } {
  const parts = text.split(",").map((p) => p.trim());
  const field = FIELDS.find((f) => f.name === "queues")!;
  const bad = parts.find((p) => !/^\d+$/.test(p) || Number(p) < field.min! || Number(p) > field.max!);
  if (bad !== undefined)
    return { ok: false, message: `"${bad}" is not a number of queues from ${field.min} to ${field.max} (a sweep is a list such as 1,2,4,8)` };
  const counts = parts.map(Number);
  if (new Set(counts).size !== counts.length) return { ok: false, message: "a queue count is listed twice" };
  if (counts.length < 2) return { ok: false, message: "a sweep needs at least two queue counts, such as 1,2,4,8" };
  if (counts.length > MAX_SWEEP_RUNS) return { ok: false, message: `${counts.length} runs; a sweep runs at most ${MAX_SWEEP_RUNS}` };
  return { ok: true, counts };
}
