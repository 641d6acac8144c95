// Control-store operations on runs and samples. The API routes, the runner and the CLI all go through
// these, so a run's life-cycle (queued → running → completed | failed | cancelled | interrupted) lives here.
import { randomUUID } from "node:crypto";
import { prisma, type PrismaClient } from "../db";
import { Prisma } from "../generated/prisma/client";
import { RUNNER_STALE_MS } from "../env";
import { FINAL_STATUSES, type Phase, type RunStatus } from "../measurement/metrics";
import type { SampleMetrics } from "../measurement/sample";
import { headlineOf, type RunListRow } from "./view";
import type { RunSummary } from "../measurement/summary";
import type { WorkloadConfig } from "../workloads/config";
import { labelColumns, type Labels, type LabelsInput } from "./labels";
import { likeAnywhere, type RunListFilter } from "./list-filter";

export type RunSource = "app" | "cli" | "import";

/** Short, URL-friendly, sortable-enough ids: "r_" + 12 hex chars. */
export const newRunId = () => `r_${randomUUID().replace(/-/g, "").slice(0, 12)}`;

export async function createRun(
  input: { config: WorkloadConfig; targetId?: string | null; targetLabel: string; source?: RunSource; status?: RunStatus; labels?: LabelsInput },
  db: PrismaClient = prisma(),
) {
  return db.run.create({
    data: {
      id: newRunId(),
      ...labelColumns(input.labels),
      workload: input.config.kind,
      config: input.config as object,
      targetId: input.targetId ?? null,
      targetLabel: input.targetLabel,
      source: input.source ?? "app",
      status: input.status ?? "queued",
    },
  });
}

export async function getRun(id: string, db: PrismaClient = prisma()) {
  return db.run.findUnique({ where: { id }, include: { target: { select: { id: true, name: true } } } });
}

export type { RunListFilter } from "./list-filter";

/** The list filter's condition on `run` (lib/runs/list-filter.ts): every part given must hold. Imports are never matched. */
function filterWhere(f: RunListFilter): Prisma.Sql {
  const statuses = f.statuses ?? [];
  const like = f.text ? likeAnywhere(f.text) : null;
  return Prisma.sql`(${f.workload ?? null}::text IS NULL OR workload = ${f.workload ?? null})
      AND (cardinality(${statuses}::text[]) = 0 OR status = ANY(${statuses}::run_status[]))
      AND (${f.target ?? null}::text IS NULL OR target_label = ${f.target ?? null})
      AND (${f.tag ?? null}::text IS NULL OR tags @> ARRAY[${f.tag ?? null}::text])
      AND (${like}::text IS NULL OR name ILIKE ${like} OR notes ILIKE ${like})
      AND (${f.from ?? null}::date IS NULL OR created_at >= (${f.from ?? null}::date)::timestamp AT TIME ZONE 'UTC')
      AND (${f.to ?? null}::date IS NULL OR created_at < (${f.to ?? null}::date + 1)::timestamp AT TIME ZONE 'UTC')`;
}

/**
 * The runs of the list, newest first, filtered in SQL. The summary (with its base64 histograms,
 * tens of kB a run) is not read at all: its headline numbers have a column of their own (written by
 * finishRun). Runs imported from another instance's bundle (source "import", lib/bundle/) are listed beside the
 * local ones, marked; the reference tool's imported results are another table (imported_result), not listed here.
 */
export async function listRunRows(filter: RunListFilter = {}, db: PrismaClient = prisma()): Promise<RunListRow[]> {
  return db.$queryRaw<RunListRow[]>`
    SELECT id, workload, config, target_id AS "targetId", target_label AS "targetLabel", status, phase, source,
           cancel_requested AS "cancelRequested", created_at AS "createdAt", started_at AS "startedAt",
           finished_at AS "finishedAt", error, headline, name, notes, tags
    FROM run
    WHERE ${filterWhere(filter)}
    ORDER BY created_at DESC, id`;
}

/** How many runs the list has unfiltered, and the target names and tags they use (the filters' choices). */
export async function runsListFacets(db: PrismaClient = prisma()): Promise<{ total: number; targets: string[]; tags: string[] }> {
  const [r] = await db.$queryRaw<{ total: number; targets: string[] | null; tags: string[] | null }[]>`
    SELECT count(*)::int AS total,
           (SELECT array_agg(DISTINCT target_label ORDER BY target_label) FROM run) AS targets,
           (SELECT array_agg(DISTINCT t ORDER BY t) FROM run, unnest(tags) t) AS tags
    FROM run`;
  return { total: r.total, targets: r.targets ?? [], tags: r.tags ?? [] };
}

/**
 * Deletes every run the filter matches but those queued or running (their runner still writes to them: cancel them
 * first), with their samples and parts (ON DELETE CASCADE). In one statement, so a run that starts meanwhile is
 * either deleted before it was claimed or skipped. Returns how many were deleted and skipped.
 */
export async function deleteRunsMatching(filter: RunListFilter, db: PrismaClient = prisma()): Promise<{ deleted: number; skipped: number }> {
  const [r] = await db.$queryRaw<{ deleted: number; skipped: number }[]>`
    WITH matched AS (SELECT id, status FROM run WHERE ${filterWhere(filter)} FOR UPDATE),
         gone AS (DELETE FROM run WHERE id IN (SELECT id FROM matched WHERE status NOT IN ('queued', 'running')) RETURNING id)
    SELECT (SELECT count(*) FROM gone)::int AS deleted,
           (SELECT count(*) FROM matched WHERE status IN ('queued', 'running'))::int AS skipped`;
  return r;
}

/** Sets the labels given (a null or blank one removes it); the labels as stored, or null when the run does not exist. */
export async function setRunLabels(id: string, labels: LabelsInput, db: PrismaClient = prisma()): Promise<Labels | null> {
  const rows = await db.run.updateManyAndReturn({ where: { id }, data: labels, select: { name: true, notes: true, tags: true } });
  return rows[0] ?? null;
}

/**
 * Claims the oldest queued run for `runnerId`. FOR UPDATE SKIP LOCKED lets several runners poll one control
 * store without ever claiming the same run twice.
 */
export async function claimNextRun(runnerId: string, db: PrismaClient = prisma()) {
  const rows = await db.$queryRaw<{ id: string }[]>`
    UPDATE run SET status = 'running', runner_id = ${runnerId}, started_at = now(), phase = 'setup'
    WHERE id = (SELECT id FROM run WHERE status = 'queued' ORDER BY created_at FOR UPDATE SKIP LOCKED LIMIT 1)
    RETURNING id`;
  return rows.length ? getRun(rows[0].id, db) : null;
}

export async function setPhase(id: string, phase: Phase, db: PrismaClient = prisma()) {
  await db.run.update({ where: { id }, data: { phase } });
}

export async function appendSample(runId: string, seq: number, phase: Phase, metrics: SampleMetrics, time = new Date(), db: PrismaClient = prisma()) {
  await db.sample.create({ data: { runId, seq, time, phase, metrics: metrics as object } });
}

/** Samples with seq > afterSeq, in order (for SSE resume with Last-Event-ID). */
export async function samplesAfter(runId: string, afterSeq = -1, db: PrismaClient = prisma()) {
  return db.sample.findMany({ where: { runId, seq: { gt: afterSeq } }, orderBy: { seq: "asc" } });
}

export async function finishRun(
  id: string,
  outcome: { status: Exclude<RunStatus, "queued" | "running">; summary?: RunSummary; error?: string },
  db: PrismaClient = prisma(),
) {
  await db.run.update({
    where: { id },
    data: {
      status: outcome.status,
      // Only a completed run is "done": one that failed, was cancelled or interrupted keeps the phase it stopped in,
      // so its page says where; a failed verification (the run's summary is kept) failed while verifying.
      ...(outcome.status === "completed" ? { phase: "done" } : outcome.status === "failed" && outcome.summary ? { phase: "verifying" } : {}),
      finishedAt: new Date(),
      error: outcome.error ?? null,
      ...(outcome.summary ? { summary: outcome.summary as object, headline: headlineOf(outcome.summary) as object } : {}),
    },
  });
}

/** Asks for a run to stop. A queued run is cancelled at once; a running one by its runner within 2 s. */
export async function requestCancel(id: string, db: PrismaClient = prisma()): Promise<"cancelled" | "requested" | "finished" | "missing"> {
  const run = await db.run.findUnique({ where: { id } });
  if (!run) return "missing";
  if (FINAL_STATUSES.includes(run.status as RunStatus)) return "finished";
  const queued = await db.run.updateMany({
    where: { id, status: "queued" },
    data: { status: "cancelled", cancelRequested: true, finishedAt: new Date(), phase: "done", error: "cancelled before it started" },
  });
  if (queued.count) return "cancelled";
  await db.run.update({ where: { id }, data: { cancelRequested: true } });
  return "requested";
}

export async function isCancelRequested(id: string, db: PrismaClient = prisma()) {
  const r = await db.run.findUnique({ where: { id }, select: { cancelRequested: true } });
  return r?.cancelRequested ?? true;
}

export async function deleteRun(id: string, db: PrismaClient = prisma()) {
  const r = await db.run.deleteMany({ where: { id } });
  return r.count > 0;
}

/** Marks running runs whose runner stopped heart-beating as interrupted. Returns how many. */
export async function markInterruptedRuns(db: PrismaClient = prisma(), now = new Date()) {
  const cutoff = new Date(now.getTime() - RUNNER_STALE_MS);
  const n = await db.$executeRaw`
    UPDATE run SET status = 'interrupted', finished_at = now(),
      error = 'the runner executing this run stopped heart-beating (it was killed or lost its connection)'
    WHERE status = 'running'
      AND (runner_id IS NULL OR NOT EXISTS (SELECT 1 FROM runner r WHERE r.id = run.runner_id AND r.last_heartbeat >= ${cutoff}))`;
  return n;
}

/**
 * Marks the running runs of the runner process `pid` on `host` interrupted at once (its supervisor saw it
 * die), keeping the phase each was in and naming it in the error. Returns the ids.
 */
export async function interruptRunsOfProcess(host: string, pid: number, reason: string, db: PrismaClient = prisma()) {
  const rows = await db.$queryRaw<{ id: string; phase: string | null }[]>`
    UPDATE run SET status = 'interrupted', finished_at = now(),
      error = ${reason} || ' while ' || CASE coalesce(phase::text, 'setup') WHEN 'setup' THEN 'setting up' ELSE phase::text END
    WHERE status = 'running' AND runner_id IN (SELECT id FROM runner WHERE host = ${host} AND pid = ${pid})
    RETURNING id, phase::text AS phase`;
  await db.runner.deleteMany({ where: { host, pid } });
  return rows;
}

/** "measuring", "setting up"…: a phase in words for error texts. */
export const phaseWords = (p: string | null | undefined) => (!p || p === "setup" ? "setting up" : p);
