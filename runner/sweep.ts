// Drops run schemas (pgbb_*) left on targets by runs that can no longer drop them themselves: the target
// restarted mid-run, the admin connection was lost, the runner was killed. A schema is dropped when its run is
// final in this control store, or when its run is unknown here (a CLI run, another control store) and the
// schema is older than GRACE_MS, judged by the creation time the engine writes into its comment. Whatever the
// verdict, a schema in use is never dropped: its run's admin session holds an advisory lock on it for the whole
// run (schemaLock), and the sweep drops only a schema whose lock it can take.
import pg from "pg";
import type { PrismaClient } from "../lib/db";
import { FINAL_STATUSES, type RunStatus } from "../lib/measurement/metrics";
import { failureCause, maskUrl } from "../lib/targets/pgurl";
import { closeClient, ident } from "./core/pg/pgclient";

/** A schema of a run unknown to this control store is left alone this long (the run may still be going). */
export const GRACE_MS = 60 * 60 * 1000;

const SWEEP_QUERY_TIMEOUT_MS = 60_000;

/** What the engine writes into COMMENT ON SCHEMA, so a sweep can tell whose and how old a schema is. */
export function schemaComment(runId: string | undefined, createdAt = new Date()): string {
  return JSON.stringify({ pgbbRun: runId ?? null, createdAt: createdAt.toISOString() });
}

/**
 * The session-level advisory lock on a run's schema, keyed by its name ($1): taken by the engine before it
 * creates the schema and held by its admin connection until the run ends (released with the session, so a
 * killed runner frees it too); tried by the sweep before a drop. The first key marks the lock as this product's.
 */
export function schemaLock(fn: "pg_advisory_lock" | "pg_try_advisory_lock" | "pg_advisory_unlock"): string {
  return `SELECT ${fn}(${SCHEMA_LOCK_KEY}, hashtext($1)) AS got`;
}

/** The first key of every run's schema lock (schemaLock): pg_locks shows it as the advisory lock's classid. */
export const SCHEMA_LOCK_KEY = 1885823586;

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
  /** Schemas that would have been dropped but whose run still holds their lock (in use), left alone. */
  inUse: string[];
  /** Targets that could not be swept, with why (retried on the next sweep). */
  problems: string[];
}

/**
 * Sweeps every target this control store knows: saved targets, and the runner's own (`ownTargets`: its default
 * target, and the embedded replicated target while it runs it).
 */
export async function sweepSchemas(db: PrismaClient, ownTargets: string | undefined | (string | undefined)[], now = Date.now()): Promise<SweepResult> {
  const urls = new Set<string>((await db.target.findMany({ select: { connectionString: true } })).map((t) => t.connectionString));
  for (const url of [ownTargets].flat()) if (url) urls.add(url);
  const result: SweepResult = { dropped: [], inUse: [], problems: [] };
  for (const url of urls) {
    // Bounded: a target that stopped answering must not hold up the runner that sweeps (a drop waits 5 s on a
    // lock at most, lock_timeout below; a minute is far beyond a drop of a run's tables).
    const client = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: 5000,
      query_timeout: SWEEP_QUERY_TIMEOUT_MS,
      keepAlive: true,
      application_name: "pgbb sweep",
    });
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
        // A run still going holds the schema's lock (a CLI run longer than the grace, another control store's run
        // on a shared target, a run marked final while its runner was cut off): never drop it under it.
        const lock = await client.query<{ got: boolean }>(schemaLock("pg_try_advisory_lock"), [row.name]);
        if (!lock.rows[0].got) {
          result.inUse.push(`${row.name} on ${maskUrl(url)}`);
          continue;
        }
        await client.query("SET lock_timeout = '5s'");
        await client.query(`DROP SCHEMA ${ident(row.name)} CASCADE`);
        await client.query(schemaLock("pg_advisory_unlock"), [row.name]);
        const whose = searchId ? `ceiling search ${searchId}` : `run ${runId}`;
        result.dropped.push(`${row.name} on ${maskUrl(url)} (${run ? `${whose} is ${run.status}` : "an unknown run's, older than an hour"})`);
      }
    } catch (err) {
      result.problems.push(`${maskUrl(url)}: ${failureCause(err, url)}`);
    } finally {
      await closeClient(client);
    }
  }
  return result;
}
