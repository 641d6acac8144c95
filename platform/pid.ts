// Whether a process id names a live process: lock files (the data folder's owner.pid, the build lock) and leftover
// servers are judged by it; and the live server of a Postgres cluster folder, from its postmaster.pid.
import { readFileSync } from "node:fs";
import path from "node:path";

/** True when `pid` is a live process (one owned by another user counts: EPERM). */
export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The live postmaster of the cluster in `clusterDir` and the port it listens on (postmaster.pid's first and fourth
 * lines; undefined when that line is not a port yet), or null when no server of that folder runs here.
 */
export function postmasterOf(clusterDir: string): { pid: number; port: number | undefined } | null {
  try {
    const lines = readFileSync(path.join(clusterDir, "postmaster.pid"), "utf8").split("\n");
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    return pidAlive(pid) ? { pid, port: Number.isInteger(port) && port > 0 ? port : undefined } : null;
  } catch {
    return null;
  }
}
