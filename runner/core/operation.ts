// One operation's recorder (./stats.ts RunStats keeps them by name): its counts per interval, measured window
// and run, and its latency histograms. Every operation is one of these, the broker's write and read as much as a
// cache's "get" (workloads/types.ts OperationDef): no name is reserved. It times itself (`send` … `answered`), so a
// workload marks where its statement starts and ends and never reads a clock; nothing here allocates per call.
import { newHistogram, recordMicros } from "../../lib/measurement/histogram";
import type { Slot } from "./pacing";
import { clock } from "./timing";

/** Interval + cumulative + report histogram for one latency. */
export class Recorder {
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

export interface Counts {
  count: number;
  /** The calls that recorded `count`: a pub/sub write's transaction of B messages, a poll's rows (one per call). */
  batches: number;
  errors: number;
  /** The operation's declared counters (OperationOptions.counters), in their order. */
  counters: number[];
}
export const zero = (counters: number): Counts => ({ count: 0, batches: 0, errors: 0, counters: new Array(counters).fill(0) });
export const addInto = (a: Counts, b: Counts) => {
  a.count += b.count;
  a.batches += b.batches;
  a.errors += b.errors;
  for (let i = 0; i < b.counters.length; i++) a.counters[i] += b.counters[i];
};
export const reset = (c: Counts) => {
  c.count = c.batches = c.errors = 0;
  c.counters.fill(0);
};

/** How an operation is kept, given when it is first declared (RunStats.op, RunStats.perGroup). */
export interface OperationOptions {
  /** False: only timed (a claim, a delivery), never counted: its count in samples is its latency samples'. */
  counted?: boolean;
  /** Further counts kept with its rate, by their stored key (OperationDef.counters: a read's "emptyPolls"). */
  counters?: readonly string[];
  /** Per group: what this operation drains. `operation`: the run-wide one whose items it consumes, so a group's
   *  backlog is what that one counted less what this one did in the group (messages written but not yet read, as
   *  the reference's QueueDepth). `idle`: its counter of polls that found nothing (RunStats.drainProgress). */
  drains?: { operation: string; idle?: string };
}

/** One further count of an operation (OperationOptions.counters), kept apart so a loop adds to it without a lookup. */
export class Counter {
  constructor(
    private readonly op: Operation,
    private readonly at: number,
  ) {}
  add(n = 1) {
    this.op.interval.counters[this.at] += n;
    this.op.total.counters[this.at] += n;
  }
}

/**
 * One declared operation: its counts (this interval, the measured window, the whole run) and its latency. A loop
 * marks the operation's send (`send()`, a clock reading) and its answer (`answered(sent)`), which counts it and
 * records its latency from the send and, with the pacer's slot, from its schedule; a failure is `failed(n)`. A
 * delivery only the workload sees (a message's end-to-end time from the stamp it carries) is `span(from, to)`.
 */
export class Operation {
  readonly latency = new Recorder();
  readonly interval: Counts;
  readonly measured: Counts;
  readonly total: Counts;
  /** Since the CLI's last live line. */
  reportCount = 0;
  readonly counted: boolean;
  readonly counterKeys: readonly string[];

  constructor(
    readonly name: string,
    options: OperationOptions = {},
  ) {
    this.counted = options.counted ?? true;
    this.counterKeys = options.counters ?? [];
    const n = this.counterKeys.length;
    [this.interval, this.measured, this.total] = [zero(n), zero(n), zero(n)];
  }

  /** The operation is sent now: the clock reading (ms) its latency starts from. */
  send(): number {
    return clock();
  }

  /**
   * The operation sent at `sent` was answered now: counts `n` items in one batch (`batches` 0: a row counted with
   * its batch's first), records the latency from `sent` and, given the pacer's slot, from the slot's schedule (the
   * pacer's ScheduleRecorder), where `scheduleSent` is when the paced item left (before a BEGIN that `sent` is
   * after). Returns the answer's clock reading.
   */
  answered(sent: number, n = 1, slot?: Slot, scheduleSent = sent, batches = 1): number {
    const done = clock();
    this.latency.record((done - sent) * 1000);
    this.done(n, batches);
    slot?.answered(scheduleSent, done);
    return done;
  }

  /** Times the operation from `sent` to now without counting it (a claim, a pool wait); returns now. */
  timed(sent: number): number {
    const done = clock();
    this.latency.record((done - sent) * 1000);
    return done;
  }

  /** Records a latency from `from` to `to` (clock ms) for `n` items: a delivery's end-to-end time, which only the
   *  workload sees (the stamp a message carries to its reader), or a unit timed from its schedule. */
  span(from: number, to: number, n = 1) {
    this.latency.record((to - from) * 1000, n);
  }

  /** `n` operations (or items) done, in `batches` batches (a search's rows of one query: `done(rows)`). */
  done(n = 1, batches = 1) {
    this.interval.count += n;
    this.interval.batches += batches;
    this.total.count += n;
    this.reportCount += n;
  }

  failed(n = 1) {
    this.interval.errors += n;
    this.total.errors += n;
  }

  /** A declared further count (OperationOptions.counters), to add to without a lookup. */
  counter(key: string): Counter {
    const at = this.counterKeys.indexOf(key);
    if (at < 0) throw new Error(`operation "${this.name}" declares no counter "${key}" (it has: ${this.counterKeys.join(", ") || "none"})`);
    return new Counter(this, at);
  }
}

/** One consumer group's operations (pub/sub fan-out: each reads every message; the queue's single "queue"). */
export class GroupStats {
  readonly ops = new Map<string, Operation>();
  constructor(readonly name: string) {}
  /** A per-group operation of this group, by name (RunStats.perGroup declares it in every group). */
  op(name: string): Operation {
    const o = this.ops.get(name);
    if (!o) throw new Error(`"${name}" is not a per-group operation of this run (RunStats.perGroup declares one)`);
    return o;
  }
}
