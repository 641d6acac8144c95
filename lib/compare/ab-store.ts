// A/B groups in the control store (server-only): N pairs of baseline and modded runs queued in the balanced
// order of ab-order.ts, and the group that records that order so the A/B page shows the runs together.
import { randomUUID } from "node:crypto";
import { prisma, type PrismaClient } from "../db";
import { requestCancel } from "../runs/store";
import { launchRun, type LaunchRefusal } from "../targets/launch";
import { variantInputs } from "./ab";
import { abOrder, AbSlot } from "./ab-order";
import { labelColumns, type Labels, type LabelsInput, memberName, parseLabels } from "../runs/labels";

export const newAbGroupId = () => `ab_${randomUUID().replace(/-/g, "").slice(0, 12)}`;

export interface AbGroupView {
  id: string;
  workload: string;
  config: Record<string, unknown>;
  pairs: number;
  slots: AbSlot[];
  targetLabel: string;
  createdAt: Date;
  /** What a person calls the A/B (lib/runs/labels.ts). */
  labels: Labels;
}

/**
 * Makes the runner take queued runs strictly in this order. It takes the oldest queued run first (created_at, in
 * ms): two runs queued in one millisecond would run in either order, so each is made at least 1 ms younger than
 * the one before it. The A/B's and the synchronous commit ladder's groups (lib/ladder/store.ts) are queued so.
 */
export async function keepQueueOrder(runIds: readonly string[], db: PrismaClient): Promise<void> {
  for (let i = 1; i < runIds.length; i++)
    await db.$executeRaw`UPDATE run SET created_at = GREATEST(created_at, (SELECT created_at FROM run WHERE id = ${runIds[i - 1]}) + interval '1 millisecond')
                         WHERE id = ${runIds[i]}`;
}

/** Records a group whose runs are already queued; their queue order is made strictly the slots' order. */
export async function createAbGroup(
  g: { config: Record<string, unknown> & { kind: string }; pairs: number; slots: AbSlot[]; targetLabel: string; labels?: Labels },
  db: PrismaClient = prisma(),
): Promise<string> {
  await keepQueueOrder(
    g.slots.map((s) => s.runId),
    db,
  );
  const id = newAbGroupId();
  await db.abGroup.create({
    data: { id, workload: g.config.kind, config: g.config as object, pairs: g.pairs, runs: g.slots as object[], targetLabel: g.targetLabel, ...g.labels },
  });
  return id;
}

export async function getAbGroup(id: string, db: PrismaClient = prisma()): Promise<AbGroupView | null> {
  const row = await db.abGroup.findUnique({ where: { id } });
  if (!row) return null;
  return {
    id: row.id,
    workload: row.workload,
    config: row.config as Record<string, unknown>,
    pairs: row.pairs,
    slots: AbSlot.array().parse(row.runs),
    targetLabel: row.targetLabel,
    createdAt: row.createdAt,
    labels: { name: row.name, notes: row.notes, tags: row.tags },
  };
}

/** Sets the A/B's labels given; the labels as stored, or null when there is no such A/B. */
export async function setAbGroupLabels(id: string, labels: LabelsInput, db: PrismaClient = prisma()): Promise<Labels | null> {
  const rows = await db.abGroup.updateManyAndReturn({ where: { id }, data: labels, select: { name: true, notes: true, tags: true } });
  return rows[0] ?? null;
}

/** What launchSeries queued: each run's id in order, the first run's parsed config and the target's label. */
export interface QueuedSeries {
  ok: true;
  runIds: string[];
  config: Record<string, unknown> & { kind: string };
  targetLabel: string;
}

/**
 * Queues one run per config, in order, on one target, each checked as POST /api/runs checks it. A refused run
 * withdraws the ones already queued: half a set (an A/B, a ladder) is not what was asked for.
 */
export async function launchSeries(
  input: { targetId?: unknown },
  configs: readonly Record<string, unknown>[],
  db: PrismaClient = prisma(),
  /** Each run's name (lib/runs/labels.ts memberName), in place of the set's; the set's tags and notes go to every run. */
  names: readonly (string | null)[] = [],
): Promise<QueuedSeries | LaunchRefusal> {
  const runIds: string[] = [];
  let config: QueuedSeries["config"] | null = null;
  let targetLabel = "";
  for (const [i, c] of configs.entries()) {
    const r = await launchRun({ ...input, config: c, ...(names[i] ? { name: names[i] } : {}) }, db);
    if (!r.ok) {
      for (const id of runIds) await requestCancel(id, db).catch(() => undefined);
      return r;
    }
    runIds.push(r.id);
    config ??= r.config as unknown as QueuedSeries["config"];
    targetLabel ||= (await db.run.findUnique({ where: { id: r.id }, select: { targetLabel: true } }))?.targetLabel ?? "";
  }
  return { ok: true, runIds, config: config!, targetLabel };
}

/**
 * Queues `pairs` pairs of the config's variants in ABBA order on one target (launchSeries), and records the group.
 */
export async function launchAb(
  input: { config: Record<string, unknown>; targetId?: unknown; name?: unknown; notes?: unknown; tags?: unknown },
  pairs: number,
  db: PrismaClient = prisma(),
): Promise<{ ok: true; groupId: string; slots: AbSlot[] } | LaunchRefusal> {
  const labels = parseLabels(input);
  if (!labels.ok) return { ok: false, error: `invalid ${Object.keys(labels.fields).join(" and ")}`, fields: labels.fields };
  const inputs = variantInputs(input.config);
  const order = abOrder(pairs);
  const names = order.map((o) => memberName(labels.labels.name, `${o.variant}, pair ${o.pair}`));
  const r = await launchSeries(
    input,
    order.map((o) => inputs[o.variant]),
    db,
    names,
  );
  if (!r.ok) return r;
  const slots: AbSlot[] = order.map((o, i) => ({ ...o, runId: r.runIds[i] }));
  const { variant: _, ...shared } = r.config;
  const groupId = await createAbGroup(
    { config: { ...shared, kind: r.config.kind }, pairs, slots, targetLabel: r.targetLabel, labels: labelColumns(labels.labels) },
    db,
  );
  return { ok: true, groupId, slots };
}
