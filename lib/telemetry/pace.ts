// The run's own pace as the verdict judges it (browser-safe): the rate it was asked for and the rate it reached,
// who fell behind, consumers falling behind the writers, and stalls with their catch-up, found in the measured
// window's per-second samples. The engine feeds a PaceTrack one sample a second; the live page feeds the same
// from stored samples; the verdict's pace rules (./pace-rules.ts, ./verdict-rules-pace.ts) turn the result into findings.
import type { SampleMetrics } from "../measurement/sample";
import { latencyOf, measureOf, throughputOf } from "../measurement/operations";
import type { ConsumerDef, MetricModel, Pacing } from "../../workloads/types";

/** The thresholds of the pace rules; verdict-evidence.ts's THRESHOLDS lists them with the others. */
export const PACE_THRESHOLDS = {
  /** rate-bound: the paced operation reached at least this share of the rate asked … (with the server's headroom, verdict-evidence.ts) */
  rateAchieved: 0.95,
  /** stall: a second counts as stalled when the paced operation was at least this far behind its schedule … */
  stallBehindMs: 1000,
  /** … or its rate fell below this share of the rate expected (the rate asked, or the window's median unpaced) … */
  stallRateShare: 0.5,
  /** … for at least this many seconds in a row (a single slow second on a busy machine is not a stall); a stall
   *  still going at the window's end counts only when the rate fell under stallBlockedShare (blocked, not slowing). */
  stallDipSeconds: 2,
  stallBlockedShare: 0.1,
  /** consumers behind: the backlog grew by at least this share of the write rate … */
  backlogGrowthShare: 0.05,
  /** … and held at least this many seconds of writes at the window's end (and at least backlogMin items). */
  backlogEndSeconds: 1,
  backlogMin: 100,
  /** autovacuum lags: dead tuples over the rule's thresholds with no autovacuum run in a window at least this long
   *  (two autovacuum_naptime's at its default of 1 min: before that, not having run is by design). */
  autovacuumLagSec: 120,
  /** dead tuples slow the run: the last third's rate at most this share of the first third's, or its latency p50
   *  at least slowLatencyFactor times the first third's. */
  slowRateShare: 0.8,
  slowLatencyFactor: 1.5,
  /** The consumers' round trips set their pace (consumers behind, then): each reader spent at least this share of
   *  its time in its claims' timed round trips (claims a second × time a claim; pub/sub's BEGIN is not timed: one
   *  round trip of its four a message) … */
  roundTripBusyShare: 0.6,
  /** … while the run's connections were active on the server less than this share of the time (otherwise the
   *  claims' time is the server's: its leading wait is the cause). */
  roundTripServerShare: 0.5,
  /** … taking fewer than this many items a claim (per-item round trips: a batch would carry more in each). */
  roundTripItemsPerClaim: 10,
} as const;

/** One measured second as the pace rules read it. */
export interface PaceSecond {
  /** Seconds since the measured window's start, at the interval's start, and its real length. */
  t: number;
  sec: number;
  /** The paced (or main) operation's count in the interval. */
  done: number;
  /** How far behind its schedule the paced operation was (writer lag, or the from-schedule latency's max), ms. */
  behindMs?: number;
  /** Items written and not yet consumed at the interval's end (largest over groups). */
  backlog?: number;
  /** The main operation's latency p50 in the interval, ms. */
  p50Ms?: number;
  /** The consumers' claim's latency p50 in the interval, ms (a workload with consumers). */
  claimP50Ms?: number;
}

/** What PaceTrack reads of a sample. */
export type PacedSample = Pick<SampleMetrics, "intervalSec" | "operations" | "measures">;

/** How the run was paced, in the workload's words. */
export interface PaceSpec {
  kind: Pacing["kind"];
  targetPerSec?: number;
  /** A closed loop with think time: the rate its virtual users offer at most (users × 1,000 ÷ think ms), and
   *  theirs. Not a rate asked (no timetable to fall behind), but what the run's rate is judged against. */
  offered?: { perSec: number; virtualUsers: number; thinkMs: number };
  /** The paced item ("workflow", "row", "req", "msg"). */
  unit: string;
  /** The paced operation's name and its label ("enqueue", "insert"). */
  operation: string;
  label: string;
  /** Its from-schedule latency's name, and its writers' lag behind their shares (a throttle's), if it has them. */
  scheduled?: string;
  writerLag?: string;
  /** The main operation timed (its p50 for the slowdown check). */
  mainLatency?: string;
  /** Whether the workload counts a backlog (items written and not yet consumed), and its delivery latency's name. */
  backlog: boolean;
  delivery?: string;
  /** How its consumers poll (claim and read latencies, the batch flag), when it has consumers. */
  consumer?: ConsumerDef;
}

export interface Stall {
  /** When it started and how long it lasted (seconds into the measured window). */
  startSec: number;
  seconds: number;
  /** How far behind schedule the paced operation fell, ms; undefined when not measured (no second in it measured it). */
  maxBehindMs?: number;
  /** The lowest rate in it, and the rate expected. */
  minRate: number;
  expectedRate: number;
  /** The seconds after the blocked part where it ran above the expected rate to catch up, and the peak; `caughtUp`
   *  false when it was still behind at the window's end, undefined when how far behind was not measured after it. */
  catchUpSeconds: number;
  catchUpPeakRate: number;
  caughtUp?: boolean;
}

/** What the per-second samples of the measured window show. */
export interface PaceFacts {
  seconds: number;
  /** Longest stalls, longest first (at most three). */
  stalls: Stall[];
  behindMaxMs?: number;
  behindEndMs?: number;
  /** Least-squares slope of the backlog, items/s, and the backlog at the window's end. */
  backlogSlopePerSec?: number;
  backlogEnd?: number;
  /** Rates and latency p50s (median of seconds: the main operation's, the consumers' claim's) of the window's first and last thirds. */
  firstThird?: Third;
  lastThird?: Third;
}

export interface Third {
  rate: number;
  p50Ms?: number;
  claimP50Ms?: number;
}

/** The pacing a config declares, in the terms the rules read (unit and label from its metric model). */
export function paceSpecOf(pacing: Pacing, metrics: MetricModel): PaceSpec {
  const op = metrics.operations.find((o) => o.name === pacing.operation);
  const main = metrics.operations.find((o) => o.latency);
  return {
    kind: pacing.kind,
    ...(pacing.targetPerSecond ? { targetPerSec: pacing.targetPerSecond } : {}),
    ...(pacing.kind === "closed-loop" && (pacing.thinkMs ?? 0) > 0 && (pacing.virtualUsers ?? 0) > 0
      ? { offered: { perSec: (pacing.virtualUsers! * 1000) / pacing.thinkMs!, virtualUsers: pacing.virtualUsers!, thinkMs: pacing.thinkMs! } }
      : {}),
    unit: pacing.unit,
    operation: pacing.operation,
    label: op?.label ?? pacing.operation,
    ...(op?.scheduled ? { scheduled: op.scheduled.name } : {}),
    ...(op?.scheduled?.writerLag ? { writerLag: op.scheduled.writerLag.name } : {}),
    ...(main ? { mainLatency: main.name } : {}),
    backlog: !!metrics.backlog,
    ...(metrics.delivery ? { delivery: metrics.delivery.name } : {}),
    ...(metrics.consumer ? { consumer: metrics.consumer } : {}),
  };
}

/** Whether the run was asked for a rate (a throttle or an open loop's timetable). */
export const isPaced = (s: PaceSpec) => (s.kind === "throttle" || s.kind === "open-loop") && (s.targetPerSec ?? 0) > 0;

const median = (xs: number[]) => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Least-squares slope of y over x. */
function slopeOf(points: [number, number][]): number {
  const n = points.length;
  if (n < 2) return 0;
  let sx = 0;
  let sy = 0;
  let sxy = 0;
  let sxx = 0;
  for (const [x, y] of points) {
    sx += x;
    sy += y;
    sxy += x * y;
    sxx += x * x;
  }
  const den = n * sxx - sx * sx;
  return den > 0 ? (n * sxy - sx * sy) / den : 0;
}

/** Seconds shorter than this are a phase's last sliver: their rate is noise (lib/measurement/sample.ts isRateSample). */
const MIN_RATE_SEC = 0.5;

/**
 * The measured window's seconds, one at a time. Keeps five numbers a second (a 24-hour run: 86,400 of them, a
 * few MB), since a stall is only known once the window around it is.
 */
export class PaceTrack {
  private secs: PaceSecond[] = [];
  private t = 0;

  constructor(readonly spec: PaceSpec) {}

  /** One measured sample (an engine's, or a stored one): its interval's counts, latencies and backlog. How far
   *  behind: the writers' lag (the engine records each writer's at every tick) or the from-schedule latency. */
  addSample(m: PacedSample) {
    const s = this.spec;
    const done = throughputOf(m, s.operation)?.count ?? 0;
    const fromSchedule = s.scheduled ? latencyOf(m, s.scheduled)?.max : undefined;
    const lag = s.writerLag ? latencyOf(m, s.writerLag)?.max : undefined;
    const behind = lag === undefined && fromSchedule === undefined ? undefined : Math.max(lag ?? 0, fromSchedule ?? 0);
    const p50 = s.mainLatency ? latencyOf(m, s.mainLatency)?.p50 : undefined;
    const claim = s.consumer ? latencyOf(m, s.consumer.claim) : undefined;
    this.add({
      t: this.t,
      sec: m.intervalSec,
      done,
      ...(behind !== undefined ? { behindMs: behind } : {}),
      ...(s.backlog ? { backlog: measureOf(m, "backlog") } : {}),
      ...(p50 !== undefined ? { p50Ms: p50 } : {}),
      ...(claim?.count ? { claimP50Ms: claim.p50 } : {}),
    });
  }

  add(p: PaceSecond) {
    this.secs.push(p);
    this.t = p.t + p.sec;
  }

  /** The seconds so far (the live verdict's span). */
  get seconds(): readonly PaceSecond[] {
    return this.secs;
  }

  result(): PaceFacts {
    return paceFacts(this.spec, this.secs);
  }
}

/** What a window's seconds show: stalls, backlog growth, the first and last thirds. */
export function paceFacts(spec: PaceSpec, secs: readonly PaceSecond[]): PaceFacts {
  const seconds = secs.reduce((a, s) => a + s.sec, 0);
  const full = secs.filter((s) => s.sec >= MIN_RATE_SEC);
  const rate = (s: PaceSecond) => s.done / s.sec;
  // The rate a second is held against: the run's own median, and no more than the rate asked (a run that never
  // reached its rate is behind schedule throughout, not stalled).
  const typical = median(full.map(rate));
  const expected = isPaced(spec) ? Math.min(spec.targetPerSec!, typical) : typical;
  const behinds = secs.flatMap((s) => (s.behindMs !== undefined ? [s.behindMs] : []));
  const backlogs = secs.flatMap((s) => (s.backlog !== undefined ? [[s.t + s.sec, s.backlog] as [number, number]] : []));
  const thirds = full.length >= 3 ? [full.slice(0, Math.floor(full.length / 3)), full.slice(full.length - Math.floor(full.length / 3))] : undefined;
  const third = (xs: PaceSecond[]): Third => {
    const p50s = xs.flatMap((s) => (s.p50Ms !== undefined ? [s.p50Ms] : []));
    const claims = xs.flatMap((s) => (s.claimP50Ms !== undefined ? [s.claimP50Ms] : []));
    return { rate: median(xs.map(rate)), ...(p50s.length ? { p50Ms: median(p50s) } : {}), ...(claims.length ? { claimP50Ms: median(claims) } : {}) };
  };
  return {
    seconds,
    stalls: stallsOf(secs, expected),
    ...(behinds.length ? { behindMaxMs: Math.max(...behinds), behindEndMs: behinds[behinds.length - 1] } : {}),
    ...(backlogs.length ? { backlogSlopePerSec: slopeOf(backlogs), backlogEnd: backlogs[backlogs.length - 1][1] } : {}),
    ...(thirds ? { firstThird: third(thirds[0]), lastThird: third(thirds[1]) } : {}),
  };
}

/**
 * Stalls: runs of seconds with the rate under stallRateShare of the expected rate for stallDipSeconds or more, or
 * behind schedule by stallBehindMs or more, that ended before the window did (still going at its end: only when the
 * rate fell under stallBlockedShare: a run slowing down, or behind to the end, missed its rate and did not stall);
 * each with how long, how far behind, and its catch-up (the seconds after it spent above the expected rate until
 * back on schedule).
 */
function stallsOf(secs: readonly PaceSecond[], expected: number): Stall[] {
  const T = PACE_THRESHOLDS;
  const rate = (s: PaceSecond) => (s.sec > 0 ? s.done / s.sec : 0);
  const behind = (s: PaceSecond) => (s.behindMs ?? 0) >= T.stallBehindMs;
  const dip = (s: PaceSecond) => expected > 0 && s.sec >= MIN_RATE_SEC && rate(s) < T.stallRateShare * expected;
  const out: Stall[] = [];
  let i = 0;
  while (i < secs.length) {
    if (!behind(secs[i]) && !dip(secs[i])) {
      i++;
      continue;
    }
    let j = i;
    while (j < secs.length && (behind(secs[j]) || dip(secs[j]) || (j > i && secs[j].sec < MIN_RATE_SEC))) j++;
    const run = secs.slice(i, j);
    const dips = run.filter(dip).length;
    const blocked = run.some((s) => s.sec >= MIN_RATE_SEC && rate(s) < T.stallBlockedShare * expected);
    const counted = j < secs.length ? run.some(behind) || dips >= T.stallDipSeconds : dips >= T.stallDipSeconds && blocked;
    // How far behind the writers were before it: the least of the three seconds before (the last may be half in it).
    const before = Math.min(...secs.slice(Math.max(0, i - 3), i).map((s) => s.behindMs ?? 0), run[0].behindMs ?? 0);
    if (counted) out.push(stallOf(run, secs.slice(j), expected, before));
    i = j;
  }
  return out.sort((a, b) => b.seconds - a.seconds).slice(0, 3);
}

function stallOf(run: PaceSecond[], after: PaceSecond[], expected: number, behindBeforeMs: number): Stall {
  const rate = (s: PaceSecond) => (s.sec > 0 ? s.done / s.sec : 0);
  const slow = (s: PaceSecond) => s.sec >= MIN_RATE_SEC && rate(s) < PACE_THRESHOLDS.stallRateShare * expected;
  // The blocked part: from the first slow second to the last (the whole run when no second was slow: a run of
  // seconds behind schedule at a normal rate). The seconds after it above the expected rate are its catch-up.
  const first = run.findIndex(slow);
  const last = first < 0 ? run.length - 1 : run.length - 1 - [...run].reverse().findIndex(slow);
  const start = run[Math.max(first, 0)];
  const end = run[last];
  const rest = [...run.slice(last + 1), ...after];
  const catchUp: PaceSecond[] = [];
  for (const s of rest) {
    if (s.sec >= MIN_RATE_SEC && rate(s) <= CATCH_UP_RATE * expected) break;
    catchUp.push(s);
  }
  const behindAfter = after.filter((s) => s.behindMs !== undefined);
  const measured = run.filter((s) => s.behindMs !== undefined);
  const maxBehindMs = measured.length ? Math.max(0, ...measured.map((s) => s.behindMs!)) : undefined;
  return {
    startSec: start.t,
    // Whole seconds undercount a stall that straddles two of them; how much further behind schedule it put the
    // writers is its length at least (nothing was done meanwhile).
    seconds: Math.max(end.t + end.sec - start.t, ((maxBehindMs ?? 0) - behindBeforeMs) / 1000),
    maxBehindMs,
    minRate: Math.min(...run.map(rate)),
    expectedRate: expected,
    catchUpSeconds: catchUp.reduce((a, s) => a + s.sec, 0),
    catchUpPeakRate: Math.max(0, ...catchUp.filter((s) => s.sec >= MIN_RATE_SEC).map(rate)),
    // Back on schedule before the window ended: a later second measured less than stallBehindMs behind. Not
    // known when no later second measured it (an unpaced run, or one whose lag is not measured): not claimed.
    ...(after.length === 0
      ? { caughtUp: false }
      : behindAfter.length
        ? { caughtUp: behindAfter.some((s) => (s.behindMs ?? 0) < PACE_THRESHOLDS.stallBehindMs) }
        : {}),
  };
}

/** A second counts toward a catch-up while its rate is above the expected rate by this factor. */
const CATCH_UP_RATE = 1.05;

/** The pace of the measured window, as the engine (or the live page) hands it to the verdict. */
export interface PaceInput {
  spec: PaceSpec;
  /** The paced operation's rate over the window, per second. */
  achievedPerSec: number;
  facts?: PaceFacts;
  /** Writes and reads per second over the window (consumers behind), unread at the end of the drain, e2e p50. */
  writePerSec?: number;
  readPerSec?: number;
  unreadAtEnd?: number;
  e2eP50Ms?: number;
  /** The paced operation's from-schedule latency p99 over the window, ms. */
  fromScheduleP99Ms?: number;
  /** The consumers' polls over the window (a workload with consumers: PaceSpec.consumer). */
  consumers?: ConsumerPolls;
}

/** The consumers' polls over a window, as their latencies timed them. */
export interface ConsumerPolls {
  /** Reader connections (all groups). */
  readers: number;
  /** Claims (polls, empty or not) per second, all readers. */
  claimsPerSec: number;
  /** A claim's round trips, ms on average: the claim, and the read with its commit when it returned items. */
  msPerClaim: number;
  /** Items a non-empty claim returned, on average. */
  itemsPerClaim: number;
}
