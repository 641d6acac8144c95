// What the queue-library workloads share (browser-safe): graphile-worker and pg-boss run no-op jobs through their
// own public APIs, in one of two modes. *drain* is the vendors' mode: pre-load N jobs, then start the workers and
// time the drain. *rate* offers jobs on the engine's fixed timetable while the workers consume, and times each job
// from its scheduled enqueue to its start and to its end. Not a kind: graphile-worker/ and pg-boss/ build their
// definitions from this (as yong/ and dbos/ serve theirs).
import type { z } from "zod";
import { rateField } from "../dbos/fields";
import { field, fieldTable, paramsObject, plural, timingFields } from "../fields";
import { longRunPreset } from "../../lib/workloads/long-run";
import { defineWorkload, type FieldDef, type MetricModel, type Pacing, type PublishedResult } from "../types";

export const JOB_MODES = ["rate", "drain"] as const;
export type JobMode = (typeof JOB_MODES)[number];

export const modeField = field({
  name: "mode",
  label: "Mode",
  hint: "rate: jobs offered on a fixed timetable while workers consume; drain: N jobs pre-loaded, then drained (the vendors' mode)",
  control: "select",
  options: [
    { value: "rate", label: "offered rate", description: "enqueue at the target rate on a fixed timetable; latency from each job's scheduled enqueue" },
    {
      value: "drain",
      label: "drain",
      description: "pre-load the jobs, then start the workers and time the drain: throughput only, as the libraries' own benchmarks",
    },
  ],
  default: "rate",
  group: "load",
  // Not --mode: that is the reference tool's flag naming the workload (runner/cli-args.ts).
  cli: { flag: "job-mode", ours: true, help: "rate (jobs offered on a fixed timetable, --rate N) or drain (--drain N jobs pre-loaded, then drained)" },
  compareLabel: "Mode",
});

export const drainJobsField = field({
  name: "drainJobs",
  label: "Jobs to drain",
  unit: "jobs",
  hint: "drain mode: no-op jobs pre-loaded before the workers start",
  control: "int",
  min: 1,
  max: 10_000_000,
  default: 20_000,
  group: "load",
  cli: {
    flag: "drain",
    ours: true,
    help: "drain mode: pre-load N no-op jobs, then start the workers and time the drain (--drain N alone means --job-mode drain)",
    implies: { field: "mode", value: "drain" },
  },
  compareLabel: "Jobs pre-loaded",
});

export const enqueuersField = field({
  name: "enqueuers",
  label: "Enqueuers",
  hint: "rate mode: connections that enqueue on the timetable (a due job waits for a free one)",
  control: "int",
  min: 1,
  max: 256,
  default: 4,
  group: "load",
  // Spelled as queued-workflows' flag of the same name (one spelling per flag across workloads).
  cli: { flag: "enqueuers", help: "rate mode: connections enqueueing on the timetable" },
  compareLabel: "Enqueuers",
});

/** The fields every queue-library workload has: mode, the jobs of a drain, the rate and its enqueuers, then the
 *  library's own worker fields, then timing. */
export const jobFields = <const W extends FieldDef>(workerFields: readonly W[]) =>
  fieldTable([modeField, drainJobsField, jobRateField, enqueuersField, ...workerFields, ...timingFields]);

/** The open loop's rate (DBOS's field), in jobs; its help without the DBOS study's flag name. */
const jobRateField = (() => {
  const f = rateField("jobs", "jobs enqueued");
  return { ...f, default: 200, cli: { ...f.cli, help: "rate mode: jobs enqueued per second on a fixed timetable (default 200)" } };
})();

/** The config fields job-library code reads, whatever the library. */
export interface JobConfig {
  mode: JobMode;
  drainJobs: number;
  rate: number;
  enqueuers: number;
  durationSeconds: number;
}

/** Rate mode: the open loop's timetable of enqueues. Drain mode: unpaced (the jobs are there before the workers). */
export const jobPacing = (c: JobConfig): Pacing =>
  c.mode === "drain" ? { kind: "unpaced", unit: "job", operation: "write" } : { kind: "open-loop", targetPerSecond: c.rate, unit: "job", operation: "write" };

/** What a queue-library run measures: enqueues, jobs done (with the backlog between them), and each job's
 *  latency from its scheduled enqueue to its start and to its end (rate mode). */
export const JOB_METRICS: MetricModel = {
  operations: [
    {
      name: "write",
      label: "enqueue",
      unit: "job",
      rate: true,
      latency: true,
      errors: true,
      latencySample: "per enqueue call (a drain's pre-load: per batch), from its send",
      chart: { title: "Enqueue latency", hint: "per enqueue call through the library's API" },
      scheduled: { name: "writeScheduled", label: "enqueue from schedule" },
    },
    {
      name: "read",
      label: "job done",
      unit: "job",
      rate: true,
      latency: false,
      errors: true,
      latencySample: "per job",
    },
    {
      name: "start",
      label: "enqueue → start",
      unit: "job",
      rate: false,
      latency: true,
      errors: false,
      latencySample: "per job, from its scheduled enqueue to its handler's start (rate mode)",
      chart: { title: "Enqueue → start", hint: "per job, from its scheduled enqueue to the library calling its handler" },
    },
  ],
  delivery: {
    name: "e2e",
    label: "enqueue → done",
    latencySample: "per job, from its scheduled enqueue to its handler's return (rate mode)",
    chart: { title: "Enqueue → done", hint: "per job, from its scheduled enqueue to its handler's return" },
  },
  backlog: { label: "Backlog", unit: "jobs", what: "jobs enqueued and not yet done", place: "in the library's queue" },
};

/** Words for the mode and load: "200 jobs/s offered over 4 enqueuers", "20,000 jobs drained". */
export const jobParts = (c: JobConfig): string[] =>
  c.mode === "drain"
    ? [`${c.drainJobs.toLocaleString("en-US")} jobs drained`, `at most ${c.durationSeconds.toLocaleString("en-US")} s`]
    : [`${c.rate.toLocaleString("en-US")} jobs/s offered`, plural(c.enqueuers, "enqueuer"), `${c.durationSeconds.toLocaleString("en-US")} s measured`];

/** What a library definition supplies beyond what every queue-library workload shares. */
export interface LibraryWords<K extends string, F extends FieldDef, C> {
  kind: K;
  title: string;
  purpose: string;
  description: string;
  workerFields: readonly F[];
  /** The workers in the library's own words ("2 worker pools × concurrency 24"). */
  workers(c: C): string;
  /** Connections the library's workers open beside the enqueuers. */
  workerConnections(c: C): number;
  workerConnectionsFormula: string;
  published: PublishedResult[];
  /** Settings of the library's own that its two presets add (what a user tuning it for the mode would set). */
  presetExtras?: { rate?: Record<string, unknown>; drain?: Record<string, unknown> };
  /** Why a restart of the whole target is refused for this library (WorkloadDefinition.restartRefused). */
  restartRefused?: string;
}

/** A queue-library workload's definition, from what its library supplies. */
export function jobLibraryWorkload<const K extends string, const F extends FieldDef>(w: LibraryWords<K, F, Record<string, unknown>>) {
  const fields = jobFields(w.workerFields);
  const params = paramsObject(w.kind, fields);
  type C = z.output<typeof params> & JobConfig;
  const job = (c: unknown) => c as C;
  const def = defineWorkload({
    kind: w.kind,
    title: w.title,
    purpose: w.purpose,
    description: w.description,
    params,
    fields,
    defaultPresetId: `${w.kind}-rate`,
    presets: [
      {
        id: `${w.kind}-rate`,
        label: `${w.title}: 200 jobs/s offered`,
        description: "200 no-op jobs/s on a fixed timetable over 4 enqueuers for 30 s; latency from each job's scheduled enqueue.",
        config: { kind: w.kind, ...w.presetExtras?.rate } as never,
      },
      {
        id: `${w.kind}-drain`,
        label: `${w.title}: drain 20,000 jobs`,
        description: "The vendors' mode: 20,000 no-op jobs pre-loaded, then the workers start and drain them; throughput only.",
        config: { kind: w.kind, mode: "drain", warmupSeconds: 0, ...w.presetExtras?.drain } as never,
      },
      longRunPreset(w.kind, w.title, "200 no-op jobs/s offered over 4 enqueuers", { ...w.presetExtras?.rate }) as never,
      ...w.published.map((p) => ({ id: p.id, label: `${p.title} (published)`, description: p.loadModel, referenceId: p.id, config: p.config as never })),
    ],
    describe: (c) => [...jobParts(job(c)), w.workers(c as never)],
    shortName: (c) =>
      job(c).mode === "drain" ? `${w.title} drain ${job(c).drainJobs.toLocaleString("en-US")}` : `${w.title} ${job(c).rate.toLocaleString("en-US")}/s`,
    clients: (c) => (job(c).mode === "drain" ? 0 : job(c).enqueuers) + w.workerConnections(c as never),
    clientsFormula: `enqueuers (rate mode) + ${w.workerConnectionsFormula}`,
    // The ledger: one byte per job run, a number per job enqueued (ids and counts).
    clientMemory: (c) => {
      const jobs = job(c).mode === "drain" ? job(c).drainJobs : job(c).rate * (job(c).durationSeconds + 60);
      return [{ bytes: jobs * 9, words: "one byte and one number per job in the ledger", fields: ["drainJobs", "rate", "durationSeconds"] }];
    },
    clientMemoryFormula: "jobs × 9 bytes (the ledger)",
    rateKnob: { fields: ["rate"], set: (c, perSecond) => ({ ...c, rate: perSecond, mode: "rate" }) },
    pacing: (c) => jobPacing(job(c)),
    verifiedUnit: "job",
    pausable: "the workers",
    reconnects:
      "its enqueuers reconnect (a failed enqueue is in doubt, stored or not); its workers' pool replaces a terminated connection, and a job claimed or completed on it stays in the library's table, counted as waiting",
    ...(w.restartRefused ? { restartRefused: w.restartRefused } : {}),
    metrics: JOB_METRICS,
    published: w.published,
  });
  return def;
}
