// Free space watched while a run writes (docs/operations.md "Disk space"): the disks holding a local target's data and the
// control store's, read with fs.statfs once a second on the engine's tick (a cheap system call). A run is refused
// when a disk is already below its reserve, and stopped when it would reach the reserve within a few seconds at
// the rate the disk is filling, so Postgres never meets a full disk and the control store keeps room to record.
import { diskOf, formatBytes, reserveBytes } from "../platform/disk";
import { readEnv } from "../lib/env";

export interface WatchedFolder {
  /** Whose data it is, in words: "the target's data". */
  what: string;
  dir: string;
}

/** How far ahead a disk's fill is projected: the check runs once a second, and stopping a run takes a moment. */
const HORIZON_S = 5;

interface Disk {
  whats: string[];
  dir: string;
  mount: string;
  reserve: number;
  last?: { t: number; free: number };
}

/** DISK_RESERVE_MB from the environment, or undefined (the default reserve) when unset or unreadable. */
export function reserveMbFromEnv(): number | undefined {
  try {
    return readEnv().DISK_RESERVE_MB;
  } catch {
    return undefined;
  }
}

export class DiskWatch {
  private readonly disks: Disk[] = [];

  /** Folders that cannot be read (a remote server's path, no permission) are left out: nothing to watch there. */
  constructor(folders: WatchedFolder[], reserveMb?: number) {
    for (const f of folders) {
      const d = diskOf(f.dir);
      if (!d) continue;
      const same = this.disks.find((x) => x.mount === d.mount);
      if (same) {
        if (!same.whats.includes(f.what)) same.whats.push(f.what);
        continue;
      }
      this.disks.push({ whats: [f.what], dir: f.dir, mount: d.mount, reserve: reserveBytes(d, reserveMb) });
    }
  }

  get watching(): boolean {
    return this.disks.length > 0;
  }

  /** One line per disk for the run's log: where, how much is free, the reserve. */
  describe(): string[] {
    return this.disks.map((d) => {
      const now = diskOf(d.dir);
      return `watching free space on ${this.name(d)}: ${now ? formatBytes(now.freeBytes) : "?"} free, ${formatBytes(d.reserve)} kept in reserve`;
    });
  }

  /**
   * Null while every disk has room. Else why the run must not go on, naming the disk and the numbers: at start
   * (`starting`) a disk below its reserve refuses the run; later, a disk that would reach its reserve within
   * HORIZON_S at its current rate stops it.
   */
  check(starting = false, now = Date.now()): string | null {
    for (const d of this.disks) {
      const facts = diskOf(d.dir);
      if (!facts) continue;
      const free = facts.freeBytes;
      const rate = d.last && now > d.last.t ? Math.max(0, (d.last.free - free) / ((now - d.last.t) / 1000)) : 0;
      d.last = { t: now, free };
      const room = free - d.reserve;
      const gap = room <= 0 ? `${formatBytes(-room)} below` : `only ${formatBytes(room)} above`;
      const numbers = `${this.name(d)} has ${formatBytes(free)} free, ${gap} the ${formatBytes(d.reserve)} kept in reserve (DISK_RESERVE_MB)`;
      if (starting && room <= 0) return `not started: ${numbers}. Free some space on that disk, or lower DISK_RESERVE_MB`;
      if (room <= 0 || room < rate * HORIZON_S)
        return `stopped before the disk filled: ${numbers}, and was filling at ${formatBytes(rate)}/s${room > 0 ? ` (the reserve in about ${Math.max(1, Math.round(room / rate))} s)` : ""}`;
    }
    return null;
  }

  private name(d: Disk): string {
    return `the disk holding ${d.whats.join(" and ")} (${d.dir}, mounted at ${d.mount})`;
  }
}
