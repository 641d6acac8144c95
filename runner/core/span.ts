// A stretch of a run's timeline whose figures are kept apart from the measured window's (a fault phase, the seconds
// before and after it: runner/phases/): the seconds the recorder cuts that lie wholly inside it, each operation's
// counts summed and its latencies' interval histograms merged (a percentile is never averaged), and each second's
// counts and backlog kept in order (what a recovery is read from). Declared before the seconds it covers, it fills as
// they are cut (./stats.ts RunStats.span).
import { newHistogram, percentilesOf, type Histogram } from "../../lib/measurement/histogram";
import type { Operations } from "../../lib/measurement/metrics";

/** How far a second may begin before a span's start and still count as inside it: the cuts' own timer jitter. None
 *  at its end: what comes right after a phase (a paused queue's workers draining hundreds of jobs within milliseconds
 *  of their resume) must not count in it. */
export const SPAN_SLACK_MS = 50;

/** One operation's interval as a span takes it: its counts, and its latency's interval histogram when it has one. */
export interface SpanEntry {
  name: string;
  counted: boolean;
  count: number;
  errors: number;
  latency?: Histogram;
}

/** One second of a span: its end (clock ms), length and each counted operation's count, and the backlog at its end. */
export interface SpanSecond {
  endMs: number;
  sec: number;
  counts: Record<string, number>;
  backlog?: number;
}

export class Span {
  seconds = 0;
  readonly perSecond: SpanSecond[] = [];
  private readonly counts = new Map<string, { count: number; errors: number }>();
  private readonly latency = new Map<string, Histogram>();

  constructor(
    /** From and to, clock ms: a second belongs to it when it lies wholly inside (SPAN_SLACK_MS before its start). */
    readonly fromMs: number,
    readonly toMs: number,
  ) {}

  /** Whether the interval that ended at `endMs` and lasted `sec` belongs here: a second that straddles an edge belongs
   *  to neither side (a burst of catching up just after a pause must not be counted in the pause). */
  holds(endMs: number, sec: number): boolean {
    return endMs - sec * 1000 >= this.fromMs - SPAN_SLACK_MS && endMs <= this.toMs;
  }

  /** Adds one interval (the recorder's, before it resets it). */
  take(entries: readonly SpanEntry[], endMs: number, sec: number) {
    this.seconds += sec;
    const counts: Record<string, number> = {};
    for (const e of entries) {
      if (e.counted) {
        const c = this.counts.get(e.name) ?? { count: 0, errors: 0 };
        c.count += e.count;
        c.errors += e.errors;
        this.counts.set(e.name, c);
        counts[e.name] = e.count;
      }
      if (e.latency?.totalCount) {
        let h = this.latency.get(e.name);
        if (!h) this.latency.set(e.name, (h = newHistogram()));
        h.add(e.latency);
      }
    }
    this.perSecond.push({ endMs, sec, counts });
  }

  /** The backlog at the end of the last second taken (the recorder knows it only once the second is cut). */
  backlogAtEnd(backlog: number | undefined) {
    const last = this.perSecond.at(-1);
    if (last && backlog !== undefined) last.backlog = backlog;
  }

  /** The span's figures: each operation's count and rate over its seconds and the percentiles of its merged latencies,
   *  by name as the recorder names them (`put` files a latency under its operation and kind). */
  figures(put: (ops: Operations, name: string, h: Histogram, sec: number) => void): Operations {
    const ops: Operations = {};
    const sec = this.seconds > 0 ? this.seconds : Number.POSITIVE_INFINITY;
    for (const [name, c] of this.counts) ops[name] = { count: c.count, perSecond: c.count / sec, errors: c.errors, latency: {} };
    for (const [name, h] of this.latency) put(ops, name, h, sec);
    return ops;
  }

  /** The percentiles of one latency over the span (by the recorder's name), or undefined when none was recorded. */
  percentiles(name: string) {
    const h = this.latency.get(name);
    return h?.totalCount ? percentilesOf(h) : undefined;
  }
}
