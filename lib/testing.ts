// Test helpers: every test file gets databases of its own on a real Postgres, never a mock.
// `npm test` (scripts/test-run.ts) starts one embedded server for the whole run and passes its admin URL
// in TEST_PG_URL; a test file run alone (node --import tsx --test x.test.ts) starts a private one.
import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
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

/** Starts an embedded Postgres in a fresh temporary folder (reachable by the postgres user); `extraFlags`
 *  (["-c", "fsync=on", …]) come last and win, for a scratch server with settings of its own. */
export async function startTestServer(extraFlags: string[] = []): Promise<EmbeddedServer & { dir: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "pgbb-test-"));
  chmodSync(dir, 0o755); // mkdtemp makes it 0700; the postgres user must enter it
  const server = await startEmbedded({
    dataDir: dir,
    port: await freePort(),
    // Room for several runs' clients at once; fsync off because tests check correctness, not speed.
    postgresFlags: ["-c", "max_connections=300", "-c", "fsync=off", "-c", "synchronous_commit=off", ...extraFlags],
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

/**
 * Freezes a scratch server (startTestServer) as `kill -STOP` would: its postmaster first (so it forks no new
 * backend), then every child process (backends, checkpointer, walwriter…). Returns thaw(), which sends SIGCONT to
 * them all; call it in a finally, or the server stays frozen.
 */
export function freezeServer(dir: string): { pids: number[]; thaw: () => void } {
  const postmaster = Number(readFileSync(path.join(dir, "pg", "postmaster.pid"), "utf8").split("\n")[0]);
  process.kill(postmaster, "SIGSTOP");
  const pids = [postmaster];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may hold spaces, so read after the last ")".
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === postmaster) {
        process.kill(Number(entry), "SIGSTOP");
        pids.push(Number(entry));
      }
    } catch {
      // the process ended meanwhile
    }
  }
  return {
    pids,
    thaw() {
      for (const pid of pids) {
        try {
          process.kill(pid, "SIGCONT");
        } catch {
          // gone
        }
      }
    },
  };
}

/**
 * Records every console.log/error/warn line (still printing it) until `restore()`: what the app and runner logged
 * during a test, for checks such as "no line shows a password".
 */
export function captureConsole(): { lines: string[]; restore: () => void } {
  const original = { log: console.log, error: console.error, warn: console.warn };
  const lines: string[] = [];
  for (const k of ["log", "error", "warn"] as const)
    console[k] = (...args: unknown[]) => {
      lines.push(args.map(String).join(" "));
      original[k](...args);
    };
  return { lines, restore: () => Object.assign(console, original) };
}

/** Waits until `cond` holds, checking every 50 ms, up to `ms`; then fails naming what it waited for. */
export async function waitUntil(what: string, cond: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!(await cond())) {
    if (performance.now() > deadline) throw new Error(`timed out after ${ms / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
