// Job queue (Yong's "replace a job queue"): producers insert jobs, consumers take the oldest pending one with
// UPDATE … WHERE id = (SELECT … FOR UPDATE SKIP LOCKED LIMIT 1) RETURNING * and complete it; the index that
// serves the dequeue covers every row (baseline) or only pending ones (modded: a partial index). Browser-safe;
// the SQL is in runner.ts.
import type { z } from "zod";
import { runTimeOf } from "../../lib/run-time";
import { plural, fieldTable } from "../fields";
import { longRunPreset } from "../../lib/workloads/long-run";
import { defineWorkload, type PublishedResult } from "../types";
import {
  loadField,
  loadParts,
  poolField,
  rateField,
  requestOperations,
  thinkField,
  timingFields,
  variantField,
  vusField,
  YONG,
  yongParams,
  yongPacing,
  yongParts,
  yongRateKnob,
} from "../yong/fields";

/**
 * k6's sleep in the article's queue run, inferred (ours): 150 VUs / 1,052 req/s = 142.6 ms per iteration, minus
 * the modded run's 2.29 ms average request = 140.3 ms.
 */
export const CALIBRATED_THINK_MS = 140;

const FIELDS = fieldTable([
  variantField(
    "a full index on (status, created_at): every job stays in it, completed ones too",
    "a partial index on (created_at) WHERE status = 'pending': completed jobs leave it",
  ),
  loadField,
  vusField({
    name: "producers",
    label: "Producer VUs",
    what: "producer virtual users (each request inserts one job)",
    default: 100,
    flag: "producers",
    compareLabel: "Producer VUs",
  }),
  vusField({
    name: "consumers",
    label: "Consumer VUs",
    what: "consumer virtual users (each request dequeues one job and completes it)",
    default: 50,
    flag: "consumers",
    compareLabel: "Consumer VUs",
  }),
  thinkField(CALIBRATED_THINK_MS),
  rateField,
  poolField,
  {
    name: "preload",
    label: "Preloaded completed jobs",
    unit: "jobs",
    hint: "completed jobs inserted before the run, as a queue that has run for a while: what the partial index leaves out",
    control: "int",
    min: 0,
    max: 50_000_000,
    default: 0,
    group: "batches",
    cli: { flag: "preload", ours: true, help: "completed jobs inserted before the run (default 0, the article's empty table)" },
    compareLabel: "Preloaded completed jobs",
  },
  ...timingFields,
]);

export const JobqueueParams = yongParams("jobqueue", FIELDS, ["producers", "consumers"]);
export type JobqueueConfig = z.output<typeof JobqueueParams>;

const ARTICLE = { producers: 100, consumers: 50, thinkMs: CALIBRATED_THINK_MS, durationSeconds: 60, warmupSeconds: 0 };

const published = (variant: "baseline" | "modded", figures: Pick<PublishedResult, "rates" | "latencyMs">): PublishedResult => ({
  id: `yong-jobqueue-${variant}`,
  study: "yong",
  title: `Job queue, 100 producers + 50 consumers, ${variant} (${variant === "modded" ? "partial" : "full"} index)`,
  source: YONG.source(`job queue results table, ${variant === "modded" ? "Modded (partial index)" : "Baseline (full index)"} row`),
  config: { kind: "jobqueue", variant, load: "vus", ...ARTICLE },
  durationSeconds: 60,
  ...figures,
  measuredThrough: YONG.measuredThrough,
  loadModel: "closed loop: 100 producer + 50 consumer k6 VUs with think time (not stated), 60 s",
  server: YONG.server,
  derived: [
    "150 VUs / 1,052 requests/s = 142.6 ms per iteration, so k6 slept ≈ 140 ms after each request (ours, inferred: the preset's think time).",
    "Baseline → modded: p50 −4.7 %, p95 +5.4 %, average −0.4 %, requests/s −0.1 % (ours): no difference beyond noise.",
  ],
  caveats: [
    YONG.caveats.http,
    YONG.caveats.generator,
    YONG.caveats.thinkTime,
    {
      by: "author",
      text: "In a 60-second run too few completed jobs pile up for the partial index to matter; it pays off with millions of finished jobs. Run it here with preloaded completed jobs to see it.",
    },
    {
      by: "found",
      text: "Requests/s mix producer and consumer requests. With twice as many producers as consumers a backlog grows all run, so a dequeue never finds the queue empty; the table and its dead tuples grow too.",
    },
    {
      by: "found",
      text: "The baseline's full index is not shown in the article; the config uses (status, created_at), which serves the same dequeue and indexes every row (our choice).",
    },
  ],
});

const PUBLISHED: PublishedResult[] = [
  published("baseline", { rates: { total: 1053 }, latencyMs: { total: { p50: 1.9, p95: 5.01, avg: 2.3 } } }),
  published("modded", { rates: { total: 1052 }, latencyMs: { total: { p50: 1.81, p95: 5.28, avg: 2.29 } } }),
];

const vusOf = (c: JobqueueConfig) => `${plural(c.producers, "producer")} + ${plural(c.consumers, "consumer")}`;

export const jobqueue = defineWorkload({
  kind: "jobqueue",
  title: "job queue",
  purpose: "Background jobs: producers insert, consumers claim with SKIP LOCKED; full or partial index",
  description: "Yong's job queue: producers insert jobs, consumers dequeue with UPDATE … FOR UPDATE SKIP LOCKED; full (baseline) or partial (modded) index.",
  params: JobqueueParams,
  fields: FIELDS,
  defaultPresetId: "jobqueue-quick",
  presets: [
    {
      id: "jobqueue-quick",
      label: "job queue: quick look (10 + 5 VUs, 10 s)",
      description: `10 producers and 5 consumers with the article's derived think time (${CALIBRATED_THINK_MS} ms), empty table, 10 s.`,
      config: { kind: "jobqueue", producers: 10, consumers: 5, durationSeconds: 10, warmupSeconds: 2 },
    },
    ...PUBLISHED.map((p) => ({
      id: p.id,
      label: `job queue: ${p.config.variant} (published)`,
      description: `${p.loadModel}; empty table, as the article.`,
      referenceId: p.id,
      config: p.config as never,
    })),
    longRunPreset("jobqueue", "job queue", `10 producers and 5 consumers with the article's derived think time (${CALIBRATED_THINK_MS} ms)`, {
      producers: 10,
      consumers: 5,
      warmupSeconds: 2,
    }),
    {
      id: "jobqueue-preloaded",
      label: "job queue: 5 M completed jobs preloaded (our proposal)",
      description:
        "The article's load on a table holding 5,000,000 completed jobs, where the partial index should show (not published; preloading takes a while).",
      config: { kind: "jobqueue", ...ARTICLE, preload: 5_000_000 },
    },
  ],
  describe: (c) => [...loadParts(c, vusOf(c)), ...(c.preload ? [`${c.preload.toLocaleString("en-US")} completed jobs preloaded`] : [])],
  shortName: (c) => `jobqueue ${c.variant} ${c.load === "rate" ? `${c.rate}/s` : `${c.producers}p/${c.consumers}c`}`,
  clients: (c) => c.pool,
  clientsFormula: "connection pool",
  // Per job waiting: its send time for delivery latency; per job inserted: its id for verification.
  clientMemory: (c) => {
    const perSecond = c.load === "rate" ? c.rate : (c.producers * 1000) / Math.max(c.thinkMs, 1);
    const jobs = Math.min(perSecond, 100_000) * runTimeOf(c).load;
    return [
      {
        bytes: jobs * 64,
        words: `about ${Math.round(jobs).toLocaleString("en-US")} jobs inserted × 64 bytes (id kept for verification, send time until dequeued)`,
        fields: ["durationSeconds", c.load === "rate" ? "rate" : "producers"],
      },
    ];
  },
  clientMemoryFormula: "jobs inserted × 64 bytes",
  rateKnob: yongRateKnob(),
  parts: yongParts((c: JobqueueConfig) => c.producers + c.consumers, "producers or consumers"),
  pacing: (c) => yongPacing(c, c.producers + c.consumers),
  verifiedUnit: "job",
  reconnects: "its pool's connections reconnect; an enqueue, a dequeue or a completion whose reply was lost is settled from job_queue at verification",
  metrics: {
    operations: [
      ...requestOperations([
        { name: "enqueue", label: "enqueue" },
        { name: "dequeue", label: "dequeue", latencySample: "per request: dequeue, then complete the job it got; pool wait included" },
      ]),
      { name: "empty", label: "empty dequeues", unit: "req", rate: true, latency: false, errors: false, latencySample: "" },
    ],
    delivery: {
      name: "delivery",
      label: "enqueue → dequeue",
      latencySample: "per job: from the producer sending its INSERT to the consumer having the row (runner clock)",
      chart: { title: "Delivery latency", hint: "enqueue sent → dequeued, per job" },
    },
  },
  published: PUBLISHED,
});
