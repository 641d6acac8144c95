// Server-side facts for fitWarnings (lib/references/references.ts): what the target allows (lib/targets/capacity.ts: max_connections,
// reserved and used connections, role and database limits) and what this machine has (cores, memory). Used by GET /api/references/:id/fit.
import os from "node:os";
import pg from "pg";
import { readBudget } from "../targets/capacity";
import { explainPgError } from "../targets/pgurl";
import type { ServerFacts } from "./references";

export async function serverFacts(targetUrl: string, opts: { targetIsEmbedded: boolean; timeoutMs?: number }): Promise<ServerFacts> {
  const timeout = opts.timeoutMs ?? 5000;
  const client = new pg.Client({ connectionString: targetUrl, connectionTimeoutMillis: timeout, query_timeout: timeout });
  client.on("error", () => undefined);
  try {
    await client.connect();
    const { budget } = await readBudget(client);
    return {
      maxConnections: budget.maxConnections,
      reservedConnections: budget.reservedConnections,
      connectionsInUse: budget.inUse,
      role: budget.role,
      database: budget.database,
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
