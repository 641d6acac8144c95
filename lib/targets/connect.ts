// Opening a connection to a user-given Postgres with a bounded wait and a one-line, password-masked error.
import pg from "pg";
import { connectFailure } from "./pgurl";

/** Connects (at most `timeoutMs`), runs `SELECT version()`, closes. Throws Error("<NAME>: cannot connect to … : cause"). */
export async function probePostgres(name: string, url: string, timeoutMs = 8000): Promise<string> {
  let client: pg.Client | undefined;
  try {
    // Inside the try: the driver parses the URL here, and a missing sslkey file throws naming it.
    client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
    client.on("error", () => undefined);
    await client.connect();
    const r = await client.query<{ v: string }>("SELECT current_setting('server_version') AS v");
    return r.rows[0].v;
  } catch (err) {
    throw new Error(connectFailure(`${name}: cannot connect to`, url, err), { cause: err });
  } finally {
    await client?.end().catch(() => undefined);
  }
}

/**
 * Which server and database a connection reached, decided by the server itself, never by the URL's text
 * (127.0.0.1 and localhost, a port forwarded or a pooler in between all reach the same server): the cluster's
 * system identifier (pg_control_system(), readable by any role on PostgreSQL 10+, null when a service hides it),
 * the postmaster's start time to the microsecond (two copies of one data folder differ), and the database.
 */
export interface ServerIdentity {
  systemIdentifier: string | null;
  startedAt: string;
  database: string;
}

/** The facts a target is checked on before it is saved or run on: who it is, whether it can be written. */
export interface TargetFacts extends ServerIdentity {
  /** The database holds a pg-broker-bench control store (its migrations and run tables). */
  holdsControlStore: boolean;
  /** Why nothing can be written there (read-only setting, standby), with how to fix it; null when writable. */
  readOnly: string | null;
}

type Query = (sql: string) => Promise<Record<string, unknown>[]>;

const IDENTITY_SQL = `SELECT current_database() AS database, to_char(pg_postmaster_start_time() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') AS started`;

/** Reads a connection's identity; `query` runs one statement (a pg client's, or Prisma's $queryRawUnsafe). */
export async function readIdentity(query: Query): Promise<ServerIdentity> {
  const [row] = await query(IDENTITY_SQL);
  let systemIdentifier: string | null = null;
  try {
    const [s] = await query("SELECT system_identifier::text AS id FROM pg_control_system()");
    systemIdentifier = String(s.id);
  } catch {
    // A managed service may refuse pg_control_system(); the start time and the database still decide.
  }
  return { systemIdentifier, startedAt: String(row.started), database: String(row.database) };
}

/** The identity of the database at `url`, or null when it cannot be read (not reachable within `timeoutMs`). */
export async function identityOf(url: string, timeoutMs = 5000): Promise<ServerIdentity | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  client.on("error", () => undefined);
  try {
    await client.connect();
    return await readIdentity(async (sql) => (await client.query(sql)).rows);
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Whether two identities are one database of one server (an unreadable system identifier does not decide). */
export function sameDatabase(a: ServerIdentity, b: ServerIdentity): boolean {
  const sameCluster = a.systemIdentifier === null || b.systemIdentifier === null || a.systemIdentifier === b.systemIdentifier;
  return sameCluster && a.startedAt === b.startedAt && a.database === b.database;
}

/** Whether two identities are on one server (one postmaster), whatever their databases: a phase that restarts the
 *  target must never restart the control store's server (runner/phases/restart-check.ts). */
export function sameServer(a: ServerIdentity, b: ServerIdentity): boolean {
  const sameCluster = a.systemIdentifier === null || b.systemIdentifier === null || a.systemIdentifier === b.systemIdentifier;
  return sameCluster && a.startedAt === b.startedAt;
}

/** The refusal for a target that is the app's own control store, wherever it is checked. */
export const CONTROL_STORE_TARGET =
  "this is the app's own control store database; benchmark runs would write into it — use another database (on the same server is fine)";
/** The refusal for a database that holds a control store this process does not know (another install's, or a CLI without DATABASE_URL). */
export const HOLDS_CONTROL_STORE =
  "this database holds a pg-broker-bench control store (its _prisma_migrations, run and sample tables); benchmark runs would write into it — use another database";

const FACTS_SQL = `
  SELECT to_regclass('public._prisma_migrations') IS NOT NULL AND to_regclass('public.run') IS NOT NULL
           AND to_regclass('public.sample') IS NOT NULL AS holds_control_store,
         current_setting('default_transaction_read_only') AS ro,
         (SELECT source FROM pg_settings WHERE name = 'default_transaction_read_only') AS ro_source,
         pg_is_in_recovery() AS standby, current_user AS role`;

/** Who a target is and whether a run could write there, read with a connected client. */
export async function readTargetFacts(client: Pick<pg.ClientBase, "query">): Promise<TargetFacts> {
  const query: Query = async (sql) => (await client.query(sql)).rows;
  const identity = await readIdentity(query);
  const [f] = await query(FACTS_SQL);
  return { ...identity, holdsControlStore: f.holds_control_store === true, readOnly: readOnlyReason(f, identity.database) };
}

/** Where default_transaction_read_only = on came from, in words, with the statement that turns it off. */
function readOnlyReason(f: Record<string, unknown>, database: string): string | null {
  if (f.standby === true)
    return "the target is a standby (pg_is_in_recovery() is true): it accepts no writes, and a run creates its own schema and tables. Use the primary server";
  if (f.ro !== "on") return null;
  const db = `"${database.replace(/"/g, '""')}"`;
  const role = `"${String(f.role).replace(/"/g, '""')}"`;
  const where: Record<string, string> = {
    database: `for this database; turn it off with ALTER DATABASE ${db} SET default_transaction_read_only = off`,
    user: `for the role ${role}; turn it off with ALTER ROLE ${role} SET default_transaction_read_only = off`,
    "database user": `for the role ${role} in this database; turn it off with ALTER ROLE ${role} IN DATABASE ${db} SET default_transaction_read_only = off`,
    client: "by the connection string (options=-c default_transaction_read_only=on); remove it from the URL",
  };
  const how = where[String(f.ro_source)] ?? "in the server's configuration (postgresql.conf or ALTER SYSTEM); set it to off there and reload";
  return `the target is read-only: default_transaction_read_only is on ${how}, or choose a writable database. A run creates its own schema and tables`;
}

/** The control-store refusal for a target's facts, or null. `control`: the app's own control store, when known. */
export function controlStoreProblem(target: TargetFacts, control: ServerIdentity | null | undefined): string | null {
  if (control && sameDatabase(target, control)) return CONTROL_STORE_TARGET;
  if (target.holdsControlStore) return HOLDS_CONTROL_STORE;
  return null;
}
