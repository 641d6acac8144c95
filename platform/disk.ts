// Free space of the disk holding a folder, as the product can see it on this machine (fs.statfs), and the
// reserve kept free on every disk that holds the control store's or a local target's data (docs/operations.md "Disk space").
import { existsSync, statfsSync, statSync } from "node:fs";
import path from "node:path";

export interface DiskFacts {
  /** The folder asked about. */
  path: string;
  /** Where its file system is mounted (the highest folder above it on the same device). */
  mount: string;
  /** Bytes an unprivileged process (Postgres runs as one) may still write. */
  freeBytes: number;
  totalBytes: number;
}

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

/** The mount point of the file system holding `dir`: climbs while the parent is on the same device. */
function mountOf(dir: string): string {
  let p = dir;
  const dev = statSync(p).dev;
  while (true) {
    const up = path.dirname(p);
    if (up === p) return p;
    try {
      if (statSync(up).dev !== dev) return p;
    } catch {
      return p;
    }
    p = up;
  }
}

const mounts = new Map<string, string>();

/** Free and total bytes of the disk holding `dir` (or its nearest existing parent); null if it cannot be read. */
export function diskOf(dir: string): DiskFacts | null {
  try {
    let p = path.resolve(dir);
    while (!existsSync(p) && path.dirname(p) !== p) p = path.dirname(p);
    const s = statfsSync(p);
    let mount = mounts.get(p);
    if (!mount) mounts.set(p, (mount = mountOf(p)));
    return { path: dir, mount, freeBytes: s.bavail * s.bsize, totalBytes: s.blocks * s.bsize };
  } catch {
    return null;
  }
}

/**
 * The space kept free on a disk that holds the product's data: DISK_RESERVE_MB when set, else 10 % of the disk's
 * size, at most 1 GiB (room for the control store's samples and Postgres's next WAL segments, without refusing
 * every run on a small or nearly full laptop disk).
 */
export function reserveBytes(disk: Pick<DiskFacts, "totalBytes">, reserveMb?: number): number {
  if (reserveMb !== undefined) return reserveMb * MIB;
  return Math.min(GIB, Math.floor(disk.totalBytes / 10));
}

/** "812 MiB", "1.4 GiB", "640 KiB": binary units, three significant figures at most. */
export function formatBytes(n: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let v = n;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  const shown = i === 0 || Math.abs(v) >= 100 ? Math.round(v).toString() : v.toFixed(Math.abs(v) >= 10 ? 1 : 2).replace(/\.?0+$/, "");
  return `${shown.replace(/\B(?=(\d{3})+(?!\d))/g, ",")} ${units[i]}`;
}
