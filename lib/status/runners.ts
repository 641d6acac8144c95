// Runner liveness, shared by the runner (writes heartbeats) and the app (reads them).
import os from "node:os";
import { RUNNER_STALE_MS, PRODUCT_VERSION } from "../env";
import type { PrismaClient } from "../db";

export async function registerRunner(db: PrismaClient, id: string) {
  const now = new Date();
  await db.runner.upsert({
    where: { id },
    // Its cores: the New run form's "auto" runner processes are the cores of the runner that takes the run.
    create: { id, host: os.hostname(), pid: process.pid, version: PRODUCT_VERSION, cores: os.availableParallelism(), lastHeartbeat: now, startedAt: now },
    update: { lastHeartbeat: now, pid: process.pid, cores: os.availableParallelism() },
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

/** The cores of the runner that will take the next run (the newest live one), or null when no live runner has
 *  recorded them: what the New run form's "auto" runner processes fills in. */
export async function runnerCores(db: PrismaClient, now = new Date()): Promise<number | null> {
  const live = await liveRunners(db, now);
  return live.find((r) => r.cores !== null)?.cores ?? null;
}
