// Runner liveness, shared by the runner (writes heartbeats) and the app (reads them).
import os from "node:os";
import { RUNNER_STALE_MS, PRODUCT_VERSION } from "../env";
import type { PrismaClient } from "../db";

export async function registerRunner(db: PrismaClient, id: string) {
  const now = new Date();
  await db.runner.upsert({
    where: { id },
    create: { id, host: os.hostname(), pid: process.pid, version: PRODUCT_VERSION, lastHeartbeat: now, startedAt: now },
    update: { lastHeartbeat: now, pid: process.pid },
  });
}

export async function heartbeat(db: PrismaClient, id: string) {
  await db.runner.update({ where: { id }, data: { lastHeartbeat: new Date() } });
}

/** Runners whose last heartbeat is within RUNNER_STALE_MS, newest first. */
export async function liveRunners(db: PrismaClient, now = new Date()) {
  return db.runner.findMany({
    where: { lastHeartbeat: { gte: new Date(now.getTime() - RUNNER_STALE_MS) } },
    orderBy: { lastHeartbeat: "desc" },
  });
}
