// Synchronous commit ladders in the control store (server-only): the config run once per level and round in the
// balanced order of ./order.ts, each an ordinary queued run, and the group (ladder_group) that records the levels,
// the repeats and that order, so the ladder's page (/runs/ladder?group=…) shows the runs together.
import { randomUUID } from "node:crypto";
import { prisma, type PrismaClient } from "../db";
import { keepQueueOrder, launchSeries } from "../compare/ab-store";
import type { LaunchRefusal } from "../targets/launch";
import { SYNC_COMMIT_LEVELS, type SyncCommitLevel } from "../sync-commit";
import { LadderSlot, ladderOrder } from "./order";
import { labelColumns, type Labels, type LabelsInput, memberName, parseLabels } from "../runs/labels";

export const newLadderGroupId = () => `sc_${randomUUID().replace(/-/g, "").slice(0, 12)}`;

/** The page of a ladder group. */
export const ladderUrl = (groupId: string) => `/runs/ladder?group=${groupId}`;

export interface LadderGroupView {
  id: string;
  workload: string;
  config: Record<string, unknown>;
  levels: SyncCommitLevel[];
  repeats: number;
  slots: LadderSlot[];
  targetLabel: string;
  createdAt: Date;
  /** What a person calls the ladder (lib/runs/labels.ts). */
  labels: Labels;
}

/** Records a ladder whose runs are already queued; their queue order is made strictly the slots' order. */
export async function createLadderGroup(
  g: {
    config: Record<string, unknown> & { kind: string };
    levels: SyncCommitLevel[];
    repeats: number;
    slots: LadderSlot[];
    targetLabel: string;
    labels?: Labels;
  },
  db: PrismaClient = prisma(),
): Promise<string> {
  await keepQueueOrder(
    g.slots.map((s) => s.runId),
    db,
  );
  const id = newLadderGroupId();
  const { synchronousCommit: _, ...shared } = g.config;
  await db.ladderGroup.create({
    data: {
      id,
      workload: g.config.kind,
      config: { ...shared, kind: g.config.kind },
      levels: g.levels,
      repeats: g.repeats,
      runs: g.slots as object[],
      targetLabel: g.targetLabel,
      ...g.labels,
    },
  });
  return id;
}

export async function getLadderGroup(id: string, db: PrismaClient = prisma()): Promise<LadderGroupView | null> {
  const row = await db.ladderGroup.findUnique({ where: { id } });
  if (!row) return null;
  return {
    id: row.id,
    workload: row.workload,
    config: row.config as Record<string, unknown>,
    levels: (row.levels as string[]).filter((l): l is SyncCommitLevel => (SYNC_COMMIT_LEVELS as readonly string[]).includes(l)),
    repeats: row.repeats,
    slots: LadderSlot.array().parse(row.runs),
    targetLabel: row.targetLabel,
    createdAt: row.createdAt,
    labels: { name: row.name, notes: row.notes, tags: row.tags },
  };
}

/** Sets the ladder's labels given; the labels as stored, or null when there is no such ladder. */
export async function setLadderGroupLabels(id: string, labels: LabelsInput, db: PrismaClient = prisma()): Promise<Labels | null> {
  const rows = await db.ladderGroup.updateManyAndReturn({ where: { id }, data: labels, select: { name: true, notes: true, tags: true } });
  return rows[0] ?? null;
}

/**
 * Queues the config at each level, round after round in the balanced order, on one target (each run checked as
 * POST /api/runs checks it; a refusal withdraws the ones queued), and records the group.
 */
export async function launchLadder(
  input: { config: Record<string, unknown>; targetId?: unknown; name?: unknown; notes?: unknown; tags?: unknown },
  levels: SyncCommitLevel[],
  repeats: number,
  db: PrismaClient = prisma(),
): Promise<{ ok: true; groupId: string; slots: LadderSlot[] } | LaunchRefusal> {
  const labels = parseLabels(input);
  if (!labels.ok) return { ok: false, error: `invalid ${Object.keys(labels.fields).join(" and ")}`, fields: labels.fields };
  const order = ladderOrder(levels, repeats);
  const r = await launchSeries(
    input,
    order.map((o) => ({ ...input.config, synchronousCommit: o.level })),
    db,
    order.map((o) => memberName(labels.labels.name, `${o.level}, round ${o.round}`)),
  );
  if (!r.ok) return r;
  const slots: LadderSlot[] = order.map((o, i) => ({ ...o, runId: r.runIds[i] }));
  const groupId = await createLadderGroup({ config: r.config, levels, repeats, slots, targetLabel: r.targetLabel, labels: labelColumns(labels.labels) }, db);
  return { ok: true, groupId, slots };
}
