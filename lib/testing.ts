// Test helpers: every test file gets databases of its own on a real Postgres, never a mock.
// `npm test` (scripts/test-run.ts) starts one embedded server for the whole run and passes its admin URL
// in TEST_PG_URL; a test file run alone (node --import tsx --test x.test.ts) starts a private one.
import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { startEmbedded, type EmbeddedServer } from "../platform/embedded";
import { migrate } from "../platform/migrate";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Starts an embedded Postgres in a fresh temporary folder (reachable by the postgres user). */
export async function startTestServer(): Promise<EmbeddedServer & { dir: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "pgbb-test-"));
  chmodSync(dir, 0o755); // mkdtemp makes it 0700; the postgres user must enter it
  const server = await startEmbedded({
    dataDir: dir,
    port: await freePort(),
    // Room for several runs' clients at once; fsync off because tests check correctness, not speed.
    postgresFlags: ["-c", "max_connections=300", "-c", "fsync=off", "-c", "synchronous_commit=off"],
  });
  return {
    ...server,
    dir,
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let privateServer: Promise<EmbeddedServer & { dir: string }> | undefined;

async function adminUrl(): Promise<string> {
  if (process.env.TEST_PG_URL) return process.env.TEST_PG_URL;
  privateServer ??= startTestServer().then((s) => {
    // A test file run on its own stops its private server once its tests are done: the server must not keep
    // the process alive meanwhile, or "beforeExit" never comes and the file never exits.
    s.keepAlive?.(false);
    process.once("beforeExit", () => void s.stop());
    return s;
  });
  return (await privateServer).url("postgres");
}

/** Creates an empty database for this test file; `drop()` removes it. */
export async function testDatabase(label = "t"): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = await adminUrl();
  const name = `${label.replace(/[^a-z0-9_]/gi, "_").toLowerCase()}_${randomBytes(4).toString("hex")}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  const u = new URL(admin);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c2 = new pg.Client({ connectionString: admin });
      await c2.connect();
      await c2.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c2.end();
    },
  };
}

/** A migrated control store for this test file, also set as DATABASE_URL for lib/db.ts. */
export async function testControlStore(label = "ctl") {
  const db = await testDatabase(label);
  await migrate(db.url);
  process.env.DATABASE_URL = db.url;
  return db;
}
