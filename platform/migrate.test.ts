import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import pg from "pg";
import { EMBEDDED_TARGET_NAME } from "../lib/targets/default-target";
import { migrate, MIGRATIONS_DIR } from "./migrate";
import { PROJECT_ROOT } from "../lib/paths";
import { testDatabase } from "../lib/testing";

/** Models and their scalar columns as schema.prisma declares them (relation fields skipped). */
function schemaTables(): Map<string, Set<string>> {
  const src = readFileSync(path.join(PROJECT_ROOT, "prisma", "schema.prisma"), "utf8");
  const models = [...src.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)];
  const modelNames = new Set(models.map((m) => m[1]));
  const tables = new Map<string, Set<string>>();
  for (const [, name, body] of models) {
    const table = body.match(/@@map\("([^"]+)"\)/)?.[1] ?? name;
    const cols = new Set<string>();
    for (const line of body.split("\n")) {
      const m = line.trim().match(/^(\w+)\s+(\w+)(\[\])?\??\s*(.*)$/);
      if (!m || line.trim().startsWith("//") || line.trim().startsWith("@@")) continue;
      const [, field, type, , rest] = m;
      if (modelNames.has(type)) continue; // relation field: no column
      cols.add(rest.match(/@map\("([^"]+)"\)/)?.[1] ?? field);
    }
    tables.set(table, cols);
  }
  return tables;
}

let db: Awaited<ReturnType<typeof testDatabase>>;
before(async () => (db = await testDatabase("migrate")));
after(async () => db.drop());

test("after the migrations, every model and field of schema.prisma exists in the database", async () => {
  const applied = await migrate(db.url);
  assert.ok(applied.length >= 1);
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    const r = await c.query<{ table_name: string; column_name: string }>(
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'",
    );
    const actual = new Map<string, Set<string>>();
    for (const row of r.rows) (actual.get(row.table_name) ?? actual.set(row.table_name, new Set()).get(row.table_name)!).add(row.column_name);
    const expected = schemaTables();
    assert.ok(expected.size >= 4, "schema.prisma parsed");
    for (const [table, cols] of expected) {
      assert.ok(actual.has(table), `table ${table} exists`);
      for (const col of cols) assert.ok(actual.get(table)!.has(col), `column ${table}.${col} exists`);
    }
  } finally {
    await c.end();
  }
});

test("migrating again applies nothing and keeps data", async () => {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  await c.query(`INSERT INTO runner (id, host, pid, version, last_heartbeat) VALUES ('keep', 'h', 1, 'v', now())`);
  assert.deepEqual(await migrate(db.url), []);
  const r = await c.query("SELECT count(*)::int AS n FROM runner WHERE id = 'keep'");
  assert.equal(r.rows[0].n, 1);
  await c.end();
});

test("a migration changed after it was applied is refused with a clear message", async () => {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  await c.query(`UPDATE "_prisma_migrations" SET checksum = 'x' WHERE migration_name = '0001_init'`);
  await c.end();
  await assert.rejects(migrate(db.url, MIGRATIONS_DIR), /0001_init was changed after it was applied/);
});

test("runs the CLI stored under its old name for the embedded target get the app's name; other labels stay", async () => {
  const old = await testDatabase("migrate_names");
  // The store as it was before 0003: only the earlier migrations applied.
  const before0003 = mkdtempSync(path.join(os.tmpdir(), "pgbb-migrations-"));
  for (const m of ["0001_init", "0002_imported_result"]) cpSync(path.join(MIGRATIONS_DIR, m), path.join(before0003, m), { recursive: true });
  const c = new pg.Client({ connectionString: old.url });
  try {
    await migrate(old.url, before0003);
    await c.connect();
    const labels = {
      r_cli: "embedded Postgres (127.0.0.1:54329/pgbb_target)",
      r_app: EMBEDDED_TARGET_NAME,
      r_other: "embedded Postgres (db.example:5432/pgbb_target)",
      r_url: "127.0.0.1:5432/app",
    };
    for (const [id, label] of Object.entries(labels))
      await c.query(`INSERT INTO run (id, workload, config, target_label) VALUES ($1, 'queue', '{}', $2)`, [id, label]);
    assert.ok((await migrate(old.url)).includes("0003_default_target_name"));
    const r = await c.query<{ id: string; target_label: string }>("SELECT id, target_label FROM run ORDER BY id");
    assert.deepEqual(Object.fromEntries(r.rows.map((x) => [x.id, x.target_label])), {
      r_app: EMBEDDED_TARGET_NAME,
      r_cli: EMBEDDED_TARGET_NAME,
      r_other: labels.r_other,
      r_url: labels.r_url,
    });
  } finally {
    await c.end().catch(() => undefined);
    rmSync(before0003, { recursive: true, force: true });
    await old.drop();
  }
});
