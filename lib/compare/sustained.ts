// "Which sustained what": what each stored run of a queue-like workload (the article's queue, jobqueue, the queue
// libraries, queued workflows) was offered, what it consumed, whether it kept up, and how long a job took from its
// scheduled enqueue to its start and to its end. ./from-run.ts reads these facts from the run's summary (its
// config's pacing, its operations' rates and the percentiles of its merged histograms) into Comparable.queue;
// ./sustained-table.ts lays them out when runs of different queue-like workloads are compared. Browser-safe.
import type { LatencyStats } from "../measurement/metrics";
import { latencyOf, throughputOf } from "../measurement/operations";
import type { RunSummary } from "../measurement/summary";
import { PACE_THRESHOLDS } from "../telemetry/pace";
import { definitionOf, pacingOf } from "../workloads/config";
import { countWords, perSecond } from "../words";

/** A latency from the scheduled enqueue, by the quantiles the table shows; absent percentiles are null. */
export type SchedPcts = { p50: number | null; p99: number | null; p999: number | null };

/** A number the table shows, or null with why the run has none (the cell's "—" and its title). */
export interface Figure<T> {
  value: T | null;
  /** Where the number was read (value) or why there is none (null): the cell's title. */
  why: string;
}

/** One run's row facts, plain data (they travel to the browser inside the Comparable). */
export interface QueueFacts {
  /** The workload's knobs in its own words, the measured duration left out ("4 workers × batches of 10, …"). */
  settings: string;
  /** The rate asked for, in the paced item's unit per second ("job/s"); `enqueue`: it is a rate of items enqueued
   *  (not, as jobqueue's open loop, of requests of every kind). */
  offered: Figure<number> & { unit: string; enqueue: boolean };
  /** Items consumed (read, dequeued, completed) per second over the measured window, in their unit. */
  consumed: Figure<number> & { unit: string };
  keptUp: Figure<boolean>;
  /** From the scheduled enqueue to the job's start, and to its end. */
  start: Figure<SchedPcts>;
  done: Figure<SchedPcts>;
}

/** How a queue-like workload's stored figures answer the table's questions. */
interface QueueLens {
  /** The operation that enqueues: a rate paced on it is a rate of items offered to the queue. */
  enqueue: string;
  /** The operation whose rate counts items consumed. */
  consumed: string;
  /** The latencies from the scheduled enqueue (declared names), or why the workload has none. */
  start: { metric: string } | { none: string };
  done: { metric: string } | { none: string };
}

const JOB_LIBRARY: QueueLens = { enqueue: "write", consumed: "read", start: { metric: "start" }, done: { metric: "e2e" } };
const FROM_SEND = (what: string) =>
  `${what} times it from the enqueue's send, not from its schedule (its run page shows that latency): not the same clock as the others here`;

/** The queue-like workloads, each read by its own declared names (workloads/<kind>/definition.ts metrics). */
export const QUEUE_LENSES: Record<string, QueueLens> = {
  queue: {
    enqueue: "write",
    consumed: "read",
    start: { none: "the article's queue has no handler apart from its dequeue: a message is done when its dequeue transaction commits (see enqueue → done)" },
    done: { metric: "e2eScheduled" },
  },
  "graphile-worker": JOB_LIBRARY,
  "pg-boss": JOB_LIBRARY,
  jobqueue: {
    enqueue: "enqueue",
    consumed: "dequeue",
    start: { none: "jobqueue's consumers dequeue and complete a job in one request: no start of its own" },
    done: { none: FROM_SEND("jobqueue's delivery") },
  },
  "queued-workflows": {
    enqueue: "write",
    consumed: "read",
    start: { none: "queued workflows time a workflow's start from its dequeue, not from its scheduled enqueue" },
    done: { none: FROM_SEND("queued workflows' enqueue-to-completion") },
  },
};

const num = (v: number) => Math.round(v).toLocaleString("en-US");
const pct = (v: number) => `${Math.round(v * 100)}%`;

/** The row facts of a run of a queue-like workload; undefined for any other workload. */
export function queueFactsOf(s: RunSummary): QueueFacts | undefined {
  const lens = QUEUE_LENSES[s.workload];
  if (!lens) return undefined;
  const pacing = pacingOf(s.config);
  const paced = (pacing.kind === "throttle" || pacing.kind === "open-loop") && (pacing.targetPerSecond ?? 0) > 0;
  const model = definitionOf(s.config).metrics;
  const consumedUnit = model.operations.find((o) => o.name === lens.consumed)?.unit ?? pacing.unit;
  const enqueue = pacing.operation === lens.enqueue;
  const offered = paced
    ? { value: pacing.targetPerSecond!, why: `the run's config: ${pacing.kind === "throttle" ? "its write throttle" : "its open loop's timetable"}` }
    : { value: null, why: notOffered(s, pacing.kind) };
  const consumedRate = throughputOf(s, lens.consumed);
  const window = `over the measured window (${s.window.measuredSeconds.toFixed(1)} s)`;
  const consumed = consumedRate
    ? { value: consumedRate.perSecond, why: `${lens.consumed} operations ${window}` }
    : { value: null, why: `this run stored no ${lens.consumed} rate` };
  return {
    settings: definitionOf(s.config)
      .describe(s.config)
      .filter((p) => !/ measured$/.test(p))
      .join(", "),
    offered: { ...offered, unit: perSecond(pacing.unit), enqueue },
    consumed: { ...consumed, unit: perSecond(consumedUnit) },
    // An offer of enqueues is kept up by consuming; jobqueue's offer of requests of both kinds, by serving them.
    keptUp: keptUp(
      { perSec: offered.value, unit: pacing.unit },
      enqueue
        ? { op: lens.consumed, perSec: consumed.value, what: "consumed" }
        : { op: pacing.operation, perSec: throughputOf(s, pacing.operation)?.perSecond ?? null, what: "requests of both kinds (enqueue and dequeue) served" },
      s.totals?.measures.unreadAtEnd,
    ),
    start: scheduled(s, lens.start, consumedUnit),
    done: scheduled(s, lens.done, consumedUnit),
  };
}

function notOffered(s: RunSummary, kind: string): string {
  const mode = (s.config as { mode?: string }).mode;
  if (mode === "drain") return "drain mode: the jobs were pre-loaded, then drained as fast as the workers could (the vendors' mode): no rate was offered";
  if (kind === "closed-loop") return "a closed loop of virtual users: each waits for its answer, so no rate was offered";
  return "unthrottled: the writers wrote as fast as they could, so no rate was offered";
}

/**
 * Kept up: the rate judged (items consumed, or jobqueue's requests of both kinds served) reached
 * PACE_THRESHOLDS.rateAchieved of the rate offered, the share the verdict's pace rules call met (lib/telemetry/pace.ts).
 */
function keptUp(
  offered: { perSec: number | null; unit: string },
  judged: { op: string; perSec: number | null; what: string },
  unreadAtEnd: number | undefined,
): Figure<boolean> {
  if (offered.perSec === null) return { value: null, why: "no rate was offered: nothing to keep up with" };
  if (judged.perSec === null) return { value: null, why: `this run stored no ${judged.op} rate` };
  const share = judged.perSec / offered.perSec;
  const ok = share >= PACE_THRESHOLDS.rateAchieved;
  const words = `${judged.what} ${num(judged.perSec)} of ${num(offered.perSec)} ${perSecond(offered.unit)} offered: ${pct(share)}, ${ok ? "at or above" : "below"} the ${pct(PACE_THRESHOLDS.rateAchieved)} the verdict calls met`;
  return { value: ok, why: unreadAtEnd ? `${words}; ${num(unreadAtEnd)} still unconsumed at the end` : words };
}

function scheduled(s: RunSummary, from: QueueLens["start"], unit: string): Figure<SchedPcts> {
  if ("none" in from) return { value: null, why: from.none };
  const l: LatencyStats | undefined = latencyOf(s, from.metric);
  if (!l?.count)
    return {
      value: null,
      why:
        (s.config as { mode?: string }).mode === "drain"
          ? "drain mode: pre-loaded jobs have no scheduled enqueue to time from"
          : "not measured in this run (no schedule to time from: unthrottled, or payloads too small to carry it)",
    };
  return { value: { p50: l.p50, p99: l.p99, p999: l.p999 }, why: `percentiles of the run's merged ${from.metric} histogram (${countWords(l.count, unit)})` };
}
