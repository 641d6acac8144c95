// What the workload loops record into, and how it becomes one sample per second and the summary.
//
// Pattern from openmessaging/benchmark's WorkerStats: every latency goes into an *interval* HDR histogram
// only (one record per event, no double bookkeeping in the hot path). Once a second the engine calls
// `tick()`, which reads the interval histograms for the live sample, adds them into the *cumulative*
// histograms if the interval belonged to the measured window (warm-up and drain are excluded), and resets
// them. Counters work the same way. Memory is fixed: a few histograms per operation and consumer group, no
// per-message arrays, so a 10-minute run holds as much as a 10-second one.
//
// Every operation is an Operation (./operation.ts) by its declared name, with no name reserved: run-wide
// (`op`) or kept per consumer group (`perGroup`: pub/sub's reads, claims and deliveries, each group's own).
import { newHistogram, percentilesOf, type Histogram } from "../../lib/measurement/histogram";
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
import { addInto, type Counts, GroupStats, Operation, type OperationOptions, reset, zero } from "./operation";
import { Span, type SpanEntry } from "./span";

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
  /** Stretches of the timeline kept apart (./span.ts): each takes the seconds cut inside it. */
  private readonly spans: Span[] = [];

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
  /** The per-group operation that consumes what the run writes (its backlog's drain), when one does. */
  drainingOperation(): string | undefined {
    return this.drained?.by;
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

  /** A stretch of the timeline from `fromMs` to `toMs` (clock ms) whose seconds are kept apart as they are cut. */
  span(fromMs: number, toMs: number): Span {
    const s = new Span(fromMs, toMs);
    this.spans.push(s);
    return s;
  }

  /** A span's figures: its operations' counts and rates and the percentiles of their merged latencies. */
  spanFigures(s: Span): Operations {
    return s.figures((ops, name, h, sec) => this.putLatency(ops, name, percentilesOf(h), sec));
  }

  /** Ends the current interval. Folds it into the measured totals if `phase` is "measuring". */
  tick(phase: Phase): SampleMetrics {
    const now = this.clock();
    const intervalSec = Math.max((now - this.lastTick) / 1000, 1e-6);
    this.lastTick = now;
    const measured = phase === "measuring";
    if (measured) this.measuredSec += intervalSec;
    const spans = this.spans.filter((s) => s.holds(now, intervalSec));
    if (spans.length) {
      const entries = this.spanEntries();
      for (const s of spans) s.take(entries, now, intervalSec);
    }
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
    if (this.drained) for (const s of spans) s.backlogAtEnd(this.maxBacklog());
    return {
      elapsedSec: (now - this.startedAt) / 1000,
      intervalSec,
      operations: ops,
      ...(groups.length ? { groups } : {}),
      measures: groups.length ? { backlog: Math.max(...groups.map((g) => g.measures?.backlog ?? 0)) } : {},
      errors,
    };
  }

  /** This interval's counts and latencies as a span takes them (before the roll resets them): every operation, and
   *  each per-group one summed and merged over the groups. The histograms are the recorders' own: a span copies them. */
  private spanEntries(): SpanEntry[] {
    const entries: SpanEntry[] = [];
    for (const o of this.ops.values())
      entries.push({ name: o.name, counted: this.countsOf(o), count: o.interval.count, errors: o.interval.errors, latency: o.latency.interval });
    for (const name of this.groupOps) {
      const sum = this.groupCounts(name, (o) => o.interval);
      // One group: its own interval histogram, which the span copies as it takes it. Several: merged into the shared
      // scratch, which the next name reuses, so copied here.
      const h = this.mergedOverGroups(name, "interval");
      const latency = this.groups.length === 1 ? h : newHistogram();
      if (latency !== h) latency.add(h);
      entries.push({ name, counted: sum !== null, count: sum?.count ?? 0, errors: sum?.errors ?? 0, latency });
    }
    return entries;
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
