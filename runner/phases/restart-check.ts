// The preflight of a run with a restart-target phase (runner/run-steps.ts preflight): the target must be an embedded
// cluster this product started on this machine, one its marker lets a phase restart (platform/cluster-restart.ts), and
// not the control store's server. Refused before any load, in words naming what to do instead; else the cluster's
// folder, which the phase's action restarts (./actions.ts).
import type pg from "pg";
import { sameServer, type ServerIdentity } from "../../lib/targets/connect";
import { clusterSystemIdentifier, RESTART_INSTEAD, restartRefusal } from "../../platform/cluster-restart";
import { isLocalAddress } from "../run-summary";
import { SCHEMA_LOCK_KEY } from "../sweep";

/** The target's cluster folder a restart-target phase may restart; throws, in words, when it may not. */
export async function restartableTarget(
  admin: pg.Client,
  target: ServerIdentity & { serverAddress: string | null },
  controlStore: ServerIdentity | null | undefined,
): Promise<string> {
  const refuse = (why: string) => new Error(`restart-target: ${why}`);
  if (controlStore && sameServer(target, controlStore))
    throw refuse(`the target is on the app's control store's server: restarting it would take the app and the run's own records down; ${RESTART_INSTEAD}`);
  if (!isLocalAddress(target.serverAddress))
    throw refuse(
      `the target is reached at ${target.serverAddress}, not on this machine: only an embedded target this product started here can be restarted; ${RESTART_INSTEAD}`,
    );
  let dir: string;
  let port: number;
  try {
    const { rows } = await admin.query<{ dir: string; port: string }>("SELECT current_setting('data_directory') AS dir, current_setting('port') AS port");
    dir = rows[0].dir;
    port = Number(rows[0].port);
  } catch (err) {
    throw refuse(
      `the target's role cannot read its data_directory (${(err as Error).message}): only an embedded target this product started here can be restarted; ${RESTART_INSTEAD}`,
    );
  }
  const refused = restartRefusal(dir, port);
  if (refused) throw refuse(refused);
  // A folder found by the server's own data_directory and port may still be another cluster: this machine's twin of
  // the one reached through a tunnel (the same path and port there). Its pg_control must name the target's cluster.
  const folderId = clusterSystemIdentifier(dir);
  if (!target.systemIdentifier || folderId !== target.systemIdentifier)
    throw refuse(
      `the cluster in ${dir} on this machine is not shown to be the one the run is connected to (its system identifier ${folderId ?? "cannot be read"}; the target's ${target.systemIdentifier ?? "is hidden"}): only an embedded target this product started here can be restarted; ${RESTART_INSTEAD}`,
    );
  const others = (await otherRunsOn(admin)) ?? (await otherRunsLocked(admin));
  if (others)
    throw refuse(
      `another run is using this target (${others}): a restart ends every session on the server, so it would fail that run too; start this one when it has finished, or ${RESTART_INSTEAD}`,
    );
  return dir;
}

/**
 * The sessions of other runs on the target's server, any database (a restart ends them all), in words; null when
 * there are none. At the preflight this run has only its admin connection open, so any other session the runner
 * names "pgbb …" (a loop, an admin, a telemetry connection, a queue library's pool) is another run's; a sweep's or a
 * liveness probe's, which come and go in a moment, are not counted.
 */
async function otherRunsOn(admin: pg.Client): Promise<string | null> {
  const { rows } = await admin.query<{ n: number; names: string }>(
    `SELECT count(*)::int AS n, string_agg(DISTINCT application_name || ' on ' || coalesce(datname, '?'), ', ') AS names
     FROM pg_stat_activity
     WHERE pid <> pg_backend_pid() AND application_name LIKE 'pgbb %'
       AND application_name NOT IN ('pgbb sweep', 'pgbb probe', 'pgbb clock probe')`,
  );
  const { n, names } = rows[0];
  return n > 0 ? `${n} session${n === 1 ? "" : "s"}: ${names.length > 200 ? `${names.slice(0, 200)}…` : names}` : null;
}

/** A row of pg_locks `l` that is a run's lock on its schema, granted (runner/sweep.ts schemaLock). */
const SCHEMA_LOCK_HELD = `l.locktype = 'advisory' AND l.granted AND l.classid = ${SCHEMA_LOCK_KEY} AND l.objsubid = 2`;

/**
 * The other runs still starting on the target's server, any database, in words; null when there are none: an admin
 * session (a run opens it first; runner/run-steps.ts) holding no schema's lock yet (taken once the run's preflight has
 * passed), other than this run's own, `adminPid`. With otherRunsLocked, what a restart-target phase checks when due.
 */
export async function otherRunsStarting(c: pg.Client, adminPid: number): Promise<string | null> {
  const { rows } = await c.query<{ n: number; dbs: string | null }>(
    `SELECT count(*)::int AS n, string_agg(DISTINCT coalesce(a.datname, '?'), ', ') AS dbs
     FROM pg_stat_activity a
     WHERE a.application_name = 'pgbb admin' AND a.pid <> $1
       AND NOT EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND ${SCHEMA_LOCK_HELD})`,
    [adminPid],
  );
  const { n, dbs } = rows[0];
  return n > 0 ? `${n} run${n === 1 ? "" : "s"} starting (${n === 1 ? "its admin session" : "their admin sessions"}, no schema yet), in database ${dbs}` : null;
}

/**
 * The other runs alive on the target's server now, any database, in words; null when there are none. Each run's admin
 * session holds the lock on its schema for the run's whole life (runner/sweep.ts schemaLock), whatever its sessions
 * are named: what tells another run's sessions from this one's once this run's are open (a restart-target phase checks
 * again when it is due: ./actions.ts). `schemaName`: this run's schema (unquoted), whose lock is not another run's; a
 * sweep's brief try of a lock is not a run.
 */
export async function otherRunsLocked(c: pg.Client, schemaName?: string): Promise<string | null> {
  const { rows } = await c.query<{ n: number; dbs: string | null }>(
    `SELECT count(*)::int AS n, string_agg(DISTINCT coalesce(d.datname, '?'), ', ') AS dbs
     FROM pg_locks l
     LEFT JOIN pg_database d ON d.oid = l.database
     LEFT JOIN pg_stat_activity a ON a.pid = l.pid
     WHERE ${SCHEMA_LOCK_HELD}
       AND coalesce(a.application_name, '') <> 'pgbb sweep'
       AND NOT (l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                AND l.objid = (hashtext($1)::bigint & 4294967295)::oid)`,
    [schemaName ?? ""],
  );
  const { n, dbs } = rows[0];
  return n > 0 ? `${n} run${n === 1 ? "" : "s"} holding ${n === 1 ? "its schema" : "their schemas"}, in database ${dbs}` : null;
}
