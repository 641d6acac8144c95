// The status of the three parts: control store, target, runner. Used by GET /api/health and the home page.
import { z } from "zod";
import { prisma } from "../db";
import { probePostgres } from "../targets/connect";
import { defaultTargetName } from "../targets/default-target";
import { readEnv, RUNNER_STALE_MS, PRODUCT_VERSION } from "../env";
import { describeUrl, explainPgError } from "../targets/pgurl";
import { liveRunners } from "./runners";
import { controlStoreDown, runnerDown } from "../../platform/supervisor-state";

/**
 * One line saying why a control-store call failed, never blank: Prisma's messages start with a newline
 * and an "Invalid `…` invocation" line, and the driver's error (with its code) sits in the cause chain.
 */
export function storeErrorText(err: unknown): string {
  const chain: { code?: unknown; message?: string; cause?: unknown; name?: string }[] = [];
  for (let e = err as (typeof chain)[number] | undefined, i = 0; e && i < 6; e = e.cause as typeof e, i++) chain.push(e);
  const all = chain.map((e) => `${String(e.code ?? "")} ${e.message ?? ""}`).join("\n");
  if (/ECONNREFUSED|connection refused/i.test(all)) return "connection refused";
  // Prisma's pg adapter reports ECONNREFUSED and ENOTFOUND alike as "Can't reach database server at h:p".
  const unreachable = all.match(/Can't reach database server at (\S+?)(?:`|$|\s)/m);
  if (unreachable)
    return /^(\d+\.\d+\.\d+\.\d+|\[?[0-9a-f:]+\]?|localhost)(:\d+)?$/i.test(unreachable[1])
      ? "connection refused"
      : `cannot reach ${unreachable[1]} (connection refused, or the host name is unknown)`;
  if (/57P01|terminating connection due to administrator command/i.test(all)) return "the server shut down the connection (57P01)";
  if (/57P03|starting up|shutting down/i.test(all)) return "the server is starting up or shutting down";
  if (/Connection terminated|ECONNRESET|connection closed/i.test(all)) return "the connection was closed";
  const coded = chain.find((e) => typeof e.code === "string" && !String(e.code).startsWith("P"));
  if (coded) return explainPgError(coded);
  for (const e of chain) {
    const lines = (e.message ?? "")
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l && !/^Invalid `.*` invocation/.test(l));
    if (lines.length) return lines[lines.length - 1];
  }
  return chain[0]?.name ?? String(err);
}

/**
 * Whether an error means the control store is unreachable or restarting, so the same write will succeed once
 * it is back (and is worth keeping and retrying). Anything else (a constraint, a run deleted meanwhile) would
 * fail the same way every time.
 */
export function isStoreUnavailable(err: unknown): boolean {
  return (
    /^(connection refused|cannot reach |the server shut down the connection|the server is starting up|the connection was closed)/.test(storeErrorText(err)) ||
    /timed? ?out|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN/i.test(String((err as Error)?.message ?? err))
  );
}

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
  const restarting = controlStoreDown();
  if (restarting) return { up: false, detail: restarting };
  try {
    const db = prisma();
    const rows = await withTimeout(db.$queryRaw<{ v: string }[]>`SELECT current_setting('server_version') AS v`, 4000, "control store");
    return { up: true, detail: `PostgreSQL ${rows[0].v} at ${describeUrl(readEnv().DATABASE_URL ?? "")}` };
  } catch (err) {
    return { up: false, detail: storeErrorText(err) };
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
  const restarting = runnerDown();
  if (restarting) return { up: false, detail: restarting };
  try {
    const live = await withTimeout(liveRunners(prisma()), 4000, "control store");
    if (!live.length) return { up: false, detail: `no runner has heart-beaten in the last ${RUNNER_STALE_MS / 1000} s` };
    const r = live[0];
    const ago = ((Date.now() - r.lastHeartbeat.getTime()) / 1000).toFixed(1);
    return { up: true, detail: `${live.length} live; ${r.host} pid ${r.pid}, last heartbeat ${ago} s ago` };
  } catch (err) {
    return { up: false, detail: `cannot read the runners: ${storeErrorText(err)}` };
  }
}

export async function checkHealth(): Promise<Health> {
  const [c, t, r] = await Promise.all([control(), target(), runner()]);
  return { ok: c.up && t.up && r.up, version: PRODUCT_VERSION, checkedAt: new Date().toISOString(), controlStore: c, target: t, runner: r };
}
