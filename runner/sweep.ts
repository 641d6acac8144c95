// Drops run schemas (pgbb_*) left on targets by runs that can no longer drop them themselves: the target
// restarted mid-run, the admin connection was lost, the runner was killed. A schema is dropped when its run is
// final in this control store, or when its run is unknown here (a CLI run, another control store) and the
// schema is older than GRACE_MS, judged by the creation time the engine writes into its comment.
import pg from "pg";
import type { PrismaClient } from "../lib/db";
import { FINAL_STATUSES, type RunStatus } from "../lib/measurement/metrics";
import { maskUrl } from "../lib/targets/pgurl";
import { ident } from "./pg/pgclient";

/** A schema of a run unknown to this control store is left alone this long (the run may still be going). */
export const GRACE_MS = 60 * 60 * 1000;

/** What the engine writes into COMMENT ON SCHEMA, so a sweep can tell whose and how old a schema is. */
export function schemaComment(runId: string | undefined, createdAt = new Date()): string {
  return JSON.stringify({ pgbbRun: runId ?? null, createdAt: createdAt.toISOString() });
}

function parseComment(c: string | null): { runId: string | null; createdAt: number | null } {
  try {
    const j = JSON.parse(c ?? "");
    const t = Date.parse(j?.createdAt);
    return { runId: typeof j?.pgbbRun === "string" ? j.pgbbRun : null, createdAt: Number.isFinite(t) ? t : null };
  } catch {
    return { runId: null, createdAt: null };
  }
}

export interface SweepResult {
  dropped: string[];
  /** Targets that could not be swept, with why (retried on the next sweep). */
  problems: string[];
}

/** Sweeps every target this control store knows (saved targets and the runner's default target). */
export async function sweepSchemas(db: PrismaClient, defaultTargetUrl: string | undefined, now = Date.now()): Promise<SweepResult> {
  const urls = new Set<string>((await db.target.findMany({ select: { connectionString: true } })).map((t) => t.connectionString));
  if (defaultTargetUrl) urls.add(defaultTargetUrl);
  const result: SweepResult = { dropped: [], problems: [] };
  for (const url of urls) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000, application_name: "pgbb sweep" });
    client.on("error", () => undefined); // a lost connection surfaces as a failed query below
    try {
      await client.connect();
      const { rows } = await client.query<{ name: string; comment: string | null }>(
        `SELECT nspname AS name, obj_description(oid, 'pg_namespace') AS comment FROM pg_namespace WHERE nspname LIKE 'pgbb\\_%'`,
      );
      for (const row of rows) {
        const c = parseComment(row.comment);
        // Schemas made before comments were written: their name holds the run id (schemaNameFor).
        const runId = c.runId ?? (/^pgbb_r_[0-9a-f]{12}$/.test(row.name) ? row.name.slice("pgbb_".length) : null);
        // A ceiling search's step runs as "<search id>_s<step>" (runner/ceiling/execute.ts): its search decides.
        const searchId = runId && /^c_[0-9a-f]{12}_s\d+$/.test(runId) ? runId.replace(/_s\d+$/, "") : null;
        const run = searchId
          ? await db.ceilingSearch.findUnique({ where: { id: searchId }, select: { status: true } })
          : runId
            ? await db.run.findUnique({ where: { id: runId }, select: { status: true } })
            : null;
        const drop = run ? FINAL_STATUSES.includes(run.status as RunStatus) : c.createdAt !== null && now - c.createdAt > GRACE_MS;
        if (!drop) continue;
        await client.query("SET lock_timeout = '5s'");
        await client.query(`DROP SCHEMA ${ident(row.name)} CASCADE`);
        const whose = searchId ? `ceiling search ${searchId}` : `run ${runId}`;
        result.dropped.push(`${row.name} on ${maskUrl(url)} (${run ? `${whose} is ${run.status}` : "an unknown run's, older than an hour"})`);
      }
    } catch (err) {
      result.problems.push(`${maskUrl(url)}: ${(err as Error).message.split("\n")[0]}`);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  return result;
}
