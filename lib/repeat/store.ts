// Repeated sets in the control store (server-only): one config queued N times on one target, each an ordinary run
// (lib/compare/ab-store.ts launchSeries, as an A/B's and a ladder's), and the group (repeat_group) that records them
// so the set's page (/runs/repeat?group=…) shows each figure with its spread and the interval of its median.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { keepQueueOrder, launchSeries } from "../compare/ab-store";
import { prisma, type PrismaClient } from "../db";
import type { LaunchRefusal } from "../targets/launch";
import { MAX_REPEATS } from "./stats";
import { labelColumns, type Labels, type LabelsInput, memberName, parseLabels } from "../runs/labels";

export const newRepeatGroupId = () => `rp_${randomUUID().replace(/-/g, "").slice(0, 12)}`;

/** The page of a repeated set. */
export const repeatUrl = (groupId: string) => `/runs/repeat?group=${groupId}`;

/** How many runs a set asks: 2 to MAX_REPEATS (one run is no set: it has no spread). */
export const Repeat = z
  .number({ error: `repeat must be a whole number of runs from 2 to ${MAX_REPEATS}` })
  .int(`repeat must be a whole number of runs from 2 to ${MAX_REPEATS}`)
  .min(2, "repeat at least 2 times: one run has no spread")
  .max(MAX_REPEATS, `at most ${MAX_REPEATS} repeats (20 give a 95 % interval of the median; 6 already do)`);

export interface RepeatGroupView {
  id: string;
  workload: string;
  config: Record<string, unknown>;
  repeats: number;
  runIds: string[];
  targetLabel: string;
  createdAt: Date;
  /** What a person calls the set (lib/runs/labels.ts). */
  labels: Labels;
}

/** Records a set whose runs are already queued; their queue order is made strictly the order given. */
export async function createRepeatGroup(
  g: { config: Record<string, unknown> & { kind: string }; runIds: string[]; targetLabel: string; labels?: Labels },
  db: PrismaClient = prisma(),
): Promise<string> {
  await keepQueueOrder(g.runIds, db);
  const id = newRepeatGroupId();
  await db.repeatGroup.create({
    data: { id, workload: g.config.kind, config: g.config as object, repeats: g.runIds.length, runs: g.runIds, targetLabel: g.targetLabel, ...g.labels },
  });
  return id;
}

export async function getRepeatGroup(id: string, db: PrismaClient = prisma()): Promise<RepeatGroupView | null> {
  const row = await db.repeatGroup.findUnique({ where: { id } });
  if (!row) return null;
  return {
    id: row.id,
    workload: row.workload,
    config: row.config as Record<string, unknown>,
    repeats: row.repeats,
    runIds: z.array(z.string()).parse(row.runs),
    targetLabel: row.targetLabel,
    createdAt: row.createdAt,
    labels: { name: row.name, notes: row.notes, tags: row.tags },
  };
}

/** Sets the set's labels given; the labels as stored, or null when there is no such set. */
export async function setRepeatGroupLabels(id: string, labels: LabelsInput, db: PrismaClient = prisma()): Promise<Labels | null> {
  const rows = await db.repeatGroup.updateManyAndReturn({ where: { id }, data: labels, select: { name: true, notes: true, tags: true } });
  return rows[0] ?? null;
}

/** Queues the config `repeats` times on one target (each checked as POST /api/runs checks it; a refusal withdraws the
 *  ones queued), and records the set. */
export async function launchRepeat(
  input: { config: Record<string, unknown>; targetId?: unknown; name?: unknown; notes?: unknown; tags?: unknown },
  repeats: number,
  db: PrismaClient = prisma(),
): Promise<{ ok: true; groupId: string; runIds: string[] } | LaunchRefusal> {
  const labels = parseLabels(input);
  if (!labels.ok) return { ok: false, error: `invalid ${Object.keys(labels.fields).join(" and ")}`, fields: labels.fields };
  const r = await launchSeries(
    input,
    Array.from({ length: repeats }, () => input.config),
    db,
    Array.from({ length: repeats }, (_, i) => memberName(labels.labels.name, `run ${i + 1} of ${repeats}`)),
  );
  if (!r.ok) return r;
  const groupId = await createRepeatGroup({ config: r.config, runIds: r.runIds, targetLabel: r.targetLabel, labels: labelColumns(labels.labels) }, db);
  return { ok: true, groupId, runIds: r.runIds };
}
