// What the verdict's rules are judged on and how they say it: the thresholds, the evidence constructors (each
// holds or not against its threshold), the run's pace and the runner's numbers as the rules read them, and the
// run's wait shares. Browser-safe; the rules (./verdict-rules.ts, ./held-snapshot.ts) build on it.
import { atLeast, CLIENT_RULE, type ClientJudgement, judgeClient } from "../measurement/runner-load";
import { PACE_THRESHOLDS, type PaceSpec } from "./pace";
import { judgedRate, type PaceInput } from "./pace-rules";
import type { ClientInput, Evidence, VerdictInput } from "./verdict-shape";
import type { TelemetryWindow } from "./window";

export const THRESHOLDS = {
  /** rate-bound (PACE_THRESHOLDS.rateAchieved: the rate asked was met) while its connections were on the server at most this share of the time (headroom). */
  headroomActiveShare: 0.5,
  /** … and the server's processes used less than this % of the host's CPUs (when visible). */
  headroomServerCpuPct: 80,
  /** client-bound: the one client rule (lib/measurement/runner-load.ts CLIENT_RULE): the runner used at least this % of one core … */
  clientCpuPct: 100 * CLIENT_RULE.cpuCores,
  /** … or its event loop was busy at least this share of the time, … */
  clientEventLoopUtilization: CLIENT_RULE.eventLoopUtilization,
  /** … and the rate asked was missed (or none asked: runnerRole). Starved, it is the verdict's caution on the latencies,
   *  never the limit: its threads waited for a CPU (runnable, not running) at least this many ms per second … */
  clientRunQueueWaitMsPerSec: CLIENT_RULE.runQueueWaitMsPerSec,
  /** … and its event-loop delay reached this multiple of the operation's own service time (its p50), */
  clientDelayOverService: CLIENT_RULE.delayOverService,
  /** … a delay of at least clientDelayFloorMs (below it, timer noise). */
  clientDelayFloorMs: CLIENT_RULE.delayFloorMs,
  /** host-bound: processes other than the target's and the runner's used at least this % of the host's CPUs … */
  hostOtherCpuPct: 25,
  /** … the host was busy at least hostCpuBusyPct (or the runner's own CPU was: it waited for one at least
   *  hostPinnedWaitMsPerSec, as when others are pinned to it), and the runner waited for a CPU at least
   *  clientRunQueueWaitMsPerSec. */
  hostPinnedWaitMsPerSec: 500,
  /** Server-side rules need the run's connections on the server at least this share of the time. */
  serverActiveShare: 0.3,
  /** lock-contention-bound: Lock waits are at least this share of the run's active backend-samples. */
  lockShare: 0.3,
  /** WAL-flush-bound: WAL write/sync waits are at least this share of the run's active backend-samples. */
  walShare: 0.3,
  /** replication-bound: waits for a synchronous standby (IPC:SyncRep) at least this share of the run's active
   *  backend-samples (or a replication stall, lib/telemetry/replication.ts). */
  syncRepShare: 0.3,
  /** I/O-bound server: data-file I/O waits at least this share of the run's active backend-samples … */
  ioShare: 0.3,
  /** … or (host visible) the busiest disk busy at least this % with iowait at least ioWaitPct. */
  diskBusyPct: 80,
  ioWaitPct: 20,
  /** CPU-bound server: the run's active backends on CPU (no wait) at least this share … */
  cpuShare: 0.5,
  /** … with the run's connections active at least this share of the time … */
  cpuActiveShare: 0.5,
  /** … and (host visible) the server's processes using at least this % of the host's CPUs, or the host as a whole at least hostCpuBusyPct. */
  serverCpuPct: 70,
  hostCpuBusyPct: 90,
  /** autovacuum/bloat pressure: dead tuples rising and at least this share of the run's tables' tuples … */
  deadShare: 0.2,
  /** … and at least this many (a few thousand dead rows are routine). */
  deadTuplesMin: 10_000,
  /** held snapshot: a session outside the run held the xmin horizon with a transaction open at least this many seconds … */
  xminHeldSec: 60,
  /** … or one older than the window (open before it began, and at least heldSnapshotMinSec) that held it at least
   *  heldSnapshotShare of the window while the run fell behind or slowed; */
  heldSnapshotMinSec: 10,
  heldSnapshotShare: 0.5,
  /** connection-bound: the run's connections waited on the client (idle) at least this share of the time … */
  connectionIdleShare: 0.5,
  /** … while the runner stayed below this % of one core and this event-loop utilization. */
  connectionClientCpuPct: 70,
  connectionClientElu: 0.7,
  /** … and a closed loop's virtual users spent less than this share of their time thinking (achieved ÷ the rate
   *  their think time offers): idle connections of users who think are not a round-trip limit. */
  connectionThinkShare: 0.5,
  ...PACE_THRESHOLDS,
} as const;

/** Wait events that are the WAL flush at commit: the flusher writes and syncs, the others queue on its lock. */
export const WAL_FLUSH_WAITS = ["LWLock:WALWrite", "IO:WalSync", "IO:WalWrite", "IO:WalInitSync", "IO:WalInitWrite"];

const THROTTLE_SPEC: PaceSpec = { kind: "throttle", unit: "msg", operation: "write", label: "write", backlog: false };

/** The pace judged: `pace`, or the throttle of an older caller in its terms. */
export function paceOf(input: VerdictInput): PaceInput | undefined {
  if (input.pace || !input.throttle) return input.pace;
  const t = input.throttle;
  return { spec: { ...THROTTLE_SPEC, kind: t.perSec > 0 ? "throttle" : "unpaced", targetPerSec: t.perSec }, achievedPerSec: t.achievedPerSec };
}

export const ge: (what: string, value: number, threshold: number, unit: string) => Evidence = atLeast;
export const gt = (what: string, value: number, threshold: number, unit: string): Evidence => ({
  what,
  value,
  unit,
  threshold,
  cmp: ">",
  holds: value > threshold,
});
export const lt = (what: string, value: number, threshold: number, unit: string): Evidence => ({
  what,
  value,
  unit,
  threshold,
  cmp: "<",
  holds: value < threshold,
});
export const fact = (what: string, value: number, unit: string): Evidence => ({ what, value, unit });

export const sumShares = (w: TelemetryWindow, pick: (key: string) => boolean) =>
  Object.entries(w.runWaitShares)
    .filter(([k]) => pick(k))
    .reduce((a, [, v]) => a + v, 0);
export const isWalFlush = (k: string) => WAL_FLUSH_WAITS.includes(k);
export const isLock = (k: string) => k.startsWith("Lock:");
export const isDataIo = (k: string) => k.startsWith("IO:") && !k.startsWith("IO:Wal");
/** Top wait events of the run's active backends, as evidence. */
export const topWaits = (w: TelemetryWindow, pick: (k: string) => boolean, n = 3) =>
  Object.entries(w.runWaitShares)
    .filter(([k]) => pick(k))
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => fact(`share of active waits on ${k}`, v, "ratio"));

/** The server's share of the host's CPUs, % (undefined without host metrics). */
export const serverCpuPct = (w: TelemetryWindow) => (w.host && w.host.cores > 0 ? (w.host.serverCpuCores / w.host.cores) * 100 : undefined);

/** The runner's numbers: the window's own, with the caller's (measured over the exact window) taking precedence. */
export function clientOf(input: VerdictInput, w: TelemetryWindow | undefined): ClientInput | undefined {
  return input.client || w?.client ? { ...w?.client, ...input.client } : undefined;
}

/** The runner's numbers as the client rule reads them (its CPU in cores). */
export const clientMeasures = (c: ClientInput) => ({
  ...(c.cpuPct !== undefined ? { cpuCores: c.cpuPct / 100 } : {}),
  eventLoopUtilization: c.eventLoopUtilization,
  runQueueWaitMsPerSec: c.runQueueWaitMsPerSec,
  exposedDelayMs: c.exposedDelayMs,
  serviceMs: c.serviceMs,
});

/** The client rule on the runner's numbers (undefined when none was measured). */
export function clientJudgement(input: VerdictInput, w: TelemetryWindow | undefined): ClientJudgement | undefined {
  const c = clientOf(input, w);
  if (!c || (c.cpuPct === undefined && c.eventLoopUtilization === undefined && c.runQueueWaitMsPerSec === undefined && c.exposedDelayMs === undefined))
    return undefined;
  return judgeClient(clientMeasures(c));
}

/** Whether the rate asked (or a think time's offered rate) was met; undefined when none was asked. */
export function rateMet(input: VerdictInput): boolean | undefined {
  const pace = paceOf(input);
  const rate = pace && judgedRate(pace.spec);
  return pace && rate ? pace.achievedPerSec / rate.perSec >= THRESHOLDS.rateAchieved : undefined;
}

export const all = (evidence: Evidence[]) => evidence.every((e) => e.holds !== false);

/** Either alternative suffices: when one holds, the other is context (its unmet threshold not a reason). */
export function busyOrPinned(busy: Evidence, pinned: Evidence): Evidence[] {
  if (busy.holds && !pinned.holds) delete pinned.holds;
  else if (pinned.holds && !busy.holds) delete busy.holds;
  return [busy, pinned];
}

export const pct = (x: number) => `${Math.round(x * 100)}%`;
export const num = (x: number) => (Math.abs(x) >= 100 ? Math.round(x).toLocaleString("en-US") : String(Math.round(x * 10) / 10));

/** The run's top three waits of those picked, with their shares: "Lock:tuple 40%, Lock:transactionid 12%". */
export function topKeys(w: TelemetryWindow, pick: (k: string) => boolean): string {
  return Object.entries(w.runWaitShares)
    .filter(([k]) => pick(k))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([k, v]) => `${k} ${pct(v)}`)
    .join(", ");
}
