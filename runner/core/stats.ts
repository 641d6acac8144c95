// What the workload loops record into, and how it becomes one sample per second and the summary.
//
// Pattern from openmessaging/benchmark's WorkerStats: every latency goes into an *interval* HDR histogram
// only (one record per event, no double bookkeeping in the hot path). Once a second the engine calls
// `tick()`, which reads the interval histograms for the live sample, adds them into the *cumulative*
// histograms if the interval belonged to the measured window (warm-up and drain are excluded), and resets
// them. Counters work the same way. Memory is fixed: a few histograms per consumer group, no per-message
// arrays, so a 10-minute run holds as much as a 10-second one.
import { newHistogram, percentilesOf, recordMicros, type Histogram } from "../../lib/measurement/histogram";
import { encodeHistogram } from "../../lib/measurement/histogram";
import {
  type GroupFigures,
  type Histograms,
  type LatencyByMetric,
  type LatencyKind,
  type LatencyStats,
  latencyAddress,
  type OperationFigures,
  type Operations,
  type Phase,
} from "../../lib/measurement/metrics";
import type { SampleMetrics } from "../../lib/measurement/sample";

/** Latencies recorded once for the whole run (writerLag: how far each writer is behind its share, see Throttle). */
export type RunMetric = "write" | "writeScheduled" | "writerLag";
const RUN_METRICS: readonly RunMetric[] = ["write", "writeScheduled", "writerLag"];
/** Latencies recorded per consumer group (queue: the single group "queue"). */
export type GroupMetric = "read" | "claim" | "e2e" | "e2eScheduled";
const GROUP_METRICS: readonly GroupMetric[] = ["read", "claim", "e2e", "e2eScheduled"];

/** Interval + cumulative + report histogram for one metric. */
class Recorder {
  readonly interval = newHistogram();
  readonly cumulative = newHistogram();
  /** Since the CLI's last live line (the report interval spans several ticks). */
  readonly report = newHistogram();

  record(micros: number, count = 1) {
    recordMicros(this.interval, micros, count);
  }

  /** Ends an interval: folds it into the cumulative histogram if measured, and into the report one. */
  roll(measured: boolean): void {
    const h = this.interval;
    if (!h.totalCount) return;
    if (measured) this.cumulative.add(h);
    this.report.add(h);
    h.reset();
  }
}

interface Counts {
  count: number;
  /** The calls that recorded `count`: a pub/sub write's transaction of B messages, a poll's rows (one per call). */
  batches: number;
  errors: number;
  emptyPolls: number;
}
const zero = (): Counts => ({ count: 0, batches: 0, errors: 0, emptyPolls: 0 });
const addInto = (a: Counts, b: Counts) => {
  a.count += b.count;
  a.batches += b.batches;
  a.errors += b.errors;
  a.emptyPolls += b.emptyPolls;
};

/** The broker's own metric names, counted by RunStats and GroupStats themselves: never an OpStats name. */
const BROKER_NAMES = new Set<string>([...RUN_METRICS, ...GROUP_METRICS]);

/**
 * An operation a workload declares (workloads/types.ts OperationDef) beyond the broker's write and read: a
 * cache's "get", a search's "query". Counted and timed by its name, so samples carry `rates[name]` and
 * `latencyMs[name]`, and the summary its measured rate, percentiles and histogram under the same name.
 */
export class OpStats {
  readonly latency = new Recorder();
  /** This interval / measured window / whole run. */
  readonly interval = zero();
  readonly measured = zero();
  readonly total = zero();
  /** Since the CLI's last live line. */
  reportCount = 0;

  /** `n` operations (or items) done, in one batch (a search's rows of one query). */
  done(n = 1) {
    this.interval.count += n;
    this.interval.batches++;
    this.total.count += n;
    this.reportCount += n;
  }
  failed(n = 1) {
    this.interval.errors += n;
    this.total.errors += n;
  }
}

export class GroupStats {
  readonly latency: Record<GroupMetric, Recorder> = { read: new Recorder(), claim: new Recorder(), e2e: new Recorder(), e2eScheduled: new Recorder() };
  /** This interval / measured window / whole run. */
  readonly interval = zero();
  readonly measured = zero();
  readonly total = zero();
  lastIntervalRate = 0;
  constructor(readonly name: string) {}

  /** A successful read (poll or dequeue) of `n` messages, in one batch. */
  read(n: number) {
    this.interval.count += n;
    this.interval.batches++;
    this.total.count += n;
  }
  readError() {
    this.interval.errors++;
    this.total.errors++;
  }
  emptyPoll() {
    this.interval.emptyPolls++;
    this.total.emptyPolls++;
  }
}

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
  readonly latency: Record<RunMetric, Recorder> = { write: new Recorder(), writeScheduled: new Recorder(), writerLag: new Recorder() };
  readonly writesInterval = zero();
  readonly writesMeasured = zero();
  readonly writesTotal = zero();
  /** Error messages: first time seen per interval goes into the sample; bounded so memory stays flat. */
  private seenErrors = new Map<string, number>();
  private intervalErrors: string[] = [];
  private lastTick: number;
  private lastReport: number;
  readonly startedAt: number;
  private measuredSec = 0;
  private reportWrites = 0;
  private reportReads = 0;
  private readonly ops = new Map<string, OpStats>();
  /** Reused for merging groups' interval histograms every tick (no allocation per second). */
  private readonly scratch = newHistogram();

  constructor(
    groupNames: string[],
    private readonly payloadBytes: number,
    private readonly clock: () => number,
  ) {
    this.groups = groupNames.map((g) => new GroupStats(g));
    this.startedAt = this.lastTick = this.lastReport = clock();
  }

  /** A declared operation's counters and latency, by its name (made on first use, so a loop just calls it). */
  op(name: string): OpStats {
    if (BROKER_NAMES.has(name)) throw new Error(`"${name}" is counted by the broker's own counters (wrote, groups' read): not an operation of its own`);
    let o = this.ops.get(name);
    if (!o) this.ops.set(name, (o = new OpStats()));
    return o;
  }

  /** The declared operations used so far, by name. */
  operations(): ReadonlyMap<string, OpStats> {
    return this.ops;
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

  /** Tests watch every throttled write through this: its due time, when it was sent, when it ended (clock ms). */
  onScheduledWrite?: (due: number, sent: number, done: number) => void;
  /** Throttled writes sent before their due time: a bug of the throttle, never a latency (see recordScheduled). */
  sentEarly = 0;

  /**
   * Records a throttled write's latency from schedule, `done - due`. The write was sent at `sent`; its service
   * latency (the write metric) starts at or after `sent`, so from-schedule ≥ service holds whenever sent ≥ due,
   * which the throttle guarantees (timing.ts sleepUntil). A write sent early is counted and noted as an error,
   * and left out of the histogram, rather than recorded as a clamped 1 µs.
   */
  recordScheduled(due: number, sent: number, done: number, writerLagMs?: number) {
    this.onScheduledWrite?.(due, sent, done);
    if (writerLagMs !== undefined) this.latency.writerLag.record(writerLagMs * 1000);
    if (sent < due) {
      this.sentEarly++;
      this.noteError(`internal: a throttled write was sent before its scheduled time; its latency from schedule is left out`);
      return;
    }
    this.latency.writeScheduled.record((done - due) * 1000);
  }

  /** `n` items written in `batches` batches: a pub/sub transaction of B messages is one; an insert benchmark's
   *  rows (each its own transaction) count their batch with its first row (`wrote(1, 1)`, then `wrote(1, 0)`). */
  wrote(n: number, batches = 1) {
    this.writesInterval.count += n;
    this.writesInterval.batches += batches;
    this.writesTotal.count += n;
  }
  writeError(n: number) {
    this.writesInterval.errors += n;
    this.writesTotal.errors += n;
  }

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

  /** Messages written but not yet read, per group (runner's own counters, as the reference's QueueDepth). */
  backlogOf(g: GroupStats) {
    return Math.max(0, this.writesTotal.count - g.total.count);
  }
  maxBacklog() {
    return this.groups.reduce((m, g) => Math.max(m, this.backlogOf(g)), 0);
  }

  /** Ends the current interval. Folds it into the measured totals if `phase` is "measuring". */
  tick(phase: Phase): SampleMetrics {
    const now = this.clock();
    const intervalSec = Math.max((now - this.lastTick) / 1000, 1e-6);
    this.lastTick = now;
    const measured = phase === "measuring";
    if (measured) this.measuredSec += intervalSec;
    const rate = (n: number) => n / intervalSec;
    const ops: Operations = {};
    if (this.writes()) ops.write = this.figures(this.writesInterval, intervalSec);
    if (measured) addInto(this.writesMeasured, this.writesInterval);
    const written = this.writesInterval.count;
    Object.assign(this.writesInterval, zero());

    const readsSum = zero();
    const groups: GroupFigures[] = this.groups.map((g) => {
      addInto(readsSum, g.interval);
      if (measured) addInto(g.measured, g.interval);
      g.lastIntervalRate = rate(g.interval.count);
      const read = this.figures(g.interval, intervalSec, true);
      Object.assign(g.interval, zero());
      return { group: g.name, operations: { read }, measures: { backlog: this.backlogOf(g) } };
    });
    if (this.groups.length) ops.read = this.figures(readsSum, intervalSec, true);

    // Overall interval percentiles of per-group metrics come from the merged interval histograms.
    for (const m of RUN_METRICS) {
      const h = this.latency[m].interval;
      if (h.totalCount) this.putLatency(ops, m, percentilesOf(h), intervalSec);
      this.latency[m].roll(measured);
    }
    for (const m of GROUP_METRICS) {
      let s: LatencyStats | undefined;
      if (this.groups.length === 1) {
        const h = this.groups[0].latency[m].interval;
        if (h.totalCount) s = percentilesOf(h);
      } else {
        const merged = this.scratch;
        merged.reset();
        for (const g of this.groups) merged.add(g.latency[m].interval);
        if (merged.totalCount) s = percentilesOf(merged);
      }
      if (s) this.putLatency(ops, m, s, intervalSec);
      for (const g of this.groups) g.latency[m].roll(measured);
    }
    for (const [name, o] of this.ops) {
      if (latencyAddress(name).kind === "fromSend") ops[name] = { ...this.figures(o.interval, intervalSec), latency: ops[name]?.latency ?? {} };
      if (measured) addInto(o.measured, o.interval);
      Object.assign(o.interval, zero());
      if (o.latency.interval.totalCount) this.putLatency(ops, name, percentilesOf(o.latency.interval), intervalSec);
      o.latency.roll(measured);
    }
    this.reportWrites += written;
    this.reportReads += readsSum.count;

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

  /** Whether the run has the broker's write counter: it has consumer groups, or something was written. */
  private writes(): boolean {
    return (
      this.groups.length > 0 ||
      this.writesTotal.count > 0 ||
      this.writesTotal.errors > 0 ||
      this.latency.write.cumulative.totalCount > 0 ||
      this.latency.write.report.totalCount > 0
    );
  }

  /** One operation's counts over `sec` seconds (payload bytes when the run has a payload; a read's empty polls). */
  private figures(c: Counts, sec: number, polls = false): OperationFigures {
    const out: OperationFigures = { count: c.count, perSecond: c.count / sec, errors: c.errors, latency: {} };
    // Batches counted apart only where items went in batches (fewer batches than items): one item a call says nothing.
    if (c.batches > 0 && c.batches < c.count) out.batches = c.batches;
    if (this.payloadBytes > 0) out.bytes = c.count * this.payloadBytes;
    if (polls) out.counters = { emptyPolls: c.emptyPolls };
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
   * and each operation's whole-run count.
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
    if (this.writes()) {
      ops.write = this.figures(this.writesMeasured, sec);
      totals.write = this.writesTotal.count;
    }
    if (this.groups.length) {
      const sum = zero();
      for (const g of this.groups) addInto(sum, g.measured);
      ops.read = this.figures(sum, sec, true);
      totals.read = this.groups.reduce((n, g) => n + g.total.count, 0);
    }
    for (const m of [...RUN_METRICS, ...GROUP_METRICS]) put(ops, histograms, m, this.cumulative(m));
    for (const [name, o] of this.ops) {
      if (latencyAddress(name).kind === "fromSend") {
        ops[name] = { ...this.figures(o.measured, sec), latency: ops[name]?.latency ?? {} };
        totals[name] = o.total.count;
      }
      put(ops, histograms, name, o.latency.cumulative);
    }
    const groups = this.groups.map((g) => {
      const gops: Operations = { read: this.figures(g.measured, sec, true) };
      const gh: Histograms = {};
      for (const m of GROUP_METRICS) put(gops, gh, m, g.latency[m].cumulative);
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
    for (const m of RUN_METRICS) {
      const h = this.latency[m].report;
      if (h.totalCount) latencyMs[m] = percentilesOf(h);
      h.reset();
    }
    for (const m of GROUP_METRICS) {
      const merged = this.scratch;
      merged.reset();
      for (const g of this.groups) {
        merged.add(g.latency[m].report);
        g.latency[m].report.reset();
      }
      if (merged.totalCount) latencyMs[m] = percentilesOf(merged);
    }
    const rates: Record<string, number> = {};
    for (const [name, o] of this.ops) {
      const h = o.latency.report;
      if (h.totalCount) latencyMs[name] = percentilesOf(h);
      h.reset();
      rates[name] = o.reportCount / intervalSec;
      o.reportCount = 0;
    }
    const out = {
      elapsedSec: (now - this.startedAt) / 1000,
      intervalSec,
      phase,
      writesPerSec: this.reportWrites / intervalSec,
      readsPerSec: this.reportReads / intervalSec,
      backlog: this.maxBacklog(),
      errors: this.writesTotal.errors + this.groups.reduce((s, g) => s + g.total.errors, 0) + [...this.ops.values()].reduce((s, o) => s + o.total.errors, 0),
      latencyMs,
      // The broker's counters by their operations' names too, so a live line can list every declared rate.
      rates: {
        ...(this.writes() ? { write: this.reportWrites / intervalSec } : {}),
        ...(this.groups.length ? { read: this.reportReads / intervalSec } : {}),
        ...rates,
      },
    };
    this.reportWrites = this.reportReads = 0;
    return out;
  }

  /** Sum of the real lengths of the intervals that were ticked as "measuring". */
  measuredSeconds() {
    return this.measuredSec;
  }

  /** Cumulative (measured-window) histogram of a metric: run-level, a declared operation's, or merged over groups. */
  cumulative(m: RunMetric | GroupMetric | (string & {})): Histogram {
    if ((RUN_METRICS as readonly string[]).includes(m)) return this.latency[m as RunMetric].cumulative;
    const o = this.ops.get(m);
    if (o) return o.latency.cumulative;
    const merged = newHistogram();
    if (!BROKER_NAMES.has(m)) return merged; // an operation never used: an empty histogram
    for (const g of this.groups) merged.add(g.latency[m as GroupMetric].cumulative);
    return merged;
  }
}
