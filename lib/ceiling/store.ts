// Control-store operations on ceiling searches and their steps: the API routes, the runner and the tests go
// through these, so a search's life-cycle (queued → running → completed | failed | cancelled | interrupted,
// as a run's) lives here. Server-only.
import { randomUUID } from "node:crypto";
import { prisma, type PrismaClient } from "../db";
import { Prisma } from "../generated/prisma/client";
import { RUNNER_STALE_MS } from "../env";
import { FINAL_STATUSES, type RunStatus } from "../measurement/metrics";
import type { RunSummary } from "../measurement/summary";
import { phaseWords } from "../runs/store";
import type { WorkloadConfig } from "../workloads/config";
import type { CeilingSettings } from "./settings";
import type { SearchOutcome, StepProgress } from "./step";
import { labelColumns, type Labels, type LabelsInput } from "../runs/labels";

export type { SearchOutcome, StepProgress };

/** "c_" + 12 hex chars. */
export const newCeilingId = () => `c_${randomUUID().replace(/-/g, "").slice(0, 12)}`;

export async function createSearch(
  input: {
    config: WorkloadConfig;
    settings: CeilingSettings;
    targetId?: string | null;
    targetLabel: string;
    source?: "app" | "cli";
    status?: RunStatus;
    labels?: LabelsInput;
  },
  db: PrismaClient = prisma(),
) {
  return db.ceilingSearch.create({
    data: {
      id: newCeilingId(),
      ...labelColumns(input.labels),
      workload: input.config.kind,
      config: input.config as object,
      settings: input.settings as object,
      targetId: input.targetId ?? null,
      targetLabel: input.targetLabel,
      source: input.source ?? "app",
      status: input.status ?? "queued",
    },
  });
}

export async function getSearch(id: string, db: PrismaClient = prisma()) {
  return db.ceilingSearch.findUnique({
    where: { id },
    include: { steps: { orderBy: { index: "asc" }, select: { index: true, rate: true, sustained: true, step: true } } },
  });
}

/** Sets the search's labels given; the labels as stored, or null when there is no such search. */
export async function setSearchLabels(id: string, labels: LabelsInput, db: PrismaClient = prisma()): Promise<Labels | null> {
  const rows = await db.ceilingSearch.updateManyAndReturn({ where: { id }, data: labels, select: { name: true, notes: true, tags: true } });
  return rows[0] ?? null;
}

/** The searches, newest first, without their steps' summaries. */
export async function listSearches(filter: { workload?: string } = {}, db: PrismaClient = prisma()) {
  return db.ceilingSearch.findMany({
    where: filter.workload ? { workload: filter.workload } : {},
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    include: { steps: { orderBy: { index: "asc" }, select: { index: true, rate: true, sustained: true, step: true } } },
    take: 500,
  });
}

/** Claims the oldest queued search for `runnerId` (FOR UPDATE SKIP LOCKED, as runs). */
export async function claimNextSearch(runnerId: string, db: PrismaClient = prisma()) {
  const rows = await db.$queryRaw<{ id: string }[]>`
    UPDATE ceiling_search SET status = 'running', runner_id = ${runnerId}, started_at = now()
    WHERE id = (SELECT id FROM ceiling_search WHERE status = 'queued' ORDER BY created_at FOR UPDATE SKIP LOCKED LIMIT 1)
    RETURNING id`;
  return rows.length ? db.ceilingSearch.findUnique({ where: { id: rows[0].id } }) : null;
}

export async function setProgress(id: string, progress: StepProgress | null, db: PrismaClient = prisma()) {
  await db.ceilingSearch.update({ where: { id }, data: { progress: progress === null ? Prisma.DbNull : (progress as object) } });
}

/** Stores one judged step; its summary is kept without the histograms (tens of kB a step). */
export async function appendStep(id: string, step: { index: number; rate: number; sustained: boolean }, summary: RunSummary, db: PrismaClient = prisma()) {
  const { histograms: _dropped, ...rest } = summary;
  await db.ceilingStepRow.create({
    data: { searchId: id, index: step.index, rate: step.rate, sustained: step.sustained, step: step as object, summary: rest as object },
  });
}

export async function finishSearch(
  id: string,
  outcome: { status: Exclude<RunStatus, "queued" | "running">; result?: SearchOutcome; error?: string },
  db: PrismaClient = prisma(),
) {
  await db.ceilingSearch.update({
    where: { id },
    data: {
      status: outcome.status,
      finishedAt: new Date(),
      error: outcome.error ?? null,
      progress: Prisma.DbNull,
      ...(outcome.result ? { result: outcome.result as object } : {}),
    },
  });
}

/** Asks for a search to stop: a queued one is cancelled at once, a running one by its runner within 2 s. */
export async function requestSearchCancel(id: string, db: PrismaClient = prisma()): Promise<"cancelled" | "requested" | "finished" | "missing"> {
  const s = await db.ceilingSearch.findUnique({ where: { id }, select: { status: true } });
  if (!s) return "missing";
  if (FINAL_STATUSES.includes(s.status as RunStatus)) return "finished";
  const queued = await db.ceilingSearch.updateMany({
    where: { id, status: "queued" },
    data: { status: "cancelled", cancelRequested: true, finishedAt: new Date(), error: "cancelled before it started" },
  });
  if (queued.count) return "cancelled";
  await db.ceilingSearch.update({ where: { id }, data: { cancelRequested: true } });
  return "requested";
}

export async function isSearchCancelRequested(id: string, db: PrismaClient = prisma()) {
  const r = await db.ceilingSearch.findUnique({ where: { id }, select: { cancelRequested: true } });
  return r?.cancelRequested ?? true;
}

export async function deleteSearch(id: string, db: PrismaClient = prisma()) {
  return (await db.ceilingSearch.deleteMany({ where: { id } })).count > 0;
}

/**
 * Where an interrupted search stopped, as precisely as a run says it: "while measuring step 3 (at 4,000/s)",
 * from the step in progress; "before its first step" when none had started.
 */
export function searchStoppedAt(progress: StepProgress | null | undefined): string {
  if (!progress) return "before its first step";
  return `while ${phaseWords(progress.phase)} step ${progress.index + 1} (at ${progress.rate.toLocaleString("en-US")}/s)`;
}

/** Marks the given running searches interrupted, each with `reason` and where it stopped; returns their ids. */
async function interruptSearches(ids: string[], reason: string, db: PrismaClient): Promise<string[]> {
  const done: string[] = [];
  for (const s of await db.ceilingSearch.findMany({ where: { id: { in: ids }, status: "running" }, select: { id: true, progress: true } })) {
    const error = `${reason} ${searchStoppedAt(s.progress as StepProgress | null)}; the steps it finished are kept`;
    const r = await db.ceilingSearch.updateMany({
      where: { id: s.id, status: "running" },
      data: { status: "interrupted", finishedAt: new Date(), progress: Prisma.DbNull, error },
    });
    if (r.count) done.push(s.id);
  }
  return done;
}

/** Marks running searches whose runner stopped heart-beating as interrupted (their steps stay). Returns how many. */
export async function markInterruptedSearches(db: PrismaClient = prisma(), now = new Date()) {
  const cutoff = new Date(now.getTime() - RUNNER_STALE_MS);
  const stale = await db.$queryRaw<{ id: string }[]>`
    SELECT id FROM ceiling_search
    WHERE status = 'running'
      AND (runner_id IS NULL OR NOT EXISTS (SELECT 1 FROM runner r WHERE r.id = ceiling_search.runner_id AND r.last_heartbeat >= ${cutoff}))`;
  const ids = stale.map((r) => r.id);
  if (!ids.length) return 0;
  return (await interruptSearches(ids, "the runner executing this search stopped heart-beating (it was killed or lost its connection)", db)).length;
}

/**
 * Marks the running searches of the runner process `pid` on `host` interrupted at once (its supervisor saw it
 * die, `reason` says how), naming the step and the phase each was in, as interruptRunsOfProcess does for runs.
 */
export async function interruptSearchesOfProcess(host: string, pid: number, reason: string, db: PrismaClient = prisma()) {
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT id FROM ceiling_search
    WHERE status = 'running' AND runner_id IN (SELECT id FROM runner WHERE host = ${host} AND pid = ${pid})`;
  return interruptSearches(
    rows.map((r) => r.id),
    reason,
    db,
  );
}
