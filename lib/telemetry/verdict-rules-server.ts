// The verdict rules on the target server's limits, read from the run's active backends' wait events (and the
// host's CPU and disks when visible): heavyweight locks, the WAL flush, data-file I/O, CPU. They share one tier:
// the one whose waits are the largest share wins.
import { all, fact, ge, isDataIo, isLock, isWalFlush, lt, num, pct, serverCpuPct, sumShares, THRESHOLDS, topKeys, topWaits } from "./verdict-evidence";
import type { RuleCategory, RuleContext, VerdictRule } from "./verdict-rule";
import type { Finding } from "./verdict-shape";
import type { TelemetryWindow } from "./window";

const TIER = 3;
const activeAtLeast = (w: TelemetryWindow, share: number) => ge("share of time the run's connections were active", w.runActiveShare, share, "ratio");

function lockContention({ w }: RuleContext): Finding {
  if (!w) return { category: "lock-contention-bound", matched: false, evidence: [] };
  const ev = [
    activeAtLeast(w, THRESHOLDS.serverActiveShare),
    ge("share of active waits on Lock:*", sumShares(w, isLock), THRESHOLDS.lockShare, "ratio"),
    ...topWaits(w, isLock),
    fact("ungranted locks, average", w.lockWaitsAvg, "locks"),
  ];
  return { category: "lock-contention-bound", matched: all(ev), evidence: ev };
}

function walFlush({ w }: RuleContext): Finding {
  if (!w) return { category: "wal-flush-bound", matched: false, evidence: [] };
  const ev = [
    activeAtLeast(w, THRESHOLDS.serverActiveShare),
    ge("share of active waits on the WAL flush (WALWrite, WalSync, WalWrite)", sumShares(w, isWalFlush), THRESHOLDS.walShare, "ratio"),
    ...topWaits(w, isWalFlush),
  ];
  if (w.wal?.syncsPerSec !== undefined) ev.push(fact("WAL syncs", w.wal.syncsPerSec, "/s"));
  if (w.wal?.syncMsPerSec !== undefined) ev.push(fact("WAL sync time", w.wal.syncMsPerSec, "ms/s"));
  if (w.wal) ev.push(fact("WAL written", w.wal.bytesPerSec, "bytes/s"));
  if (w.db) ev.push(fact("commits", w.db.commitsPerSec, "/s"));
  return { category: "wal-flush-bound", matched: all(ev), evidence: ev };
}

function ioBound({ w }: RuleContext): Finding {
  if (!w) return { category: "io-bound-server", matched: false, evidence: [] };
  const active = activeAtLeast(w, THRESHOLDS.serverActiveShare);
  const waits = ge("share of active waits on data-file I/O (IO:*, not WAL)", sumShares(w, isDataIo), THRESHOLDS.ioShare, "ratio");
  const ev = [active, waits, ...topWaits(w, isDataIo)];
  let host = false;
  if (w.host) {
    const disk = ge("busiest disk busy", w.host.diskBusyPct, THRESHOLDS.diskBusyPct, "%");
    const iow = ge("host iowait", w.host.iowaitPct, THRESHOLDS.ioWaitPct, "%");
    ev.push(disk, iow);
    host = disk.holds === true && iow.holds === true;
    // Either the waits or the host's disk suffice.
    if (host && !waits.holds) delete waits.holds;
    if (waits.holds && !host) {
      delete disk.holds;
      delete iow.holds;
    }
  }
  return { category: "io-bound-server", matched: active.holds === true && (waits.holds === true || host), evidence: ev };
}

function cpuBound({ w }: RuleContext): Finding {
  if (!w) return { category: "cpu-bound-server", matched: false, evidence: [] };
  const ev = [
    activeAtLeast(w, THRESHOLDS.cpuActiveShare),
    ge("share of active backends on CPU (no wait event)", w.runWaitShares.CPU ?? 0, THRESHOLDS.cpuShare, "ratio"),
  ];
  const cpu = serverCpuPct(w);
  if (w.host && cpu !== undefined) {
    const server = ge("server processes' CPU, % of the host", cpu, THRESHOLDS.serverCpuPct, "%");
    const host = ge("host CPU busy (all processes)", w.host.cpuBusyPct, THRESHOLDS.hostCpuBusyPct, "%");
    // A host saturated by other processes is host-bound, not the server's CPU: it counts only when they stay below.
    const others = w.host.otherCpuCores !== undefined ? (100 * w.host.otherCpuCores) / w.host.cores : undefined;
    const quiet = others !== undefined ? lt("other processes' CPU, % of the host", others, THRESHOLDS.hostOtherCpuPct, "%") : undefined;
    const hostByRun = host.holds === true && quiet?.holds !== false;
    // Either the server's own share or a host saturated by the run (the server and the runner) suffices.
    if (server.holds) {
      if (!host.holds) delete host.holds;
      if (quiet && !quiet.holds) delete quiet.holds;
    }
    if (hostByRun && !server.holds) delete server.holds;
    ev.push(server, host, ...(quiet ? [quiet] : []), fact("server processes' CPU", w.host.serverCpuCores, "cores"), fact("host cores", w.host.cores, "cores"));
  }
  return { category: "cpu-bound-server", matched: all(ev), evidence: ev };
}

export const SERVER_RULES = {
  "lock-contention-bound": {
    label: "lock-contention-bound",
    tier: TIER,
    cause: true,
    missedRate: "as-limit",
    judge: lockContention,
    strength: ({ w }) => sumShares(w!, isLock),
    words: ({ w }) => {
      const top = Object.entries(w!.runWaitShares)
        .filter(([k]) => isLock(k))
        .sort((a, b) => b[1] - a[1])[0]?.[0];
      // Lock:object on a database is the one lock every commit that NOTIFYs takes: name it when it leads.
      const why = top === "Lock:object" ? "; Lock:object is the global lock commits that NOTIFY serialize on" : "";
      return `lock-contention-bound: ${pct(sumShares(w!, isLock))} of the run's active backends waited on heavyweight locks (${topKeys(w!, isLock)})${why}`;
    },
  },
  "wal-flush-bound": {
    label: "WAL-flush-bound",
    tier: TIER,
    cause: true,
    missedRate: "as-limit",
    judge: walFlush,
    strength: ({ w }) => sumShares(w!, isWalFlush),
    words: ({ w }) =>
      `WAL-flush-bound: ${pct(sumShares(w!, isWalFlush))} of the run's active backends waited on the WAL flush (${topKeys(w!, isWalFlush)})${w?.wal?.syncMsPerSec !== undefined ? `, WAL sync time ${num(w.wal.syncMsPerSec)} ms/s` : ""}`,
  },
  "io-bound-server": {
    label: "I/O-bound server",
    tier: TIER,
    cause: true,
    missedRate: "as-limit",
    judge: ioBound,
    strength: ({ w }) => sumShares(w!, isDataIo),
    words: ({ w }) =>
      `I/O-bound server: the run's active backends waited on data-file I/O (${topKeys(w!, isDataIo) || "host disk busy"})${w?.host ? `, busiest disk ${num(w.host.diskBusyPct)}% busy, iowait ${num(w.host.iowaitPct)}%` : ""}`,
  },
  "cpu-bound-server": {
    label: "CPU-bound server",
    tier: TIER,
    cause: true,
    missedRate: "as-limit",
    judge: cpuBound,
    strength: ({ w }) => w!.runWaitShares.CPU ?? 0,
    words: ({ w }) =>
      `CPU-bound server: the run's connections were active ${pct(w!.runActiveShare)} of the time, ${pct(w!.runWaitShares.CPU ?? 0)} of that on CPU${w?.host ? `; the server's processes used ${num(w.host.serverCpuCores)} of ${w.host.cores} cores, host ${num(w.host.cpuBusyPct)}% busy` : " (host CPU not visible: inferred from wait events)"}`,
  },
} satisfies Partial<Record<RuleCategory, VerdictRule>>;
