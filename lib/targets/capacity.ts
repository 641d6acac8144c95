// The connection budget of a target: how many connections a run may open there, which limit binds, and the
// one message that says so. Launch (lib/targets/launch.ts), the runner's preflight (runner/engine.ts) and the
// reference fit (lib/references/references.ts) all use it, so they agree on the numbers and the words.
//
// Three limits apply to an ordinary role (Postgres checks each at connection time):
// - max_connections minus the slots reserved for superusers (superuser_reserved_connections) and for
//   pg_use_reserved_connections (reserved_connections, PG 16+);
// - the role's CONNECTION LIMIT (pg_roles.rolconnlimit, -1 = none); superusers are exempt;
// - the database's CONNECTION LIMIT (pg_database.datconnlimit, -1 = none); superusers are exempt.
import type pg from "pg";
import { connectionsNeeded, definitionOf, ENGINE_CONNECTIONS, type WorkloadConfig } from "../workloads/config";

/** One query reads every limit and what uses it now. "Others" never count the connection that asks. */
export const BUDGET_SQL = `
  SELECT current_setting('server_version') AS version,
         host(inet_server_addr()) AS addr,
         current_setting('max_connections')::int AS max,
         current_setting('superuser_reserved_connections')::int + coalesce(current_setting('reserved_connections', true), '0')::int AS reserved,
         (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid())::int AS others,
         r.rolname AS role, r.rolsuper AS superuser, r.rolconnlimit AS role_limit,
         (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND usesysid = r.oid AND pid <> pg_backend_pid())::int AS role_others,
         d.datname AS database, d.datconnlimit AS db_limit,
         (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND datid = d.oid AND pid <> pg_backend_pid())::int AS db_others
  FROM pg_roles r, pg_database d
  WHERE r.rolname = current_user AND d.datname = current_database()`;

/** A CONNECTION LIMIT of a role or database that applies to this connection's role. */
export interface ScopedLimit {
  name: string;
  limit: number;
  /** Connections of this role (or to this database) besides the one that asked. */
  inUse: number;
}

export interface ConnectionBudget {
  maxConnections: number;
  /** superuser_reserved_connections + reserved_connections: slots ordinary roles cannot use. */
  reservedConnections: number;
  /** Client backends connected now, the asking connection excluded. */
  inUse: number;
  /** Present only when the role has a CONNECTION LIMIT that applies (not -1, not a superuser). */
  role?: ScopedLimit;
  database?: ScopedLimit;
}

export interface BudgetRow {
  version: string;
  addr: string | null;
  max: number;
  reserved: number;
  others: number;
  role: string;
  superuser: boolean;
  role_limit: number;
  role_others: number;
  database: string;
  db_limit: number;
  db_others: number;
}

/** The budget from a BUDGET_SQL row. */
export function budgetFromRow(row: BudgetRow): ConnectionBudget {
  const scoped = (name: string, limit: number, inUse: number): ScopedLimit | undefined => (limit >= 0 && !row.superuser ? { name, limit, inUse } : undefined);
  return {
    maxConnections: row.max,
    reservedConnections: row.reserved,
    inUse: row.others,
    role: scoped(row.role, row.role_limit, row.role_others),
    database: scoped(row.database, row.db_limit, row.db_others),
  };
}

/** Reads the budget with a connected client; `row` also carries the server's version and address. */
export async function readBudget(client: Pick<pg.ClientBase, "query">): Promise<{ budget: ConnectionBudget; row: BudgetRow }> {
  const r = await client.query<BudgetRow>(BUDGET_SQL);
  return { budget: budgetFromRow(r.rows[0]), row: r.rows[0] };
}

export type LimitName = "max_connections" | "role" | "database";

export interface BindingLimit {
  limit: LimitName;
  /** The most a run could open under this limit: "ever" ignores connections in use, "now" subtracts them. */
  allows: number;
  /** Words for the limit and its arithmetic, e.g. `role "app" has CONNECTION LIMIT 30`. */
  explain: string;
  /** What to change on the server to lift it. */
  fix: string;
}

/**
 * Each limit and what it allows. "ever": the hard ceiling (connections in use now may be gone when a queued
 * run starts); "now": what is free at this moment, for a run about to open its connections.
 */
export function limits(b: ConnectionBudget, mode: "ever" | "now"): BindingLimit[] {
  const now = mode === "now";
  const usable = b.maxConnections - b.reservedConnections;
  const out: BindingLimit[] = [
    {
      limit: "max_connections",
      allows: Math.max(0, now ? usable - b.inUse : usable),
      explain: `max_connections ${b.maxConnections} − ${b.reservedConnections} reserved${now ? ` − ${b.inUse} in use` : ""}`,
      fix: "raise max_connections on the target",
    },
  ];
  if (b.role)
    out.push({
      limit: "role",
      allows: Math.max(0, now ? b.role.limit - b.role.inUse : b.role.limit),
      explain: `role "${b.role.name}" has CONNECTION LIMIT ${b.role.limit}${now ? ` − ${b.role.inUse} of its connections in use` : ""}`,
      fix: `raise the role's limit (ALTER ROLE "${b.role.name}" CONNECTION LIMIT <n>)`,
    });
  if (b.database)
    out.push({
      limit: "database",
      allows: Math.max(0, now ? b.database.limit - b.database.inUse : b.database.limit),
      explain: `database "${b.database.name}" has CONNECTION LIMIT ${b.database.limit}${now ? ` − ${b.database.inUse} connections to it in use` : ""}`,
      fix: `raise the database's limit (ALTER DATABASE "${b.database.name}" CONNECTION LIMIT <n>)`,
    });
  return out;
}

/** The limit that binds: the one allowing the fewest connections (max_connections on a tie). */
export function bindingLimit(b: ConnectionBudget, mode: "ever" | "now"): BindingLimit {
  return limits(b, mode).reduce((min, l) => (l.allows < min.allows ? l : min));
}

/** "10 clients (writers + readers × groups), one each as the reference, + 2 for set-up and telemetry": where a run's connections go. */
export function connectionsBreakdown(config: WorkloadConfig): string {
  const def = definitionOf(config);
  return `${def.clients(config as never)} clients (${def.clientsFormula}), one each as the reference, + ${ENGINE_CONNECTIONS} for set-up and telemetry`;
}

export interface BudgetProblem {
  limit: LimitName;
  needed: number;
  allows: number;
  message: string;
}

/** Why a run of `config` cannot open its connections on this target, naming the limit that binds; or null. */
export function budgetProblem(config: WorkloadConfig, b: ConnectionBudget, mode: "ever" | "now"): BudgetProblem | null {
  const needed = connectionsNeeded(config);
  const bind = bindingLimit(b, mode);
  if (needed <= bind.allows) return null;
  const room = mode === "now" ? `only ${bind.allows} are free` : `the target allows at most ${bind.allows}`;
  return {
    limit: bind.limit,
    needed,
    allows: bind.allows,
    message: `the run needs ${needed} connections to the target (${connectionsBreakdown(config)}) but ${room}: ${bind.explain}. Lower the writers, readers or consumer groups, or ${bind.fix}`,
  };
}
