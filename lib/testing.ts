// Test helpers: every test file gets databases of its own on a real Postgres, never a mock.
// `npm test` (scripts/test-run.ts) starts one embedded server for the whole run and passes its admin URL
// in TEST_PG_URL; a test file run alone (node --import tsx --test x.test.ts) starts a private one.
import { randomBytes } from "node:crypto";
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { startEmbedded, type EmbeddedServer } from "../platform/embedded";
import { migrate } from "../platform/migrate";
import { freePort } from "../platform/ports";

export { freePort };

/** Starts an embedded Postgres in a fresh temporary folder (reachable by the postgres user); `extraFlags`
 *  (["-c", "fsync=on", …]) come last and win, for a scratch server with settings of its own. `role`: "shared-test"
 *  for `npm test`'s one server; a restart-target phase restarts only one started "restartable" (platform/cluster-restart.ts). */
export async function startTestServer(
  extraFlags: string[] = [],
  role: "test" | "shared-test" | "restartable" = "test",
): Promise<EmbeddedServer & { dir: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "pgbb-test-"));
  chmodSync(dir, 0o755); // mkdtemp makes it 0700; the postgres user must enter it
  const server = await startEmbedded({
    dataDir: dir,
    port: await freePort(),
    // Room for several runs' clients at once; fsync off because tests check correctness, not speed.
    postgresFlags: ["-c", "max_connections=300", "-c", "fsync=off", "-c", "synchronous_commit=off", ...extraFlags],
    role,
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
  // Shared by every test of the file: never restarted by a phase (a test that restarts its target starts its own).
  privateServer ??= startTestServer([], "shared-test").then((s) => {
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

/** The pids of other processes whose command line holds `text`: a postmaster's names its folder (-D <dir>). */
export function processesNaming(text: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(text)) found.push(Number(entry));
    } catch {
      // ended meanwhile
    }
  }
  return found;
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

/** CPU hogs running beside this process (the runner), until stop(). */
export interface CpuHogs {
  /** Whether they and this process are pinned to CPU 0 (taskset), or, without taskset, three loops a CPU unpinned. */
  pinned: boolean;
  /** The CPU seconds the hogs have used so far, read from /proc (two readings over a window give their cores). */
  cpuSeconds: () => number;
  pids: number[];
  stop: () => void;
}

/** One test file at a time holds the machine's hogs: two files' hogs at once would each read the other's CPU. */
const HOG_LOCK = path.join(os.tmpdir(), "pgbb-test-cpu-hogs.lock");

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function takeHogLock(): Promise<void> {
  for (;;) {
    try {
      mkdirSync(HOG_LOCK);
      writeFileSync(path.join(HOG_LOCK, "pid"), String(process.pid));
      return;
    } catch {
      // Held: by a live test process, wait; by one that died, take it over.
      let holder = 0;
      try {
        holder = Number(readFileSync(path.join(HOG_LOCK, "pid"), "utf8"));
      } catch {}
      if (holder && !alive(holder)) rmSync(HOG_LOCK, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/**
 * Starts `n` busy loops named pgbb-hog beside this process, as on a laptop running other work: this process (every
 * thread) and the loops pinned to CPU 0, where it then gets a small share and waits for a CPU the rest of the time.
 * Without taskset, three loops a CPU starve it as well, unpinned. Resolves once every loop runs (never a fixed
 * sleep); one test file at a time holds hogs (a lock in the temp folder, taken over from a process that died).
 */
export async function cpuHogs(n = 6): Promise<CpuHogs> {
  await takeHogLock();
  const hog = [process.execPath, "-e", "process.title = 'pgbb-hog'; for (;;) {}"];
  const hogs: ChildProcess[] = [];
  const was = spawnSync("taskset", ["-p", String(process.pid)], { encoding: "utf8" });
  const mask = was.status === 0 ? was.stdout.trim().split(/\s+/).pop() : undefined;
  if (mask) {
    execFileSync("taskset", ["-a", "-p", "-c", "0", String(process.pid)]);
    for (let i = 0; i < n; i++) hogs.push(spawn("taskset", ["-c", "0", ...hog], { stdio: "ignore" }));
  } else for (let i = 0; i < 3 * os.cpus().length; i++) hogs.push(spawn(hog[0], hog.slice(1), { stdio: "ignore" }));
  const stop = () => {
    for (const h of hogs) h.kill("SIGKILL");
    if (mask) execFileSync("taskset", ["-a", "-p", mask, String(process.pid)]);
    rmSync(HOG_LOCK, { recursive: true, force: true });
  };
  const comm = (h: ChildProcess) => {
    try {
      return readFileSync(`/proc/${h.pid}/comm`, "utf8").trim();
    } catch {
      return "";
    }
  };
  try {
    await waitUntil("the CPU hogs to run", () => hogs.every((h) => comm(h) === "pgbb-hog"), 30_000);
  } catch (err) {
    stop();
    throw err;
  }
  const cpuSeconds = () =>
    hogs.reduce((sum, h) => {
      try {
        const f = readFileSync(`/proc/${h.pid}/stat`, "utf8").split(") ")[1].split(" ");
        return sum + (Number(f[11]) + Number(f[12])) / 100;
      } catch {
        return sum;
      }
    }, 0);
  return { pinned: mask !== undefined, cpuSeconds, pids: hogs.map((h) => h.pid!), stop };
}
