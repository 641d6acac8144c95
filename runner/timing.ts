// Clocks, sleeps and the write throttle.
import { performance } from "node:perf_hooks";

/**
 * The runner's one clock: milliseconds on the monotonic performance clock, as an absolute value
 * (timeOrigin + now) so it fits a Float64 stamped into a payload and read back by another loop of the
 * same process. Every latency, including end-to-end, is a difference of two readings of this clock.
 */
export const clock = (): number => performance.timeOrigin + performance.now();

export const E2E_CLOCK =
  "runner monotonic clock (performance.timeOrigin + performance.now()) of the single runner process: the writer stamps it into each payload's first 8 bytes just before BEGIN, the reader subtracts it from the same clock when it has the row; no server or cross-machine clock is involved";

/** A stop signal that loops poll and sleepers wake on. */
export class Stopper {
  stopped = false;
  private waiters = new Set<() => void>();
  stop() {
    if (this.stopped) return;
    this.stopped = true;
    for (const w of this.waiters) w();
    this.waiters.clear();
  }
  /** Sleeps `ms` (Node timers: 1 ms resolution), returning early when stopped. */
  sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    // Back-off sleeps (≤ 5 ms, thousands a second) are not worth waking early: skip the bookkeeping.
    if (ms <= 5) return new Promise((resolve) => setTimeout(resolve, ms));
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(t);
        this.waiters.delete(done);
        resolve();
      };
      const t = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }
}

const yieldOnce = () => new Promise<void>((r) => setImmediate(r));

/**
 * Below this much time left before a due time, sleepUntil yields to the event loop (setImmediate) instead of
 * setting a timer: Node's timers have 1 ms granularity and fire early (measured on a 2-core machine: 69% of
 * setTimeout sleeps returned before their time, by up to 1.84 ms), so a timer cannot hit the last millisecond.
 * Cost, measured (queue, 1 writer at 200 msg/s, npm run bench): runner CPU 28% → 32% of one core; the yield loop
 * runs only in the sub-millisecond tail, and other loops' I/O keeps being served between its turns.
 */
export const SPIN_BELOW_MS = 1;

/**
 * Waits until the clock reads `due` (or the stopper stops): never returns before `due`. Sleeps on a timer,
 * checks the clock when it fires (it may fire early) and sleeps again, then yields for the sub-ms rest.
 */
export async function sleepUntil(due: number, stopper: Stopper): Promise<void> {
  for (;;) {
    if (stopper.stopped) return;
    const left = due - clock();
    if (left <= 0) return;
    await (left > SPIN_BELOW_MS ? stopper.sleep(left) : yieldOnce());
  }
}

/**
 * Sleeps `micros` on average. Node timers have 1 ms resolution (setTimeout(1.9) sleeps ~1.1 ms, measured),
 * so the sleep is dithered between the whole milliseconds around it: ⌈d⌉ with probability frac(d), else
 * ⌊d⌋, where 0 ms is just a yield to the event loop. The mean, which sets the empty-poll rate and so the
 * load polling puts on the target, is what was asked (plus Node's ~0.1 ms timer latency).
 */
export function sleepMicros(micros: number, stopper: Stopper): Promise<void> {
  const d = micros / 1000;
  const whole = Math.floor(d);
  const ms = Math.random() < d - whole ? whole + 1 : whole;
  return ms > 0 ? stopper.sleep(ms) : yieldOnce();
}

/** Uniform in [minMicros, maxMicros): the reference's intended `jitter(min, max)` (its sign bug removed). */
export const jitterMicros = (minMicros: number, maxMicros: number) => minMicros + Math.random() * (maxMicros - minMicros);

/**
 * Global write throttle with NO start-up burst. The k-th message overall is due at start + k/rate; a writer
 * asks for its next batch of n messages and gets the time at which the last of them is due (as a token
 * bucket that starts EMPTY would let it go). Writers that fall behind are not given extra slack: the schedule
 * keeps its pace, so `now - scheduled` is the coordinated-omission-corrected latency.
 * (The reference used rate.NewLimiter(N, N), which starts full: one extra second of writes at t=0.)
 */
export class Throttle {
  private issued = 0;
  private start = 0;
  /** Due times handed out whose writes have not finished yet: at most one per writer. */
  private pending = new Set<number>();
  constructor(readonly perSecond: number) {}
  begin(at: number) {
    this.start = at;
    this.issued = 0;
    this.pending.clear();
  }
  /** Due time (clock ms) of the next `n` messages. The writer calls done(due) once their write ends. */
  next(n: number): number {
    this.issued += n;
    const due = this.start + (this.issued * 1000) / this.perSecond;
    this.pending.add(due); // due times strictly increase, so each is a unique key
    return due;
  }
  /** The write due at `due` ended (written, failed, or abandoned at stop). */
  done(due: number) {
    this.pending.delete(due);
  }
  /**
   * How far behind schedule the writers are at `now`, in ms: the age of the oldest write that is due and not
   * finished (0 when none is overdue). On schedule this is at most one write's latency; when the writers cannot
   * keep up, or a stall blocks them, it grows with every second (a write that never finishes still counts).
   */
  behindMs(now: number): number {
    let oldest = Infinity;
    for (const d of this.pending) if (d < oldest) oldest = d;
    return oldest < now ? now - oldest : 0;
  }
}
