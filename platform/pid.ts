// Whether a process id names a live process: lock files (the data folder's owner.pid, the build lock) and leftover
// servers are judged by it.

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
