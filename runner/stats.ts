// What the workload loops record into, and how it becomes one sample per second and the summary.
//
// Pattern from openmessaging/benchmark's WorkerStats: every latency goes into an *interval* HDR histogram
// only (one record per event, no double bookkeeping in the hot path). Once a second the engine calls
// `tick()`, which reads the interval histograms for the live sample, adds them into the *cumulative*
// histograms if the interval belonged to the measured window (warm-up and drain are excluded), and resets
// them. Counters work the same way. Memory is fixed: a few histograms per operation and consumer group, no
// per-message arrays, so a 10-minute run holds as much as a 10-second one.
//
// Every operation is an Operation (runner/operation.ts) by its declared name, with no name reserved: run-wide
// (`op`) or kept per consumer group (`perGroup`: pub/sub's reads, claims and deliveries, each group's own).
import { newHistogram, percentilesOf, type Histogram } from "../lib/measurement/histogram";
import { encodeHistogram } from "../lib/measurement/histogram";
import {
  type GroupFigures,
  type LatencyByMetric,
  type LatencyKind,
  type LatencyStats,
  latencyAddress,
  type OperationFigures,
  type Operations,
  type Phase,
} from "../lib/measurement/metrics";
import type { SampleMetrics } from "../lib/measurement/sample";
import type { Histograms } from "../lib/measurement/summary";
import { addInto, type Counts, GroupStats, Operation, type OperationOptions, reset, zero } from "./operation";

export { Counter, GroupStats, Operation, type OperationOptions, Recorder } from "./operation";

/** The histogram of a paced operation's lag behind its loop's share of the throttle (metrics.ts latencyAddress). */
const WRITER_LAG = "writerLag";

export interface Report {
  elapsedSec: number;
  intervalSec: number;
  phase: Phase;
  writesPerSec: number;
  readsPerSec: number;
  backlog: number;
  errors: number;
  latencyMs: LatencyByMetric;
  /** Declared operations' rates since the previous report, by name. */
  rates: Record<string, number>;
  /** The runner's own load since the previous report (filled by the engine from its samples). */
  runnerLoad?: { loopDelayMaxMs: number; cpuCores: number; clientBound: boolean };
}

/** All counters and histograms of one run. Single-threaded (Node's event loop), so no locking. */
export class RunStats {
  readonly groups: GroupStats[];
  /** Run-wide operations, in the order declared. */
  private readonly ops = new Map<string, Operation>();
  /** Per-group operations' names, in the order declared, and the run-wide one each drains (its backlog). */
  private readonly groupOps: string[] = [];
  private drained: { from: string; by: string; idle?: string } | null = null;
  /** Error messages: first time seen per interval goes into the sample; bounded so memory stays flat. */
  private seenErrors = new Map<string, number>();
  private intervalErrors: string[] = [];
  private lastTick: number;
  private lastReport: number;
  readonly startedAt: number;
  private measuredSec = 0;
  /** Reused for merging groups' interval histograms every tick (no allocation per second). */
  private readonly scratch = newHistogram();

  constructor(
    groupNames: readonly string[],
    private readonly payloadBytes: number,
    private readonly clock: () => number,
  ) {
    this.groups = groupNames.map((g) => new GroupStats(g));
    this.startedAt = this.lastTick = this.lastReport = clock();
  }

  /** A run-wide operation by its name, declared on first use with `options` (so a loop just calls it). */
  op(name: string, options?: OperationOptions): Operation {
    let o = this.ops.get(name);
    if (o) return o;
    if (this.groupOps.includes(name)) throw new Error(`"${name}" is a per-group operation of this run (RunStats.perGroup), not a run-wide one`);
    this.ops.set(name, (o = new Operation(name, options)));
    return o;
  }

  /** An operation kept per consumer group, declared in every group on first use: one Operation per group, in the
   *  groups' order. A run without groups has none of it. */
  perGroup(name: string, options: OperationOptions = {}): Operation[] {
    if (this.ops.has(name)) throw new Error(`"${name}" is a run-wide operation of this run, not a per-group one`);
    if (!this.groupOps.includes(name)) {
      this.groupOps.push(name);
      for (const g of this.groups) g.ops.set(name, new Operation(name, options));
      if (options.drains) this.drained = { from: options.drains.operation, by: name, idle: options.drains.idle };
    }
    return this.groups.map((g) => g.op(name));
  }

  /** The run-wide operations used so far, by name. */
  operations(): ReadonlyMap<string, Operation> {
    return this.ops;
  }

  /** The per-group operations' names, in the order declared. */
  groupOperations(): readonly string[] {
    return this.groupOps;
  }

  /** Restarts the clocks when the load actually starts (set-up time is not in any interval); a part of a run over
   *  several processes gives the start barrier's instant, so its seconds are cut where every part's are. */
  markLoadStart(now = this.clock()) {
    (this as { startedAt: number }).startedAt = now;
    this.lastTick = this.lastReport = now;
  }

  /** Messages whose e2e stamp could not be read (workloads/types.ts stampOfHex): counted, noted, never a sample. */
  unreadableStamps = 0;
  unreadableStamp(n: number) {
    this.unreadableStamps += n;
    this.noteError("e2e: a payload's time stamp could not be read (not bytea hex text, or not a clock reading of this run); left out of e2e latency");
  }

  /** Tests watch every paced item answered through this: its due time, when it was sent, when it ended (clock ms). */
  onScheduledWrite?: (due: number, sent: number, done: number) => void;
  /** Paced items sent before their due time: a bug of the pacer, never a latency (see recordScheduled). */
  sentEarly = 0;

  /**
   * Records a paced item's latency from schedule, `done - due`, as `<operation>Scheduled` (the pacer's
   * ScheduleRecorder; `operation` is the one its pacing admits). The item was sent at `sent`; its service latency
   * starts at or after `sent`, so from-schedule ≥ service holds whenever sent ≥ due, which the pacer guarantees
   * (timing.ts sleepUntil). An item sent early is counted and noted as an error, and left out of the histogram,
   * rather than recorded as a clamped 1 µs. `writerLagMs`: under a throttle, how far its loop is behind its share.
   */
  recordScheduled(due: number, sent: number, done: number, writerLagMs?: number, operation = "write") {
    this.onScheduledWrite?.(due, sent, done);
    const scheduled = this.scheduledOf(operation);
    if (writerLagMs !== undefined) this.recordWriterLag(writerLagMs);
    if (sent < due) {
      this.sentEarly++;
      this.noteError(`internal: a throttled write was sent before its scheduled time; its latency from schedule is left out`);
      return;
    }
    scheduled.latency.record((done - due) * 1000);
  }

  /** The paced operation's `<op>Scheduled`, kept at hand: the pacer records one for every item it paced, and
   *  building its name for each would allocate on the hot path. */
  private scheduled: { of: string; op: Operation } | null = null;
  private scheduledOf(operation: string): Operation {
    if (this.scheduled?.of !== operation) this.scheduled = { of: operation, op: this.op(`${operation}Scheduled`) };
    return this.scheduled.op;
  }

  /** How far a paced loop is behind its share of the throttle (ms), into the run's writer-lag histogram. */
  recordWriterLag(ms: number) {
    if (!this.writerLag) {
      // After its operation's latency from schedule, so a summary lists their kinds in one order whichever comes first.
      this.scheduledOf(latencyAddress(WRITER_LAG).operation);
      this.writerLag = this.op(WRITER_LAG);
    }
    this.writerLag.latency.record(ms * 1000);
  }
  private writerLag: Operation | undefined;

  /** Notes an error message (deduplicated; at most 10 new ones per sample). */
  noteError(message: string) {
    const msg = message.split("\n")[0].slice(0, 300);
    const n = this.seenErrors.get(msg);
    if (n !== undefined) {
      this.seenErrors.set(msg, n + 1);
      return;
    }
    if (this.seenErrors.size < 200) this.seenErrors.set(msg, 1);
    if (this.intervalErrors.length < 10) this.intervalErrors.push(msg);
  }

  /** Distinct error messages with how often each occurred (first 200 distinct). */
  errorCounts(): { message: string; count: number }[] {
    return [...this.seenErrors].map(([message, count]) => ({ message, count }));
  }

  /** Items a group has yet to consume: what the drained operation counted less what the group's drain did
   *  (runner's own counters, as the reference's QueueDepth); clamped at 0, unless `own` (a part's contribution). */
  backlogOf(g: GroupStats, own = false) {
    if (!this.drained) return 0;
    const n = (this.ops.get(this.drained.from)?.total.count ?? 0) - g.op(this.drained.by).total.count;
    return own ? n : Math.max(0, n);
  }
  maxBacklog() {
    return this.groups.reduce((m, g) => Math.max(m, this.backlogOf(g)), 0);
  }

  /** What the groups' draining operation did over the run: items consumed, and polls that found nothing (its
   *  declared idle counter): the engine's drain ends when neither moves. Zeros when no group drains anything. */
  drainProgress(): { consumed: number; idlePolls: number } {
    const d = this.drained;
    if (!d) return { consumed: 0, idlePolls: 0 };
    let consumed = 0;
    let idlePolls = 0;
    for (const g of this.groups) {
      const o = g.op(d.by);
      consumed += o.total.count;
      if (d.idle) idlePolls += o.total.counters[o.counterKeys.indexOf(d.idle)];
    }
    return { consumed, idlePolls };
  }

  /** Ends the current interval. Folds it into the measured totals if `phase` is "measuring". */
  tick(phase: Phase): SampleMetrics {
    const now = this.clock();
    const intervalSec = Math.max((now - this.lastTick) / 1000, 1e-6);
    this.lastTick = now;
    const measured = phase === "measuring";
    if (measured) this.measuredSec += intervalSec;
    const ops: Operations = {};
    for (const o of this.ops.values()) {
      if (this.countsOf(o)) ops[o.name] = { ...this.figures(o, o.interval, intervalSec), latency: ops[o.name]?.latency ?? {} };
      if (o.latency.interval.totalCount) this.putLatency(ops, o.name, percentilesOf(o.latency.interval), intervalSec);
      this.roll(o, measured);
    }
    const groups: GroupFigures[] = this.groups.map((g) => ({ group: g.name, operations: {} }));
    for (const name of this.groupOps) {
      const sum = this.groupCounts(name, (o) => o.interval);
      if (sum) {
        ops[name] = this.figures(this.groups[0].op(name), sum, intervalSec);
        this.groups.forEach((g, i) => {
          groups[i].operations[name] = this.figures(g.op(name), g.op(name).interval, intervalSec);
        });
      }
      // Overall interval percentiles of a per-group latency come from the groups' merged interval histograms.
      const h = this.mergedOverGroups(name, "interval");
      if (h.totalCount) this.putLatency(ops, name, percentilesOf(h), intervalSec);
      for (const g of this.groups) this.roll(g.op(name), measured);
    }
    if (this.drained) for (const [i, g] of this.groups.entries()) groups[i].measures = { backlog: this.backlogOf(g) };
    const errors = this.intervalErrors;
    this.intervalErrors = [];
    return {
      elapsedSec: (now - this.startedAt) / 1000,
      intervalSec,
      operations: ops,
      ...(groups.length ? { groups } : {}),
      measures: groups.length ? { backlog: Math.max(...groups.map((g) => g.measures?.backlog ?? 0)) } : {},
      errors,
    };
  }

  /** Ends an operation's interval: its counts into the measured window's if measured, its latency histograms. */
  private roll(o: Operation, measured: boolean) {
    if (measured) addInto(o.measured, o.interval);
    reset(o.interval);
    o.latency.roll(measured);
  }

  /** Whether an operation has counts of its own in samples: counted, and timed from its send (a `<op>Scheduled`
   *  or the writer lag is a latency of another operation). */
  private countsOf(o: Operation): boolean {
    return o.counted && latencyAddress(o.name).kind === "fromSend";
  }

  /** A per-group operation's counts summed over the groups (`which` of each), or null when it is not counted. */
  private groupCounts(name: string, which: (o: Operation) => Counts): Counts | null {
    const first = this.groups[0]?.op(name);
    if (!first || !this.countsOf(first)) return null;
    const sum = zero(first.counterKeys.length);
    for (const g of this.groups) addInto(sum, which(g.op(name)));
    return sum;
  }

  /** A per-group latency's histogram of `which` kind, merged over the groups (the one group's own when one). */
  private mergedOverGroups(name: string, which: "interval" | "cumulative" | "report"): Histogram {
    if (this.groups.length === 1) return this.groups[0].op(name).latency[which];
    const merged = this.scratch;
    merged.reset();
    for (const g of this.groups) merged.add(g.op(name).latency[which]);
    return merged;
  }

  /** One operation's counts over `sec` seconds (payload bytes when the run has a payload; its declared counters). */
  private figures(o: Operation, c: Counts, sec: number): OperationFigures {
    const out: OperationFigures = { count: c.count, perSecond: c.count / sec, errors: c.errors, latency: {} };
    // Batches counted apart only where items went in batches (fewer batches than items): one item a call says nothing.
    if (c.batches > 0 && c.batches < c.count) out.batches = c.batches;
    if (this.payloadBytes > 0) out.bytes = c.count * this.payloadBytes;
    if (o.counterKeys.length) out.counters = Object.fromEntries(o.counterKeys.map((k, i) => [k, c.counters[i]]));
    return out;
  }

  /** Puts a latency under its operation and kind (metrics.ts latencyAddress); an operation only timed (claim, e2e)
   *  is counted by its latency samples. */
  private putLatency(ops: Operations, name: string, s: LatencyStats, sec: number) {
    const { operation, kind } = latencyAddress(name);
    ops[operation] ??= { count: s.count, perSecond: s.count / sec, errors: 0, latency: {} };
    ops[operation].latency[kind] = s;
  }

  /**
   * The measured window's figures for the summary: each operation's counts over `seconds` and percentiles of its
   * cumulative histogram, per consumer group the same, the histograms themselves (base64, by operation and kind),
   * and each counted operation's whole-run count.
   */
  windowFigures(seconds: number): {
    operations: Operations;
    groups: (GroupFigures & { histograms?: Histograms })[];
    histograms: Histograms;
    totals: Record<string, number>;
  } {
    const sec = seconds > 0 ? seconds : Number.POSITIVE_INFINITY;
    const ops: Operations = {};
    const histograms: Histograms = {};
    const put = (into: Operations, hs: Histograms, name: string, h: Histogram) => {
      if (!h.totalCount) return;
      this.putLatency(into, name, percentilesOf(h), sec);
      const { operation, kind } = latencyAddress(name);
      (hs[operation] ??= {})[kind as LatencyKind] = encodeHistogram(h);
    };
    const totals: Record<string, number> = {};
    for (const o of this.ops.values()) {
      if (this.countsOf(o)) {
        ops[o.name] = { ...this.figures(o, o.measured, sec), latency: ops[o.name]?.latency ?? {} };
        totals[o.name] = o.total.count;
      }
    }
    for (const name of this.groupOps) {
      const sum = this.groupCounts(name, (o) => o.measured);
      if (!sum) continue;
      ops[name] = this.figures(this.groups[0].op(name), sum, sec);
      totals[name] = this.groups.reduce((n, g) => n + g.op(name).total.count, 0);
    }
    for (const o of this.ops.values()) put(ops, histograms, o.name, o.latency.cumulative);
    for (const name of this.groupOps) put(ops, histograms, name, this.cumulative(name));
    const groups = this.groups.map((g) => {
      const gops: Operations = {};
      const gh: Histograms = {};
      for (const name of this.groupOps) {
        const o = g.op(name);
        if (this.countsOf(o)) gops[name] = this.figures(o, o.measured, sec);
      }
      for (const name of this.groupOps) put(gops, gh, name, g.op(name).latency.cumulative);
      return { group: g.name, operations: gops, ...(this.groups.length > 1 ? { histograms: gh } : {}) };
    });
    return { operations: ops, groups, histograms, totals };
  }

  /** Rates and percentiles since the previous report (the CLI's live line), from merged histograms. */
  report(phase: Phase): Report {
    const now = this.clock();
    const intervalSec = Math.max((now - this.lastReport) / 1000, 1e-6);
    this.lastReport = now;
    const latencyMs: LatencyByMetric = {};
    const rates: Record<string, number> = {};
    let errors = 0;
    for (const o of this.ops.values()) {
      const h = o.latency.report;
      if (h.totalCount) latencyMs[o.name] = percentilesOf(h);
      h.reset();
      if (this.countsOf(o)) rates[o.name] = o.reportCount / intervalSec;
      o.reportCount = 0;
      errors += o.total.errors;
    }
    for (const name of this.groupOps) {
      const h = this.mergedOverGroups(name, "report");
      if (h.totalCount) latencyMs[name] = percentilesOf(h);
      let n = 0;
      for (const g of this.groups) {
        const o = g.op(name);
        n += o.reportCount;
        o.reportCount = 0;
        o.latency.report.reset();
        errors += o.total.errors;
      }
      if (this.countsOf(this.groups[0].op(name))) rates[name] = n / intervalSec;
    }
    return {
      elapsedSec: (now - this.startedAt) / 1000,
      intervalSec,
      phase,
      // The live line's W and R: the broker's write and read, where the workload declares them.
      writesPerSec: rates.write ?? 0,
      readsPerSec: rates.read ?? 0,
      backlog: this.maxBacklog(),
      errors,
      latencyMs,
      rates,
    };
  }

  /** Sum of the real lengths of the intervals that were ticked as "measuring". */
  measuredSeconds() {
    return this.measuredSec;
  }

  /** Cumulative (measured-window) histogram of a latency by its name: a run-wide operation's, or a per-group one's
   *  merged over the groups; empty for an operation never used. */
  cumulative(name: string): Histogram {
    const o = this.ops.get(name);
    if (o) return o.latency.cumulative;
    const merged = newHistogram();
    if (this.groupOps.includes(name)) for (const g of this.groups) merged.add(g.op(name).latency.cumulative);
    return merged;
  }
}

/**
 * Writers behind schedule by more than this (seconds) get a note. On schedule, a write ends at most one write
 * latency (milliseconds) after its scheduled time; half a second behind is a stall or a throttle the writers
 * cannot reach, never noise.
 */
export const BEHIND_SCHEDULE_NOTE_SECONDS = 0.5;
/**
 * Writing above the throttle gets a note when a second (or the whole window) wrote more than this fraction above
 * the schedule, beyond what was in flight. A pause of a few milliseconds (a GC, a busy event loop) is caught up
 * by a handful of messages, well under 5%; a stall long enough to matter is caught up by more.
 */
export const OVER_LIMIT_NOTE_FRACTION = 0.05;
/**
 * The measured window's write rate under this share of the throttle gets a note, when the shortfall is also more
 * than BEHIND_SCHEDULE_NOTE_SECONDS of the schedule (plus the batches in flight): as with falling behind, less than
 * half a second's worth is noise of a short window (a 2 s window ending 0.1 s behind is 5% short), never a finding.
 */
export const UNDER_LIMIT_NOTE_SHARE = 0.95;
/** Intervals shorter than this (a phase's last partial one) are too short to give a rate worth quoting. */
const MIN_RATE_INTERVAL_SECONDS = 0.5;

const fmtSec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const fmtMsgs = (n: number) => Math.round(n).toLocaleString("en-US");

/**
 * Watches the measured window of a throttled run and says, in the run's notes, when the writers fell behind
 * schedule or caught up over the limit. "Behind schedule" is how long after its scheduled time a write ended
 * (what the writeScheduled latency measures) or, for a write still running, how long it is overdue.
 *
 * Catching up: the schedule never lets a write start before it is due, so in an interval of `sec` seconds the
 * writers can finish at most limit × sec messages plus those already started at its beginning (one batch per
 * writer) and one batch of rounding, `slackMessages`. More than that is catch-up of a backlog; it is noted when
 * it is more than OVER_LIMIT_NOTE_FRACTION of the schedule.
 */
export class ScheduleWatch {
  private maxBehindMs = 0;
  private endBehindMs = 0;
  private peak: { rate: number; sec: number } | null = null;
  private overLimit = false;
  /** Per writer: the furthest it fell behind its own share of the schedule (Throttle.writerLagMs). */
  private writerLagMaxMs: number[] = [];

  constructor(
    readonly limitPerSec: number,
    readonly slackMessages: number,
    /** The workload's own words: what a paced item is ("workflow"), its operation in plural ("enqueues"), who does it ("enqueuers"). */
    readonly words: { unit: string; items: string; doers: string } = { unit: "msg", items: "writes", doers: "writers" },
  ) {}

  /**
   * One measured interval: how far behind the writers were at its end (ms), the messages written in it, and how
   * far each writer was behind its own share of the schedule at its end (ms, by writer index).
   */
  interval(behindMs: number, written: number, sec: number, writerLagsMs: readonly number[] = []) {
    this.maxBehindMs = Math.max(this.maxBehindMs, behindMs);
    writerLagsMs.forEach((l, w) => {
      this.writerLagMaxMs[w] = Math.max(this.writerLagMaxMs[w] ?? 0, l);
    });
    this.endBehindMs = behindMs; // the last call is the window's end
    if (sec < MIN_RATE_INTERVAL_SECONDS) return;
    const rate = written / sec;
    if (!this.peak || rate > this.peak.rate) this.peak = { rate, sec };
    if (this.aboveLimit(written, sec)) this.overLimit = true;
  }

  private aboveLimit(written: number, sec: number) {
    return written > this.limitPerSec * sec * (1 + OVER_LIMIT_NOTE_FRACTION) + this.slackMessages;
  }

  /**
   * The notes for the measured window. `latestWriteMs`: the largest writeScheduled latency of the window (a
   * write that ended late between two intervals); `written`/`seconds`: the window's writes and real length.
   */
  notes(latestWriteMs: number, written: number, seconds: number): string[] {
    const limit = this.limitPerSec;
    const { unit, items, doers } = this.words;
    const doer = doers.replace(/s$/, "");
    const maxBehind = Math.max(this.maxBehindMs, latestWriteMs);
    const avg = seconds > 0 ? written / seconds : 0;
    const share = `${Math.round((100 * avg) / limit)}% of it`;
    const threshold = BEHIND_SCHEDULE_NOTE_SECONDS * 1000;
    const out: string[] = [];
    const shortfall = limit * seconds - written;
    const short =
      seconds >= MIN_RATE_INTERVAL_SECONDS &&
      shortfall > (1 - UNDER_LIMIT_NOTE_SHARE) * limit * seconds &&
      shortfall > BEHIND_SCHEDULE_NOTE_SECONDS * limit + this.slackMessages;
    if (this.endBehindMs > threshold)
      out.push(
        `${items} were ${fmtSec(this.endBehindMs)} behind schedule when the measured window ended, up to ${fmtSec(maxBehind)} during it (${doers} did not keep up with the ${fmtMsgs(limit)} ${unit}/s throttle: ${fmtMsgs(avg)} ${unit}/s achieved, ${share})`,
      );
    else {
      if (short)
        // Not behind, yet short of the throttle: writes that failed (they are not retried) or ended early.
        out.push(
          `${items} reached ${fmtMsgs(avg)} ${unit}/s over the measured window, ${Math.round((100 * avg) / limit)}% of the ${fmtMsgs(limit)} ${unit}/s throttle (under ${Math.round(UNDER_LIMIT_NOTE_SHARE * 100)}% of it, and not for being behind schedule at the window's end: failed writes are not retried, and count against it)`,
        );
      if (maxBehind > threshold)
        out.push(
          `${items} fell up to ${fmtSec(maxBehind)} behind schedule during the measured window and caught up by its end (${doers} stalled or slowed, then went faster than the throttle)`,
        );
    }
    if (this.overLimit || this.aboveLimit(written, seconds)) {
      const peak = this.peak ? `peak ${fmtMsgs(this.peak.rate)} ${unit}/s over ${this.peak.sec.toFixed(1)} s, ` : "";
      out.push(
        `${items} ran above the ${fmtMsgs(limit)} ${unit}/s throttle: ${peak}${fmtMsgs(avg)} ${unit}/s over the measured window (${doers} caught up after falling up to ${fmtSec(maxBehind)} behind schedule)`,
      );
    }
    // Some writers behind their own share while the rest kept theirs (and took their turns): part of the load
    // stalled, which the global schedule and rate hide. When every writer fell behind, the notes above say it.
    const lags = this.writerLagMaxMs;
    const behind = lags.filter((l) => l > threshold).length;
    if (behind > 0 && behind < lags.length) {
      const worst = lags.indexOf(Math.max(...lags));
      const who = behind === 1 ? `${doer} ${worst}` : `${behind} of ${lags.length} ${doers} (${doer} ${worst} the most)`;
      out.push(
        `${who} fell up to ${fmtSec(lags[worst])} behind ${behind === 1 ? "its" : "their"} own share of the schedule (${fmtMsgs(limit / lags.length)} ${unit}/s each) while the other ${doers} kept theirs and took the turns it missed, so the overall rate hides it: a stall of part of the load (a lock, a slow connection)`,
      );
    }
    return out;
  }
}
