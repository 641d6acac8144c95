// Runs as the API and the pages show them: plain JSON (ISO dates), no connection strings, and the
// headline numbers of a finished run pulled out of its summary once, here, for the list, the API and the CLI line.
import { z } from "zod";
import { FINAL_STATUSES, type Phase, type RunStatus } from "./metrics";
import { Sample } from "./sample";
import type { RunListRow } from "./runs";
import { RunSummary } from "./summary";
import { currentDefaultTargetName, DEFAULT_TARGET_ID } from "./targets";
import { WorkloadConfig } from "./workloads";

export interface RunHeadline {
  writeMsgPerSec: number;
  writeMiBPerSec: number;
  readMsgPerSec: number;
  readMiBPerSec: number;
  /** End-to-end p99 in ms, when measured. */
  e2eP99Ms: number | null;
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
  /** Present when `withSummary` was asked for. The cumulative histograms are left out unless asked for too. */
  summary?: RunSummary | null;
}

/** A stored run: the list's row (lib/runs.ts), or the whole row with its summary (a run's page). */
type RunRow = Omit<RunListRow, "headline"> & {
  /** The whole summary (a run's page); the list passes `headline` instead. */
  summary?: unknown;
  headline?: unknown;
  target?: { id: string; name: string } | null;
};

// The list reads the headline by JSON path (lib/runs.ts listRunRows); it is checked here before it is shown.
const HeadlineSchema = z.object({
  writeMsgPerSec: z.number(),
  writeMiBPerSec: z.number(),
  readMsgPerSec: z.number(),
  readMiBPerSec: z.number(),
  e2eP99Ms: z.number().nullable().catch(null),
  verified: z.boolean(),
});

export function headlineOf(s: RunSummary): RunHeadline {
  return {
    writeMsgPerSec: s.writes.msgPerSec,
    writeMiBPerSec: s.writes.mibPerSec,
    readMsgPerSec: s.reads.msgPerSec,
    readMiBPerSec: s.reads.mibPerSec,
    e2eP99Ms: s.latencyMs.e2e?.p99 ?? null,
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
  // target_id NULL means the default target, but also a saved target deleted since (ON DELETE SET NULL).
  // The label kept at launch tells them apart; for a deleted target the id is null, so "run again" asks for one.
  const targetId = row.targetId ?? (row.targetLabel === currentDefaultTargetName() ? DEFAULT_TARGET_ID : null);
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
    headline: row.headline !== undefined ? parseHeadline(row.headline) : summary ? headlineOf(summary) : null,
  };
  if (opts.withSummary) view.summary = summary && !opts.withHistograms ? { ...summary, histograms: {} } : summary;
  return view;
}

function parseHeadline(raw: unknown): RunHeadline | null {
  const r = HeadlineSchema.safeParse(raw);
  return r.success ? r.data : null;
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
