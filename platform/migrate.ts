// Applies the committed SQL migrations (prisma/migrations/<name>/migration.sql) to the control store.
//
// Why not `prisma migrate deploy`: it needs Prisma's native schema engine, which cannot be downloaded on
// every machine (offline installs, npm that blocks install scripts). The bookkeeping uses Prisma's own
// `_prisma_migrations` table and checksum (sha256 of the file), so a machine that does have the engine can
// still run `prisma migrate status/deploy` against the same database and see these migrations as applied.
import { createHash, randomUUID } from "node:crypto";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { PROJECT_ROOT } from "../lib/paths";

export const MIGRATIONS_DIR = path.join(PROJECT_ROOT, "prisma", "migrations");

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function listMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

const LOCK_KEY = 72707001; // any constant; serialises concurrent starts against one control store

/** Applies every migration not yet applied, each in its own transaction. Returns the names applied. */
export async function migrate(connectionString: string, dir: string = MIGRATIONS_DIR): Promise<string[]> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 8000 });
  await client.connect();
  const applied: string[] = [];
  try {
    await client.query("SELECT pg_advisory_lock($1)", [LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`);
    const done = await client.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const doneByName = new Map(done.rows.map((r) => [r.migration_name, r.checksum]));
    for (const m of listMigrations(dir)) {
      const prior = doneByName.get(m.name);
      if (prior !== undefined) {
        if (prior !== m.checksum)
          throw new Error(
            `control store migration ${m.name} was changed after it was applied (checksum differs); restore the original file or use a fresh DATA_DIR/DATABASE_URL`,
          );
        continue;
      }
      await client.query("BEGIN");
      try {
        await client.query(m.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, finished_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), 1)`,
          [randomUUID(), m.checksum, m.name],
        );
        await client.query("COMMIT");
        applied.push(m.name);
      } catch (err) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw new Error(`control store migration ${m.name} failed: ${(err as Error).message}`, { cause: err });
      }
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [LOCK_KEY]).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
  return applied;
}
