// The status of the three parts: control store, target, runner. Used by GET /api/health and the home page.
import { z } from "zod";
import { prisma } from "./db";
import { probePostgres } from "./connect";
import { defaultTargetName } from "./default-target";
import { readEnv, RUNNER_STALE_MS, PRODUCT_VERSION } from "./env";
import { describeUrl } from "./pgurl";
import { liveRunners } from "./runners";

export const PartStatus = z.object({ up: z.boolean(), detail: z.string() });
export const Health = z.object({
  ok: z.boolean(),
  version: z.string(),
  checkedAt: z.string(),
  controlStore: PartStatus,
  target: PartStatus,
  runner: PartStatus,
});
export type Health = z.infer<typeof Health>;

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([p, new Promise<T>((_, rej) => setTimeout(() => rej(new Error(`${what} did not answer within ${ms / 1000} s`)), ms))]);
}

async function control(): Promise<z.infer<typeof PartStatus>> {
  try {
    const db = prisma();
    const rows = await withTimeout(db.$queryRaw<{ v: string }[]>`SELECT current_setting('server_version') AS v`, 4000, "control store");
    return { up: true, detail: `PostgreSQL ${rows[0].v} at ${describeUrl(readEnv().DATABASE_URL ?? "")}` };
  } catch (err) {
    return { up: false, detail: (err as Error).message.split("\n")[0] };
  }
}

async function target(): Promise<z.infer<typeof PartStatus>> {
  const env = readEnv();
  const url = env.TARGET_DATABASE_URL;
  if (!url) return { up: false, detail: "TARGET_DATABASE_URL is not set" };
  try {
    const v = await probePostgres("target", url, 4000);
    const where = defaultTargetName({ embedded: env.TARGET_IS_EMBEDDED, url });
    return { up: true, detail: `PostgreSQL ${v} (${where})` };
  } catch (err) {
    return { up: false, detail: (err as Error).message };
  }
}

async function runner(): Promise<z.infer<typeof PartStatus>> {
  try {
    const live = await withTimeout(liveRunners(prisma()), 4000, "control store");
    if (!live.length) return { up: false, detail: `no runner has heart-beaten in the last ${RUNNER_STALE_MS / 1000} s` };
    const r = live[0];
    const ago = ((Date.now() - r.lastHeartbeat.getTime()) / 1000).toFixed(1);
    return { up: true, detail: `${live.length} live; ${r.host} pid ${r.pid}, last heartbeat ${ago} s ago` };
  } catch (err) {
    return { up: false, detail: (err as Error).message.split("\n")[0] };
  }
}

export async function checkHealth(): Promise<Health> {
  const [c, t, r] = await Promise.all([control(), target(), runner()]);
  return { ok: c.up && t.up && r.up, version: PRODUCT_VERSION, checkedAt: new Date().toISOString(), controlStore: c, target: t, runner: r };
}
