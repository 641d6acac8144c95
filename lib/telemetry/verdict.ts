import { CLIENT_RULE, cautionText, type ClientJudgement, clientReason, judgeClient, runnerRole } from "../measurement/runner-load";
import type { TelemetryWindow } from "./window";
import { PACE_THRESHOLDS, type PaceSpec } from "./pace";
export * from "./verdict-shape";
import { CATEGORY_LABELS, type Category, type ClientInput, type Evidence, type Finding, type Verdict, type VerdictInput, partWords } from "./verdict-shape";
import { blockerWords, heldSnapshot, heldSnapshotWords, stallBlocker } from "./held-snapshot";
import {
  behindSchedule,
  consumerRoundTrips,
  consumersBehind,
  judgedRate,
  type PaceInput,
  paceStatement,
  paceStrength,
  rateBound,
  roundTripWords,
  stall,
} from "./pace-rules";

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

export const ge = (what: string, value: number, threshold: number, unit: string): Evidence => ({
  what,
  value,
  unit,
  threshold,
  cmp: "≥",
  holds: value >= threshold,
});
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

const sumShares = (w: TelemetryWindow, pick: (key: string) => boolean) =>
  Object.entries(w.runWaitShares)
    .filter(([k]) => pick(k))
    .reduce((a, [, v]) => a + v, 0);
const isWalFlush = (k: string) => WAL_FLUSH_WAITS.includes(k);
const isLock = (k: string) => k.startsWith("Lock:");
const isDataIo = (k: string) => k.startsWith("IO:") && !k.startsWith("IO:Wal");
/** Top wait events of the run's active backends, as evidence. */
const topWaits = (w: TelemetryWindow, pick: (k: string) => boolean, n = 3) =>
  Object.entries(w.runWaitShares)
    .filter(([k]) => pick(k))
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => fact(`share of active waits on ${k}`, v, "ratio"));

/** The server's share of the host's CPUs, % (undefined without host metrics). */
const serverCpuPct = (w: TelemetryWindow) => (w.host && w.host.cores > 0 ? (w.host.serverCpuCores / w.host.cores) * 100 : undefined);

type Rule = (input: VerdictInput, w: TelemetryWindow | undefined) => Finding;

/** The runner's numbers: the window's own, with the caller's (measured over the exact window) taking precedence. */
function clientOf(input: VerdictInput, w: TelemetryWindow | undefined): ClientInput | undefined {
  return input.client || w?.client ? { ...w?.client, ...input.client } : undefined;
}

/** The runner's numbers as the client rule reads them (its CPU in cores). */
const clientMeasures = (c: ClientInput) => ({
  ...(c.cpuPct !== undefined ? { cpuCores: c.cpuPct / 100 } : {}),
  eventLoopUtilization: c.eventLoopUtilization,
  runQueueWaitMsPerSec: c.runQueueWaitMsPerSec,
  exposedDelayMs: c.exposedDelayMs,
  serviceMs: c.serviceMs,
});

/** The client rule on the runner's numbers (undefined when none was measured). */
function clientJudgement(input: VerdictInput, w: TelemetryWindow | undefined): ClientJudgement | undefined {
  const c = clientOf(input, w);
  if (!c || (c.cpuPct === undefined && c.eventLoopUtilization === undefined && c.runQueueWaitMsPerSec === undefined && c.exposedDelayMs === undefined))
    return undefined;
  return judgeClient(clientMeasures(c));
}

/** Whether the rate asked (or a think time's offered rate) was met; undefined when none was asked. */
function rateMet(input: VerdictInput): boolean | undefined {
  const pace = paceOf(input);
  const rate = pace && judgedRate(pace.spec);
  return pace && rate ? pace.achievedPerSec / rate.perSec >= THRESHOLDS.rateAchieved : undefined;
}

const all = (evidence: Evidence[]) => evidence.every((e) => e.holds !== false);

/** Either alternative suffices: when one holds, the other is context (its unmet threshold not a reason). */
function busyOrPinned(busy: Evidence, pinned: Evidence): Evidence[] {
  if (busy.holds && !pinned.holds) delete pinned.holds;
  else if (pinned.holds && !busy.holds) delete busy.holds;
  return [busy, pinned];
}

const RULES: Record<Exclude<Category, "undetermined">, Rule> = {
  "consumers-behind": (input) => consumersBehind(paceOf(input)),
  stall: (input, w) => {
    const f = stall(paceOf(input));
    const b = f.matched && w ? stallBlocker(w, paceOf(input)!) : undefined;
    if (b) f.evidence.push(fact(`the lock behind it, read during the stall: ${blockerWords(b)}`, b.readings, "readings"));
    return f;
  },
  "rate-bound": (input, w) =>
    rateBound(paceOf(input), w, w ? serverCpuPct(w) : undefined, { active: THRESHOLDS.headroomActiveShare, cpuPct: THRESHOLDS.headroomServerCpuPct }),
  "behind-schedule": (input) => behindSchedule(paceOf(input)),
  "host-bound": (input, w) => {
    const c = clientOf(input, w);
    if (!w?.host || w.host.otherCpuCores === undefined || c?.runQueueWaitMsPerSec === undefined)
      return { category: "host-bound", matched: false, evidence: [] };
    const h = w.host;
    const ev = [
      ge("other processes' CPU, % of the host", (100 * h.otherCpuCores!) / h.cores, THRESHOLDS.hostOtherCpuPct, "%"),
      ...busyOrPinned(
        ge("host CPU busy (all processes)", h.cpuBusyPct, THRESHOLDS.hostCpuBusyPct, "%"),
        ge("the runner's CPU full: its wait for a CPU", c.runQueueWaitMsPerSec, THRESHOLDS.hostPinnedWaitMsPerSec, "ms/s"),
      ),
      ge("runner's wait for a CPU (runnable, not running)", c.runQueueWaitMsPerSec, THRESHOLDS.clientRunQueueWaitMsPerSec, "ms/s"),
      ...(h.topOthers ?? []).map((o) => fact(`CPU of ${o.name}`, o.cores, "cores")),
      fact("server processes' CPU", h.serverCpuCores, "cores"),
      ...(h.runnerCpuCores !== undefined ? [fact("runner CPU", h.runnerCpuCores, "cores")] : []),
      fact("host cores", h.cores, "cores"),
    ];
    return { category: "host-bound", matched: all(ev), evidence: ev };
  },
  "client-bound": (input, w) => {
    const c = clientOf(input, w);
    if (!c || (c.cpuPct === undefined && c.eventLoopUtilization === undefined && c.runQueueWaitMsPerSec === undefined && c.exposedDelayMs === undefined))
      return { category: "client-bound", matched: false, evidence: [] };
    // The one client rule every surface applies (the runner-load note, the page, the CLI, the A/B, the ceiling):
    // the runner is the limit only when it was at its limit and the rate asked (if any) was missed. Starved, or
    // busy while the rate was met, it is a caution on the latencies (verdictOf), not the verdict.
    const j = judgeClient(clientMeasures(c));
    const met = rateMet(input);
    const ev: Evidence[] = [...j.checks];
    const pace = paceOf(input);
    const rate = pace && judgedRate(pace.spec);
    if (j.saturated && pace && rate)
      ev.push(lt(`${rate.what} (a runner at its limit limits only a rate it missed)`, pace.achievedPerSec / rate.perSec, THRESHOLDS.rateAchieved, "ratio"));
    if (j.bound && !j.saturated) ev.push(fact("starved of CPU, not at its limit: a caution on the latencies, never the limit", 1, ""));
    if (c.exposedDelayMs !== undefined) ev.push(fact("runner event-loop delay over 1% of the time", c.exposedDelayMs, "ms"));
    if (c.serviceMs !== undefined) ev.push(fact("the operation's service time (p50)", c.serviceMs, "ms"));
    if (c.eventLoopDelayMaxMs !== undefined) ev.push(fact("longest event-loop delay", c.eventLoopDelayMaxMs, "ms"));
    if (w) ev.push(fact("share of time the run's connections were active on the server", w.runActiveShare, "ratio"));
    // Over several processes these numbers are one part's, the worst-loaded: say which (its index is the value).
    if (c.part) ev.unshift(fact(`the runner process judged, the worst-loaded: ${partWords(c.part)}`, c.part.index, "part"));
    return { category: "client-bound", matched: runnerRole(j, met) === "limit", evidence: ev };
  },
  "lock-contention-bound": (_, w) => {
    if (!w) return { category: "lock-contention-bound", matched: false, evidence: [] };
    const ev = [
      ge("share of time the run's connections were active", w.runActiveShare, THRESHOLDS.serverActiveShare, "ratio"),
      ge("share of active waits on Lock:*", sumShares(w, isLock), THRESHOLDS.lockShare, "ratio"),
      ...topWaits(w, isLock),
      fact("ungranted locks, average", w.lockWaitsAvg, "locks"),
    ];
    return { category: "lock-contention-bound", matched: all(ev), evidence: ev };
  },
  "wal-flush-bound": (_, w) => {
    if (!w) return { category: "wal-flush-bound", matched: false, evidence: [] };
    const ev = [
      ge("share of time the run's connections were active", w.runActiveShare, THRESHOLDS.serverActiveShare, "ratio"),
      ge("share of active waits on the WAL flush (WALWrite, WalSync, WalWrite)", sumShares(w, isWalFlush), THRESHOLDS.walShare, "ratio"),
      ...topWaits(w, isWalFlush),
    ];
    if (w.wal?.syncsPerSec !== undefined) ev.push(fact("WAL syncs", w.wal.syncsPerSec, "/s"));
    if (w.wal?.syncMsPerSec !== undefined) ev.push(fact("WAL sync time", w.wal.syncMsPerSec, "ms/s"));
    if (w.wal) ev.push(fact("WAL written", w.wal.bytesPerSec, "bytes/s"));
    if (w.db) ev.push(fact("commits", w.db.commitsPerSec, "/s"));
    return { category: "wal-flush-bound", matched: all(ev), evidence: ev };
  },
  "io-bound-server": (_, w) => {
    if (!w) return { category: "io-bound-server", matched: false, evidence: [] };
    const active = ge("share of time the run's connections were active", w.runActiveShare, THRESHOLDS.serverActiveShare, "ratio");
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
  },
  "cpu-bound-server": (_, w) => {
    if (!w) return { category: "cpu-bound-server", matched: false, evidence: [] };
    const ev = [
      ge("share of time the run's connections were active", w.runActiveShare, THRESHOLDS.cpuActiveShare, "ratio"),
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
      ev.push(
        server,
        host,
        ...(quiet ? [quiet] : []),
        fact("server processes' CPU", w.host.serverCpuCores, "cores"),
        fact("host cores", w.host.cores, "cores"),
      );
    }
    return { category: "cpu-bound-server", matched: all(ev), evidence: ev };
  },
  "autovacuum-pressure": (input, w) => {
    if (!w) return { category: "autovacuum-pressure", matched: false, evidence: [] };
    const ev: Evidence[] = [];
    let dead = false;
    if (w.tables) {
      const t = w.tables;
      const total = t.deadTuplesEnd + t.liveTuplesEnd;
      const rising = gt("dead tuples' trend", t.deadTuplesSlopePerSec, 0, "tuples/s");
      const many = ge("dead tuples at the end", t.deadTuplesEnd, THRESHOLDS.deadTuplesMin, "tuples");
      const share = ge("dead share of the run's tables' tuples", total > 0 ? t.deadTuplesEnd / total : 0, THRESHOLDS.deadShare, "ratio");
      ev.push(rising, many, share, fact("autovacuum runs", t.autovacuumRuns, "runs"));
      // Dead tuples are pressure only when autovacuum lags behind them or they slow the run: workflows and queues
      // leave thousands within seconds by design, before autovacuum has had its first chance to run.
      // A run slowed by the host's other processes or a starved runner says nothing about its dead tuples.
      const cpuExplains = RULES["host-bound"](input, w).matched || clientJudgement(input, w)?.bound === true;
      const effect = deadEffect(t.autovacuumRuns, w.seconds, paceOf(input), cpuExplains);
      ev.push(...effect.evidence);
      dead = [rising, many, share].every((e) => e.holds) && effect.holds;
    }
    return { category: "autovacuum-pressure", matched: dead, evidence: ev };
  },
  "held-snapshot": (input, w) => heldSnapshot(input, w).finding,
  "connection-bound": (input, w) => {
    if (!w) return { category: "connection-bound", matched: false, evidence: [] };
    const c = clientOf(input, w);
    // Or the consumers' own round trips set their pace (pace-rules.ts consumerRoundTrips): either suffices.
    const rt = consumerRoundTrips(paceOf(input), w);
    const ev = [
      ge("share of time the run's connections waited on the client (idle)", w.runIdleShare + w.runIdleInTxShare, THRESHOLDS.connectionIdleShare, "ratio"),
    ];
    if (c?.cpuPct !== undefined) ev.push(lt("runner CPU, % of one core", c.cpuPct, THRESHOLDS.connectionClientCpuPct, "%"));
    if (c?.eventLoopUtilization !== undefined) ev.push(lt("runner event-loop utilization", c.eventLoopUtilization, THRESHOLDS.connectionClientElu, "ratio"));
    ev.push(fact("the run's connections", w.runConnections, "connections"));
    // A run that met the rate it was asked for idles by design: that is rate-bound, not round trips. A closed
    // loop's virtual users that spent most of their time thinking (achieved ÷ offered is that share) leave the
    // connections idle because nobody asks: more connections would not raise its rate.
    const pace = paceOf(input);
    const rate = pace && judgedRate(pace.spec);
    if (pace && rate) {
      const share = pace.achievedPerSec / rate.perSec;
      ev.push(
        rate.offered
          ? lt("share of the virtual users' time spent thinking", share, THRESHOLDS.connectionThinkShare, "ratio")
          : lt(rate.what, share, THRESHOLDS.rateAchieved, "ratio"),
      );
    }
    const idle = c !== undefined && all(ev);
    if (rt.holds && !idle) for (const e of ev) delete e.holds;
    return { category: "connection-bound", matched: idle || rt.holds, evidence: [...ev, ...rt.evidence] };
  },
};

/**
 * Whether dead tuples matter: autovacuum lagging (none ran in a window of two naptimes or more), or the run slowing
 * as they rose (its last third's rate or latency against its first third's) while its backlog did not grow (a
 * growing backlog slows a run by itself: larger tables to scan) and no CPU shortage explains it (`cpuExplains`:
 * host-bound or client-bound held). Either suffices.
 */
function deadEffect(autovacuumRuns: number, seconds: number, pace: PaceInput | undefined, cpuExplains: boolean): { holds: boolean; evidence: Evidence[] } {
  const lag = ge("measured window with no autovacuum run", autovacuumRuns === 0 ? seconds : 0, THRESHOLDS.autovacuumLagSec, "s");
  const ev = [lag];
  const backlogGrew = consumersBehind(pace).matched;
  if (cpuExplains) ev.push(fact("a slowdown is the host's or the runner's CPU (host-bound or client-bound held): not judged", 1, ""));
  const first = backlogGrew || cpuExplains ? undefined : pace?.facts?.firstThird;
  const last = pace?.facts?.lastThird;
  if (first && last && first.rate > 0) ev.push(lt("last third's rate / the first third's", last.rate / first.rate, THRESHOLDS.slowRateShare, "ratio"));
  if (first?.p50Ms && last?.p50Ms !== undefined)
    ev.push(ge("last third's latency p50 / the first third's", last.p50Ms / first.p50Ms, THRESHOLDS.slowLatencyFactor, "ratio"));
  const holds = ev.some((e) => e.holds);
  if (holds) for (const e of ev) if (!e.holds) delete e.holds;
  return { holds, evidence: ev };
}

/** Server-side limits compete: the one whose waits are the largest share wins. */
const SERVER_SIDE: Category[] = ["lock-contention-bound", "wal-flush-bound", "io-bound-server", "cpu-bound-server"];
/**
 * The causes, in precedence order. The run's pace effects (a stall, consumers behind) are weighed against them
 * in verdictOf: a stall is the headline whenever it happened (the window's averages around it mislead), consumers
 * behind whenever no cause above a missed rate held (a busy runner or a server-side limit stays the headline then,
 * and its statement names the backlog).
 */
const PACE_EFFECTS: Category[] = ["consumers-behind", "stall"];
const ORDER: Category[][] = [
  ["rate-bound"],
  ["client-bound"],
  SERVER_SIDE,
  ["host-bound"],
  ["behind-schedule"],
  ["autovacuum-pressure"],
  ["held-snapshot"],
  ["connection-bound"],
];
/** The causes consumers behind yields to (its statement then names the backlog): a runner at its limit, a
 *  server-side limit, or other processes filling the host (readers starved of CPU fall behind too). */
const CAUSES: Category[] = ["client-bound", ...SERVER_SIDE, "host-bound"];

/**
 * A runner starved of CPU, or busy while the rate asked was met, is no category: client-bound holds only when the
 * runner was the limit (runnerRole). Its load is then a caution on the latencies, the statement's last clause.
 */
/** How strongly a matched finding holds: a server-side one's main share, a pace effect's size. */
function strength(f: Finding, pace: PaceInput | undefined): number {
  if (PACE_EFFECTS.includes(f.category)) return paceStrength(f, pace);
  const share = f.evidence.find((e) => e.what.startsWith("share of active"));
  return share?.value ?? 0;
}

const pct = (x: number) => `${Math.round(x * 100)}%`;
export const num = (x: number) => (Math.abs(x) >= 100 ? Math.round(x).toLocaleString("en-US") : String(Math.round(x * 10) / 10));

function statementOf(category: Category, f: Finding | undefined, w: TelemetryWindow | undefined, input: VerdictInput): string {
  const ev = (prefix: string) => f?.evidence.find((e) => e.what.startsWith(prefix))?.value;
  switch (category) {
    case "stall": {
      // The lock behind it, as read during it: relation, mode, the holder's pid and query.
      const b = w ? stallBlocker(w, paceOf(input)!) : undefined;
      return `${paceStatement(category, paceOf(input)!, w, undefined)}${b ? `; behind it: ${blockerWords(b)} (read during the stall)` : ""}`;
    }
    case "consumers-behind":
    case "rate-bound":
    case "behind-schedule":
      return paceStatement(category, paceOf(input)!, w, undefined);
    case "held-snapshot":
      return heldSnapshotWords(w!, paceOf(input));
    case "host-bound": {
      const h = w!.host!;
      const top = (h.topOthers ?? []).map((o) => `${o.name} ${num(100 * o.cores)}% of a core`).join(", ");
      const part = clientOf(input, w)?.part;
      return `host-bound: other processes used ${num((100 * h.otherCpuCores!) / h.cores)}% of the host's ${h.cores} CPUs${top ? ` (${top})` : ""} with the host ${num(h.cpuBusyPct)}% busy${f?.evidence.find((e) => e.what.startsWith("host CPU busy"))?.holds ? "" : " but the runner's own CPU full"}, and the runner${part ? ` (${partWords(part)})` : ""} waited ${num(ev("runner's wait for a CPU") ?? 0)} ms/s for a CPU; the target's processes used ${h.serverCpuCores.toFixed(2)} cores${h.runnerCpuCores !== undefined ? `, the runner ${h.runnerCpuCores.toFixed(2)}` : ""}: these numbers are the shared machine's, not the target's alone`;
    }
    case "client-bound": {
      // The runner-load note's own words: only the numbers that met their threshold are the reason.
      const c = clientOf(input, w);
      const m = c ? clientMeasures(c) : {};
      const who = c?.part ? `${partWords(c.part)}: ` : "";
      return `client-bound: ${who}${clientReason(judgeClient(m), m, "limit")}${w ? ` while its connections waited on it ${pct(w.runIdleShare + w.runIdleInTxShare)} of the time` : ""}`;
    }
    case "lock-contention-bound": {
      const top = Object.entries(w!.runWaitShares)
        .filter(([k]) => isLock(k))
        .sort((a, b) => b[1] - a[1])[0]?.[0];
      // Lock:object on a database is the one lock every commit that NOTIFYs takes: name it when it leads.
      const why = top === "Lock:object" ? "; Lock:object is the global lock commits that NOTIFY serialize on" : "";
      return `lock-contention-bound: ${pct(ev("share of active waits on Lock") ?? 0)} of the run's active backends waited on heavyweight locks (${topKeys(w!, isLock)})${why}`;
    }
    case "wal-flush-bound":
      return `WAL-flush-bound: ${pct(ev("share of active waits on the WAL") ?? 0)} of the run's active backends waited on the WAL flush (${topKeys(w!, isWalFlush)})${w?.wal?.syncMsPerSec !== undefined ? `, WAL sync time ${num(w.wal.syncMsPerSec)} ms/s` : ""}`;
    case "io-bound-server":
      return `I/O-bound server: the run's active backends waited on data-file I/O (${topKeys(w!, isDataIo) || "host disk busy"})${w?.host ? `, busiest disk ${num(w.host.diskBusyPct)}% busy, iowait ${num(w.host.iowaitPct)}%` : ""}`;
    case "cpu-bound-server":
      return `CPU-bound server: the run's connections were active ${pct(w!.runActiveShare)} of the time, ${pct(w!.runWaitShares.CPU ?? 0)} of that on CPU${w?.host ? `; the server's processes used ${num(w.host.serverCpuCores)} of ${w.host.cores} cores, host ${num(w.host.cpuBusyPct)}% busy` : " (host CPU not visible: inferred from wait events)"}`;
    case "autovacuum-pressure":
      return `autovacuum/bloat pressure: ${w?.tables ? `dead tuples rose to ${num(w.tables.deadTuplesEnd)} (${num(w.tables.deadTuplesSlopePerSec)}/s)` : ""}${w?.oldestXactSecMax !== undefined && w.oldestXactSecMax >= THRESHOLDS.xminHeldSec ? `${w?.tables ? "; " : ""}a transaction open ${num(w.oldestXactSecMax)} s held the xmin horizon` : ""}`;
    case "connection-bound":
      if (consumerRoundTrips(paceOf(input), w).holds) return `connection-bound: ${roundTripWords(paceOf(input)!)}`;
      return `connection-bound: the run's ${num(w!.runConnections)} connections waited on the client ${pct(w!.runIdleShare + w!.runIdleInTxShare)} of the time while the runner was not busy: the round trips limit it (more connections, or batching, would raise throughput)`;
    default:
      return w
        ? `undetermined: no rule's thresholds were met (the run's connections were active ${pct(w.runActiveShare)} of the time; top waits ${topKeys(w, () => true) || "none"})`
        : "undetermined: no server telemetry for this window";
  }
}

function topKeys(w: TelemetryWindow, pick: (k: string) => boolean): string {
  return Object.entries(w.runWaitShares)
    .filter(([k]) => pick(k))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([k, v]) => `${k} ${pct(v)}`)
    .join(", ");
}

/** The verdict over one window: the first matching category in precedence order, its evidence, every rule's findings. */
export function verdictOf(input: VerdictInput): Verdict {
  const w = input.telemetry;
  const findings = (Object.keys(RULES) as Exclude<Category, "undetermined">[]).map((c) => RULES[c](input, w));
  const byCat = new Map(findings.map((f) => [f.category, f]));
  let chosen: Finding | undefined;
  // A held snapshot that is the bigger effect (heldSnapshot: leads) comes first: the run fell behind or slowed
  // (a rate its writers met says nothing of its readers').
  const snapshotLeads = heldSnapshot(input, w).leads;
  const order = snapshotLeads ? [["held-snapshot" as const], ...ORDER.filter((g) => g[0] !== "held-snapshot")] : ORDER;
  const pace = paceOf(input);
  for (const group of order) {
    const matched = group.map((c) => byCat.get(c)!).filter((f) => f.matched);
    if (matched.length) {
      chosen = matched.sort((a, b) => strength(b, pace) - strength(a, pace))[0];
      break;
    }
  }
  // The larger pace effect, when one happened (their size: the share of the window's work each touched).
  const effect = PACE_EFFECTS.map((c) => byCat.get(c)!)
    .filter((f) => f.matched)
    .sort((a, b) => strength(b, pace) - strength(a, pace))[0];
  // Consumers whose own round trips set their pace are behind for that reason, not for the shared machine's.
  const roundTrips = consumerRoundTrips(pace, w).holds;
  const cause =
    chosen && (CAUSES.includes(chosen.category) || (chosen.category === "held-snapshot" && snapshotLeads)) && !(chosen.category === "host-bound" && roundTrips);
  let suffix = "";
  if (effect && (effect.category === "stall" || !cause)) chosen = effect;
  else if (effect && pace) suffix = `; ${paceStatement(effect.category, pace, w, undefined)}`;
  const category: Category = chosen?.category ?? "undetermined";
  let statement = statementOf(category, chosen, w, input) + suffix;
  // A pace effect headlining over a runner short of CPU (other processes took it, or it starved) names that beside
  // it: the consumers or the stall may be the shared machine's, not the target's.
  const cpu = (["host-bound", "client-bound"] as const).find((c) => byCat.get(c)!.matched);
  if (PACE_EFFECTS.includes(category) && cpu) statement += `; ${statementOf(cpu, byCat.get(cpu), w, input)}`;
  // Over several runner processes, a part the client rule held for is named whatever the headline: the run's
  // merged figures would otherwise hide that one process distorted them.
  const client = byCat.get("client-bound")!;
  if (clientOf(input, w)?.part && client.matched && !statement.includes("client-bound: part "))
    statement += `; ${statementOf("client-bound", client, w, input)}`;
  // A limit that made the run miss its rate says so: who fell behind, and by how much. Beside a pace effect (the
  // consumers behind, a stall) the missed rate is said too, its numbers only: the headline is the effect.
  if (pace && chosen && byCat.get("behind-schedule")!.matched) {
    if ([...SERVER_SIDE, "client-bound", "host-bound", "autovacuum-pressure", "held-snapshot"].includes(category))
      statement += `; ${paceStatement("behind-schedule", pace, w, CATEGORY_LABELS[category])}`;
    else if (PACE_EFFECTS.includes(category)) statement += `; ${paceStatement("behind-schedule", pace, w, undefined, false)}`;
  }
  // The runner's load where it was not the limit: a caution on the latencies, inside the verdict (its last clause).
  const j = clientJudgement(input, w);
  const c = clientOf(input, w);
  let caution: string | undefined;
  if (j && c && runnerRole(j, rateMet(input)) === "caution") {
    caution = cautionText(j, clientMeasures(c), c.eventLoopDelayMaxMs ?? c.exposedDelayMs ?? 0, rateMet(input), c.part ? `${partWords(c.part)}: ` : "");
    statement += `; ${caution}`;
  }
  const blindSpots: string[] = [];
  if (!w) blindSpots.push("no server telemetry: only the client's numbers and the run's pace were judged");
  else {
    if (!w.host) blindSpots.push("the server host's CPU and disks are not visible (a remote target): CPU- and I/O-bound are judged from wait events alone");
    if (!w.client && !input.client) blindSpots.push("the runner's CPU and event loop were not measured");
  }
  return {
    category,
    statement,
    evidence: chosen?.evidence ?? (w ? [fact("share of time the run's connections were active", w.runActiveShare, "ratio")] : []),
    also: findings.filter((f) => f.matched && f !== chosen).map((f) => f.category),
    findings,
    blindSpots,
    ...(caution ? { caution } : {}),
  };
}
