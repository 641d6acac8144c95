import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import pg from "pg";
import { migrate, MIGRATIONS_DIR } from "./migrate";
import { PROJECT_ROOT } from "./paths";
import { testDatabase } from "./testing";

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
