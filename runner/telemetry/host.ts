// The server host's CPU and disks, read from /proc when the target runs on the runner's own machine. Only
// Linux exposes /proc; a remote target (or a container whose pids are not ours) is reported as unavailable,
// never guessed.
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import type { HostRates } from "../../lib/telemetry/shape";

const read = (p: string): string | undefined => {
  try {
    return readFileSync(p, "utf8");
  } catch {
    return undefined;
  }
};

/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s. */
const TICKS_PER_SEC = 100;

/**
 * CPU seconds a process has used, or undefined when it is gone or not visible: /proc/<pid>/schedstat's
 * nanoseconds on CPU where the kernel keeps them (a backend's 2 ms per second would round to 0 ticks),
 * otherwise utime + stime from /proc/<pid>/stat in 1/100 s.
 */
export function processCpuSeconds(pid: number): number | undefined {
  const sched = read(`/proc/${pid}/schedstat`);
  if (sched) {
    const ns = Number(sched.split(" ")[0]);
    if (Number.isFinite(ns)) return ns / 1e9;
  }
  const s = read(`/proc/${pid}/stat`);
  if (!s) return undefined;
  // The command name (field 2) is in parentheses and may contain spaces: split after the last ')'.
  const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) / TICKS_PER_SEC; // fields 14 and 15 (utime, stime), counted from field 3
}

/** CPU seconds of a whole process (every thread), from /proc/<pid>/stat's utime + stime; undefined when gone. */
function wholeProcessCpuSeconds(pid: number): number | undefined {
  const s = read(`/proc/${pid}/stat`);
  if (!s) return undefined;
  const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) / TICKS_PER_SEC;
}

/**
 * Nanoseconds this process's main thread has spent runnable but not running (waiting for a CPU):
 * /proc/<pid>/task/<pid>/schedstat's second field. The main thread runs the event loop, every loop of the run:
 * its wait is the runner's starvation. Node's helper threads (V8's GC and compiler workers, libuv's pool) are
 * left out: several of them queue at once on a small host, and their waits would read as a starved runner that
 * never waited. Undefined without schedstat.
 */
export function runQueueWaitNs(pid: number | "self" = "self"): number | undefined {
  const main = pid === "self" ? process.pid : pid;
  const ns = Number(read(`/proc/${main}/task/${main}/schedstat`)?.split(" ")[1]);
  return Number.isFinite(ns) ? ns : undefined;
}

/** Every process's whole CPU seconds and name (a scan of /proc: a few hundred small reads). */
function allProcesses(): Map<number, { name: string; sec: number }> {
  const out = new Map<number, { name: string; sec: number }>();
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return out;
  }
  for (const d of pids) {
    const s = read(`/proc/${d}/stat`);
    if (!s) continue;
    const name = s.slice(s.indexOf("(") + 1, s.lastIndexOf(")"));
    const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
    out.set(Number(d), { name, sec: (Number(f[11]) + Number(f[12])) / TICKS_PER_SEC });
  }
  return out;
}

/** The command name of a process (/proc/<pid>/comm), or undefined. */
export function processName(pid: number): string | undefined {
  return read(`/proc/${pid}/comm`)?.trim();
}

interface CpuTotals {
  total: number;
  idle: number;
  iowait: number;
}

function cpuTotals(): CpuTotals | undefined {
  const line = read("/proc/stat")?.split("\n")[0];
  if (!line?.startsWith("cpu ")) return undefined;
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is already inside user/nice)
  const total = v.slice(0, 8).reduce((a, b) => a + (b || 0), 0);
  return { total, idle: v[3] + (v[4] || 0), iowait: v[4] || 0 };
}

interface DiskTotals {
  readSectors: number;
  writeSectors: number;
  /** Per device: milliseconds with I/O in flight. */
  busyMs: Map<string, number>;
}

/** Whole disks only (partitions would count twice; loop and ram devices are not disks). */
function diskTotals(): DiskTotals | undefined {
  const text = read("/proc/diskstats");
  if (!text) return undefined;
  let devices: Set<string>;
  try {
    devices = new Set(readdirSync("/sys/block").filter((d) => !/^(loop|ram|zram)/.test(d)));
  } catch {
    return undefined;
  }
  const out: DiskTotals = { readSectors: 0, writeSectors: 0, busyMs: new Map() };
  for (const line of text.split("\n")) {
    const f = line.trim().split(/\s+/);
    if (f.length < 14 || !devices.has(f[2])) continue;
    out.readSectors += Number(f[5]);
    out.writeSectors += Number(f[9]);
    out.busyMs.set(f[2], Number(f[12]));
  }
  return out;
}

/**
 * Reads the host between samples: CPU and disks of the whole machine, and the CPU of the target's own
 * processes (the pids pg_stat_activity lists), as deltas since the previous reading.
 */
export class HostProbe {
  private cpu = cpuTotals();
  private disk = diskTotals();
  private at = Date.now();
  private cpuSec = new Map<number, number>();
  private runnerSec: Map<number, number>;
  private procs = allProcesses();
  readonly cores = os.cpus().length;

  /**
   * `runnerPids`: the runner's other processes, read at every call (a run over several processes: its parts);
   * their CPU is the runner's, never "other processes'".
   */
  constructor(private readonly runnerPids: () => readonly number[] = () => []) {
    this.runnerSec = this.runnerCpu();
  }

  /** Each runner process's whole CPU seconds, this one's and its parts'. */
  private runnerCpu(): Map<number, number> {
    const out = new Map<number, number>();
    for (const pid of [process.pid, ...this.runnerPids()]) {
      const t = wholeProcessCpuSeconds(pid);
      if (t !== undefined) out.set(pid, t);
    }
    return out;
  }

  /** Whether /proc answers at all (Linux). */
  static supported(): boolean {
    return cpuTotals() !== undefined;
  }

  /** Rates since the previous call for these server pids; the first call only sets the baseline. */
  read(serverPids: number[]): HostRates | undefined {
    const cpu = cpuTotals();
    const disk = diskTotals();
    const now = Date.now();
    const cpuSec = new Map<number, number>();
    let serverSec = 0;
    for (const pid of serverPids) {
      const t = processCpuSeconds(pid);
      if (t === undefined) continue;
      cpuSec.set(pid, t);
      // A process first seen now is counted from the next reading on (its earlier CPU may predate the interval).
      const before = this.cpuSec.get(pid);
      if (before !== undefined) serverSec += Math.max(t - before, 0);
    }
    const first = this.cpuSec.size === 0;
    const prev = { cpu: this.cpu, disk: this.disk, at: this.at, runnerSec: this.runnerSec, procs: this.procs };
    this.runnerSec = this.runnerCpu();
    this.procs = allProcesses();
    this.cpu = cpu;
    this.disk = disk;
    this.at = now;
    this.cpuSec = cpuSec;
    if (first || !cpu || !prev.cpu || !disk || !prev.disk) return undefined;
    const dTotal = cpu.total - prev.cpu.total;
    const sec = (now - prev.at) / 1000;
    if (dTotal <= 0 || sec <= 0) return undefined;
    let busiest = 0;
    for (const [dev, ms] of disk.busyMs) busiest = Math.max(busiest, (ms - (prev.disk.busyMs.get(dev) ?? ms)) / (sec * 1000));
    const cpuBusyPct = (100 * (dTotal - (cpu.idle - prev.cpu.idle))) / dTotal;
    // A runner process first seen now is counted from the next reading on, as a server process is.
    let runnerSec = 0;
    for (const [pid, t] of this.runnerSec) runnerSec += Math.max(t - (prev.runnerSec.get(pid) ?? t), 0);
    const runnerCpuCores = runnerSec / sec;
    const serverCpuCores = serverSec / sec;
    // Everyone else: the host's busy time less the target's processes and the runner (never below 0: the
    // counters are read a few microseconds apart).
    const otherCpuCores = Math.max((cpuBusyPct / 100) * this.cores - serverCpuCores - runnerCpuCores, 0);
    return {
      cpuBusyPct,
      runnerCpuCores,
      otherCpuCores,
      topOthers: topOthers(prev.procs, this.procs, new Set([...serverPids, ...this.runnerSec.keys()]), sec),
      iowaitPct: (100 * (cpu.iowait - prev.cpu.iowait)) / dTotal,
      serverCpuCores,
      cores: this.cores,
      diskReadBytesPerSec: ((disk.readSectors - prev.disk.readSectors) * 512) / sec,
      diskWriteBytesPerSec: ((disk.writeSectors - prev.disk.writeSectors) * 512) / sec,
      diskBusyPct: Math.min(100, busiest * 100),
    };
  }
}

/**
 * The busiest processes other than the target's and the runner's over the interval, by name (several
 * processes of one name add up: three busy loops, a parallel build), at most 5 names, each ≥ 1 % of a core.
 */
function topOthers(
  before: Map<number, { name: string; sec: number }>,
  now: Map<number, { name: string; sec: number }>,
  exclude: Set<number>,
  sec: number,
): { name: string; processes: number; cores: number }[] {
  const byName = new Map<string, { processes: number; cores: number }>();
  for (const [pid, p] of now) {
    const b = before.get(pid);
    if (exclude.has(pid) || !b || b.name !== p.name) continue;
    const cores = Math.max(p.sec - b.sec, 0) / sec;
    const o = byName.get(p.name) ?? { processes: 0, cores: 0 };
    o.processes++;
    o.cores += cores;
    byName.set(p.name, o);
  }
  return [...byName.entries()]
    .map(([name, o]) => ({ name, ...o }))
    .filter((o) => o.cores >= 0.01)
    .sort((a, b) => b.cores - a.cores)
    .slice(0, 5);
}
