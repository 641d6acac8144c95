// A/B groups in the control store (server-only): N pairs of baseline and modded runs queued in the balanced
// order of ab-order.ts, and the group that records that order so the A/B page shows the runs together.
import { randomUUID } from "node:crypto";
import { prisma, type PrismaClient } from "../db";
import { requestCancel } from "../runs/store";
import { launchRun, type LaunchRefusal } from "../targets/launch";
import { variantInputs } from "./ab";
import { abOrder, AbSlot } from "./ab-order";

export const newAbGroupId = () => `ab_${randomUUID().replace(/-/g, "").slice(0, 12)}`;

export interface AbGroupView {
  id: string;
  workload: string;
  config: Record<string, unknown>;
  pairs: number;
  slots: AbSlot[];
  targetLabel: string;
  createdAt: Date;
}

/** Records a group whose runs are already queued; their queue order is made strictly the slots' order. */
export async function createAbGroup(
  g: { config: Record<string, unknown> & { kind: string }; pairs: number; slots: AbSlot[]; targetLabel: string },
  db: PrismaClient = prisma(),
): Promise<string> {
  // The runner takes the oldest queued run first (created_at, in ms): two runs queued in one millisecond would
  // run in either order, so each is made at least 1 ms younger than the one before it.
  for (let i = 1; i < g.slots.length; i++)
    await db.$executeRaw`UPDATE run SET created_at = GREATEST(created_at, (SELECT created_at FROM run WHERE id = ${g.slots[i - 1].runId}) + interval '1 millisecond')
                         WHERE id = ${g.slots[i].runId}`;
  const id = newAbGroupId();
  await db.abGroup.create({
    data: { id, workload: g.config.kind, config: g.config as object, pairs: g.pairs, runs: g.slots as object[], targetLabel: g.targetLabel },
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
  };
}

/**
 * Queues `pairs` pairs of the config's variants in ABBA order on one target, each run checked as POST /api/runs
 * checks it, and records the group. A refused run withdraws the ones already queued: half an A/B is not what
 * was asked for.
 */
export async function launchAb(
  input: { config: Record<string, unknown>; targetId?: unknown },
  pairs: number,
  db: PrismaClient = prisma(),
): Promise<{ ok: true; groupId: string; slots: AbSlot[] } | LaunchRefusal> {
  const inputs = variantInputs(input.config);
  const slots: AbSlot[] = [];
  let config: (Record<string, unknown> & { kind: string }) | null = null;
  let targetLabel = "";
  for (const { pair, variant } of abOrder(pairs)) {
    const r = await launchRun({ ...input, config: inputs[variant] }, db);
    if (!r.ok) {
      for (const s of slots) await requestCancel(s.runId, db).catch(() => undefined);
      return r;
    }
    slots.push({ pair, variant, runId: r.id });
    config ??= r.config as unknown as Record<string, unknown> & { kind: string };
    targetLabel ||= (await db.run.findUnique({ where: { id: r.id }, select: { targetLabel: true } }))?.targetLabel ?? "";
  }
  const { variant: _, ...shared } = config!;
  const groupId = await createAbGroup({ config: { ...shared, kind: config!.kind }, pairs, slots, targetLabel }, db);
  return { ok: true, groupId, slots };
}
