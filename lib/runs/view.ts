// Runs as the API and the pages show them: plain JSON (ISO dates), no connection strings, and the
// headline numbers of a finished run pulled out of its summary once, here, for the list, the API and the CLI line.
import { z } from "zod";
import { FINAL_STATUSES, type Phase, type RunStatus } from "../measurement/metrics";
import { Sample } from "../measurement/sample";
import { RunSummary } from "../measurement/summary";
import { virtualTargetIdOf } from "../targets/store";
import { WorkloadConfig } from "../workloads/config";
import { latencyOf, metricModel, rateOperations, throughputOf } from "../measurement/operations";
import type { OperationDef } from "../../workloads/types";

/** One rate of the list's headline: a declared operation's measured-window rate. */
export interface HeadlineRate {
  /** The operation's declared name ("write", "get"). */
  op: string;
  /** As the workload declares it ("read"). */
  label: string;
  /** Its unit per second ("msg/s"). */
  unit: string;
  perSec: number;
}

/**
 * A finished run in the runs list: the first two rate operations its workload declares (pub/sub and queue:
 * write, read) and one p99 (the delivery latency when declared, e2e for pub/sub and queue; else the first
 * operation's). Stored in its own column when the run finishes.
 */
export interface RunHeadline {
  rates: HeadlineRate[];
  latency: { name: string; label: string; p99Ms: number | null } | null;
  verified: boolean;
}

export interface RunView {
  id: string;
  workload: WorkloadConfig["kind"];
  /** null only when a stored config no longer parses (written by an older version). */
  config: WorkloadConfig | null;
  status: RunStatus;
  phase: Phase | null;
  /** "default", a saved target's id, or null when the saved target was deleted since. */
  targetId: string | null;
  targetLabel: string;
  source: string;
  cancelRequested: boolean;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** Why the run failed / was cancelled, in words. */
  error: string | null;
  headline: RunHeadline | null;
  /** What a person calls it, wrote about it and tagged it with (lib/runs/labels.ts); null and [] when not given. */
  name: string | null;
  notes: string | null;
  tags: string[];
  /** Present when `withSummary` was asked for. The cumulative histograms are left out unless asked for too. */
  summary?: RunSummary | null;
}

/** A run as the list needs it (lib/runs/store.ts listRunRows reads it): every column but the summary, whose headline numbers come as `headline`. */
export interface RunListRow {
  id: string;
  workload: string;
  config: unknown;
  targetId: string | null;
  targetLabel: string;
  status: string;
  phase: string | null;
  source: string;
  cancelRequested: boolean;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  error: string | null;
  /** The summary's headline fields (lib/runs/view.ts RunHeadline), from their own column; null without a summary. */
  headline: unknown;
  name: string | null;
  notes: string | null;
  tags: string[];
}

/** A stored run: the list's row (lib/runs/store.ts), or the whole row with its summary (a run's page). */
type RunRow = Omit<RunListRow, "headline" | "name" | "notes" | "tags"> &
  Partial<Pick<RunListRow, "name" | "notes" | "tags">> & {
    /** The whole summary (a run's page); the list passes `headline` instead. */
    summary?: unknown;
    headline?: unknown;
    target?: { id: string; name: string } | null;
  };

// The list reads the headline column as stored (lib/runs/store.ts listRunRows); it is checked here before it is shown.
const HeadlineSchema = z.object({
  rates: z.array(z.object({ op: z.string(), label: z.string(), unit: z.string(), perSec: z.number() })),
  latency: z.object({ name: z.string(), label: z.string(), p99Ms: z.number().nullable().catch(null) }).nullable(),
  verified: z.boolean(),
});
/** The headline as runs stored it before workloads declared their operations (migration 0004): write, read, e2e. */
const BrokerHeadline = z.object({
  writeMsgPerSec: z.number(),
  readMsgPerSec: z.number(),
  e2eP99Ms: z.number().nullable().catch(null),
  verified: z.boolean(),
});

/** How many rates the list shows per run. */
const HEADLINE_RATES = 2;

function headlineParts(kind: string): { rates: OperationDef[]; latency: { name: string; label: string } | null } {
  const m = metricModel(kind);
  if (!m) return { rates: [], latency: null };
  const firstTimed = m.operations.find((o) => o.latency);
  return {
    rates: rateOperations(m).slice(0, HEADLINE_RATES),
    latency: m.delivery ? { name: m.delivery.name, label: m.delivery.label } : firstTimed ? { name: firstTimed.name, label: firstTimed.label } : null,
  };
}

export function headlineOf(s: RunSummary): RunHeadline {
  const parts = headlineParts(s.workload);
  return {
    rates: parts.rates.map((o) => ({ op: o.name, label: o.label, unit: `${o.unit}/s`, perSec: throughputOf(s, o.name)?.perSecond ?? 0 })),
    latency: parts.latency && { ...parts.latency, p99Ms: latencyOf(s, parts.latency.name)?.p99 ?? null },
    verified: s.verification.ok,
  };
}

/** The summary if it parses; a run never breaks a page because an old summary lacks a field. */
export function parseSummary(raw: unknown): RunSummary | null {
  if (raw == null) return null;
  const r = RunSummary.safeParse(raw);
  return r.success ? r.data : null;
}

export function toRunView(row: RunRow, opts: { withSummary?: boolean; withHistograms?: boolean } = {}): RunView {
  const cfg = WorkloadConfig.safeParse(row.config);
  const summary = parseSummary(row.summary);
  // target_id NULL means a virtual target (the default, the embedded replicated one), but also a saved target
  // deleted since (ON DELETE SET NULL). The label kept at launch tells them apart; for a deleted target the id is
  // null, so "run again" asks for one.
  const targetId = row.targetId ?? virtualTargetIdOf(row.targetLabel);
  const view: RunView = {
    id: row.id,
    workload: row.workload as RunView["workload"],
    config: cfg.success ? cfg.data : null,
    status: row.status as RunStatus,
    phase: (row.phase as Phase | null) ?? null,
    targetId,
    targetLabel: row.targetLabel,
    source: row.source,
    cancelRequested: row.cancelRequested,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    error: row.error,
    headline: row.headline !== undefined ? parseHeadline(row.headline, row.workload) : summary ? headlineOf(summary) : null,
    // Rows built by hand (older tests, the CLI's fake rows) may lack them.
    name: row.name ?? null,
    notes: row.notes ?? null,
    tags: row.tags ?? [],
  };
  if (opts.withSummary) view.summary = summary && !opts.withHistograms ? { ...summary, histograms: {} } : summary;
  return view;
}

function parseHeadline(raw: unknown, kind: string): RunHeadline | null {
  const r = HeadlineSchema.safeParse(raw);
  if (r.success) return r.data;
  // Stored before the headline followed the workload's declared operations: write, read and e2e by name.
  const old = BrokerHeadline.safeParse(raw);
  if (!old.success) return null;
  const parts = headlineParts(kind);
  const value: Record<string, number> = { write: old.data.writeMsgPerSec, read: old.data.readMsgPerSec };
  return {
    rates: parts.rates.filter((o) => o.name in value).map((o) => ({ op: o.name, label: o.label, unit: `${o.unit}/s`, perSec: value[o.name] })),
    latency: parts.latency && { ...parts.latency, p99Ms: parts.latency.name === "e2e" ? old.data.e2eP99Ms : null },
    verified: old.data.verified,
  };
}

export const isFinal = (s: RunStatus) => FINAL_STATUSES.includes(s);

interface SampleRow {
  seq: number;
  time: Date;
  phase: string;
  metrics: unknown;
}

/** A stored sample as JSON (the SSE `data:` and the page's initial data). Rows that do not parse are skipped by callers. */
export function toSample(row: SampleRow): Sample | null {
  const r = Sample.safeParse({ seq: row.seq, time: row.time.toISOString(), phase: row.phase, metrics: row.metrics });
  return r.success ? r.data : null;
}
