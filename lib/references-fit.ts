// Server-side facts for fitWarnings (lib/references.ts): what the target allows (max_connections, reserved and
// used connections) and what this machine has (cores, memory). Used by GET /api/references/:id/fit.
import os from "node:os";
import pg from "pg";
import { explainPgError } from "./pgurl";
import type { ServerFacts } from "./references";

export async function serverFacts(targetUrl: string, opts: { targetIsEmbedded: boolean; timeoutMs?: number }): Promise<ServerFacts> {
  const timeout = opts.timeoutMs ?? 5000;
  const client = new pg.Client({ connectionString: targetUrl, connectionTimeoutMillis: timeout, query_timeout: timeout });
  client.on("error", () => undefined);
  try {
    await client.connect();
    const r = await client.query<{ max: number; su: number; rc: number; used: number }>(
      `SELECT current_setting('max_connections')::int AS max,
              current_setting('superuser_reserved_connections')::int AS su,
              coalesce(current_setting('reserved_connections', true), '0')::int AS rc,
              (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend')::int AS used`,
    );
    const row = r.rows[0];
    return {
      maxConnections: row.max,
      reservedConnections: row.su + row.rc,
      connectionsInUse: Math.max(0, row.used - 1), // not counting this probe
      cores: os.cpus().length,
      memoryGiB: os.totalmem() / 2 ** 30,
      targetIsEmbedded: opts.targetIsEmbedded,
    };
  } catch (err) {
    throw new Error(`cannot read the target's connection limits: ${explainPgError(err)}`, { cause: err });
  } finally {
    await client.end().catch(() => undefined);
  }
}
