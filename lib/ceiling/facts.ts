// From a step's run (its summary and its measured samples) to the facts its verdict is judged on, by the
// names the workload declares (workloads/<kind>/definition.ts `metrics`). Browser-safe.
import type { Sample } from "../measurement/sample";
import type { RunSummary } from "../measurement/summary";
import { definitionOf } from "../workloads/config";
import { groupsOf, latencyOf, measureOf, rateOperations, throughputOf } from "../measurement/operations";
import { type DeliveryDef, type MetricModel, writeBatchOf } from "../../workloads/types";
import type { Histogram } from "hdr-histogram-js";
import { type BoundEvidence, boundEvidence } from "./interval";
import { rateKnob, searchUnit } from "./rate";
import type { Slo } from "./slo";
import type { ClientLoad, StepFacts } from "./verdict";

/** A latency the goal can be checked on: its declared name, and its from-schedule variant when it has one. */
export interface GoalMetric {
  /** What the user names with --metric: "e2e", "write", … */
  name: string;
  label: string;
  /** The histogram timed from each item's scheduled start (coordinated omission corrected), if recorded. */
  scheduled?: { name: string; label: string };
}

/**
 * A delivery latency may declare a from-schedule variant as operations do (an item's scheduled write time to
 * its read); read structurally so a definition carrying one is used as soon as it declares it.
 */
type DeliveryWithSchedule = DeliveryDef & { scheduled?: { name: string; label: string } };

/** The latencies a goal may be set on, the delivery latency first (the default: what a user waits for). */
export function goalMetrics(model: MetricModel): GoalMetric[] {
  const out: GoalMetric[] = [];
  const d = model.delivery as DeliveryWithSchedule | undefined;
  if (d) out.push({ name: d.name, label: d.label, ...(d.scheduled ? { scheduled: d.scheduled } : {}) });
  for (const o of model.operations) if (o.latency) out.push({ name: o.name, label: o.label, ...(o.scheduled ? { scheduled: o.scheduled } : {}) });
  return out;
}

/** The metric a goal is checked on, by name (default: the first of goalMetrics), or the message saying which exist. */
export function goalMetric(kind: string, name?: string): { ok: true; metric: GoalMetric } | { ok: false; message: string } {
  const all = goalMetrics(definitionOf({ kind }).metrics);
  if (!all.length) return { ok: false, message: `the ${kind} workload measures no latency, so a latency goal cannot be checked` };
  if (name === undefined) return { ok: true, metric: all[0] };
  const m = all.find((x) => x.name === name);
  return m
    ? { ok: true, metric: m }
    : { ok: false, message: `--metric ${name}: the ${kind} workload measures no such latency; use ${all.map((x) => x.name).join(", ")}` };
}

/** Each measured second's median from-schedule latency of the paced operation: how far behind its timetable. */
function scheduleLagOf(measured: readonly Pick<Sample, "metrics">[], name: string): { t: number; lagMs: number }[] {
  const out: { t: number; lagMs: number }[] = [];
  for (const s of measured) {
    const l = latencyOf(s.metrics, name);
    if (l && l.count > 0) out.push({ t: s.metrics.elapsedSec, lagMs: l.p50 });
  }
  return out;
}

/** The paced operation's own service time: its latency's median from send (ms), null when it has none. */
export function serviceMsOf(summary: RunSummary): number | null {
  const paced = rateKnob(summary.config.kind)?.paced;
  return (paced && latencyOf(summary, paced)?.p50) || null;
}

/** Messages in flight at once: a batch per writer, and one batch of rounding (as the engine's schedule check). */
function inFlight(summary: RunSummary): number {
  const c = summary.config as Record<string, unknown>;
  const writers = typeof c.writers === "number" ? c.writers : 1;
  return (writers + 1) * summaryWriteBatch(summary);
}
const summaryWriteBatch = (summary: RunSummary) => writeBatchOf(definitionOf(summary.config), summary.config as never);

/**
 * The facts of one step. `samples`: the run's samples (any phase; the measured ones are used); `client`: how
 * busy the runner was, null when not measured.
 */
export function stepFacts(
  summary: RunSummary,
  samples: readonly Pick<Sample, "phase" | "metrics">[],
  targetRate: number,
  metric: GoalMetric,
  client: ClientLoad | null,
): StepFacts {
  const model = definitionOf(summary.config).metrics;
  const ops = rateOperations(model);
  const paced = rateKnob(summary.config.kind)?.paced ?? ops[0]?.name;
  const achievedRate = paced ? (throughputOf(summary, paced)?.perSecond ?? 0) : 0;
  const read = ops.find((o) => o.name === "read");
  const measured = samples.filter((s) => s.phase === "measuring");
  const errors = ops.reduce((a, o) => a + (throughputOf(summary, o.name)?.errors ?? 0), 0);
  const messages = [...new Set(measured.flatMap((s) => s.metrics.errors))];
  const v = summary.verification;
  const verificationProblems = v.ok ? [] : v.problems.length ? v.problems : ["verification failed: counts do not match the target"];
  const scheduled = metric.scheduled && latencyOf(summary, metric.scheduled.name) ? metric.scheduled : undefined;
  const pacedScheduled = model.operations.find((o) => o.name === paced)?.scheduled?.name;
  const unit = model.operations.find((o) => o.name === paced)?.unit;
  return {
    unit: searchUnit(summary.config.kind, summary.config),
    targetRate,
    ...(unit ? { unit } : {}),
    achievedRate,
    measuredSeconds: summary.window.measuredSeconds,
    readRate: read ? (throughputOf(summary, read.name)?.perSecond ?? 0) : null,
    fanOut: read?.perGroup ? Math.max(groupsOf(summary).length, 1) : 1,
    backlog: model.backlog ? measured.map((s) => ({ t: s.metrics.elapsedSec, items: measureOf(s.metrics, "backlog") ?? 0 })) : null,
    scheduleLag: pacedScheduled ? scheduleLagOf(measured, pacedScheduled) : null,
    backlogSlack: inFlight(summary),
    writeBatch: summaryWriteBatch(summary),
    latency: scheduled
      ? { name: scheduled.name, label: scheduled.label, stats: latencyOf(summary, scheduled.name) }
      : { name: metric.name, label: metric.label, stats: latencyOf(summary, metric.name) },
    errors: { count: errors + verificationProblems.length, messages: [...verificationProblems, ...messages] },
    client,
  };
}

/**
 * Each bound of the goal decided on the step's histogram of the goal's latency (merged over the step's runs) and
 * its measured seconds' figures of that latency (lib/ceiling/interval.ts).
 */
export function goalEvidenceOf(h: Histogram, measured: readonly Pick<Sample, "metrics">[], latencyName: string, slo: Slo): BoundEvidence[] {
  return slo.map((bound) =>
    boundEvidence(
      bound,
      h,
      measured.flatMap((s) => {
        const l = latencyOf(s.metrics, latencyName);
        return l && l.count > 0 ? [l] : [];
      }),
    ),
  );
}
