// Clocks, sleeps and the write throttle.
import { performance } from "node:perf_hooks";
import type { BackoffMode } from "../../lib/backoff";

/** Added to every clock reading: 0, except in a part of a run over several processes (runner/parts/), whose clock
 *  is set to its coordinator's once, before its load starts, so stamps that cross parts are on one clock. */
let correctionMs = 0;

/** 1, except in a test that makes this process's clock run fast (testClockRate). */
const clockRate = 1 + testClockRate();

/**
 * The runner's one clock: milliseconds on the monotonic performance clock, as an absolute value
 * (timeOrigin + now) so it fits a Float64 stamped into a payload and read back by another loop of the
 * same process. Every latency, including end-to-end, is a difference of two readings of this clock.
 */
export const clock: () => number =
  clockRate !== 1
    ? () => performance.timeOrigin + performance.now() * clockRate + correctionMs
    : () => performance.timeOrigin + performance.now() + correctionMs;

/**
 * Tests only: PGBB_TEST_CLOCK_RATE_PPM makes this process's clock run fast by that many parts per million, as
 * another host's may (its own oscillator), to provoke the drift that a part on another host has measured against
 * the coordinator's clock (runner/parts/remote-parts.ts measureDrift). Unset: the monotonic clock as it is.
 */
function testClockRate(): number {
  const ppm = Number(process.env.PGBB_TEST_CLOCK_RATE_PPM);
  return Number.isFinite(ppm) ? ppm / 1e6 : 0;
}

/** Corrects this process's clock by `ms` (the coordinator's clock minus this one's, measured by ping/pong). */
export function setClockCorrection(ms: number): void {
  if (!Number.isFinite(ms)) throw new Error(`a clock correction must be a finite number of ms, not ${ms}`);
  correctionMs = ms;
}

export const E2E_CLOCK =
  "runner monotonic clock (performance.timeOrigin + performance.now()) of the single runner process: the writer stamps it into each payload's first 8 bytes just before BEGIN, the reader subtracts it from the same clock when it has the row; no server or cross-machine clock is involved";

/** Tests only: blocks the event loop for `forMs` of every `everyMs` (a runner that is itself the bottleneck). */
export function busyWaitForTest(b: { everyMs: number; forMs: number } | undefined): { stop(): void } {
  if (!b) return { stop: () => undefined };
  const every = setInterval(() => {
    const until = clock() + b.forMs;
    while (clock() < until); // deliberately blocks the event loop
  }, b.everyMs);
  return { stop: () => clearInterval(every) };
}

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

/**
 * A gate the consumers' loops pass at the top of each turn, outside any transaction: closed by a pause-workers phase
 * (runner/phases/), open again when it ends. A loop waiting at it also returns when its stopper stops.
 */
export class Pause {
  private gate: { opened: Promise<void>; open: () => void } | null = null;
  private pauseWaiters = new Set<() => void>();

  get paused(): boolean {
    return this.gate !== null;
  }

  pause() {
    if (this.gate) return;
    let open = () => {};
    const opened = new Promise<void>((r) => {
      open = r;
    });
    this.gate = { opened, open };
    for (const w of this.pauseWaiters) w();
    this.pauseWaiters.clear();
  }

  resume() {
    this.gate?.open();
    this.gate = null;
  }

  /** Returns once not paused (at once when it is not), or when `stop` stops. */
  async pass(stop: Stopper): Promise<void> {
    while (this.gate && !stop.stopped) await Promise.race([this.gate.opened, stop.sleep(3_600_000)]);
  }

  /** Returns once paused, or when `stop` stops. */
  async untilPaused(stop: Stopper): Promise<void> {
    while (!this.gate && !stop.stopped) await Promise.race([new Promise<void>((r) => this.pauseWaiters.add(r)), stop.sleep(3_600_000)]);
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

// ---------- the reference's effective back-off ----------
//
// What the reference's empty-poll sleeps really are on Linux (measured with its own Go toolchain, 5,000 sleeps
// each; docs/measurement.md, item 7): Go's time.Sleep(d) for 0 < d ≤ ~1.1 ms takes about 1.1 ms
// (200 µs: mean 1,099-1,106 µs, p10 1,081, p99 1,169), and a correct positive jitter(100 µs, 2 ms) takes
// mean 1,634 µs, p50 1,131, p90 2,223, p99 2,254: whole "ticks" of ~1.1 ms, as many as cover d. Its jitter has a
// sign bug (Go's % keeps the sign of an xorshift of the wall clock), so about half its results are ≤ 0, which
// Go's Sleep returns from at once; the sign only depends on bits 33-53 of the nanosecond clock, so it holds for
// seconds at a time and every reader busy-polls (or sleeps) together.

/** How long one of Go's sub-millisecond sleeps really takes on Linux (measured mean, see above). */
export const GO_SLEEP_TICK_MS = 1.1;

/** Go's time.Sleep(d) as measured: 0 for d ≤ 0, else the whole ticks that cover d. */
export const goSleepMs = (ms: number) => (ms <= 0 ? 0 : Math.ceil(ms / GO_SLEEP_TICK_MS - 1e-9) * GO_SLEEP_TICK_MS);

/** The wall clock in nanoseconds, as Go's time.Now().UnixNano(): epoch offset once, then the monotonic clock. */
const wallNsBase = BigInt(Date.now()) * 1_000_000n - process.hrtime.bigint();
export const wallNs = () => wallNsBase + process.hrtime.bigint();

/**
 * The reference's jitter(min, max) exactly as its Go code computes it, sign bug included (pubsub/reader.go:
 * r := UnixNano; r ^= r << 13; r ^= r >> 7; r ^= r << 17; return min + r % (max - min), on int64).
 * BigInt's >> is arithmetic and its % truncates toward zero, as Go's. May be ≤ 0.
 */
export function referenceJitterMicros(minMicros: number, maxMicros: number, nowNs: bigint = wallNs()): number {
  let r = BigInt.asIntN(64, nowNs);
  r = BigInt.asIntN(64, r ^ (r << 13n));
  r = BigInt.asIntN(64, r ^ (r >> 7n));
  r = BigInt.asIntN(64, r ^ (r << 17n));
  const span = BigInt(Math.round((maxMicros - minMicros) * 1000));
  return minMicros + Number(r % span) / 1000;
}

/**
 * Within this much of the wanted length, a back-off sleep ends rather than set another timer: one more timer
 * overshoots by ~1.1 ms, ending this early undershoots by at most this, so the mean length stays what was asked.
 */
const BACKOFF_SLACK_MS = 0.5;

/**
 * Sleeps about `ms` on timers alone (no spinning: readers back off thousands of times a second): Node's timers
 * fire early when the event loop is busy, so the clock is checked and a shorter timer set for what is left.
 */
async function sleepAbout(ms: number, stopper: Stopper): Promise<void> {
  const end = clock() + ms;
  for (;;) {
    const left = end - clock();
    if (left <= BACKOFF_SLACK_MS || stopper.stopped) return;
    await stopper.sleep(left);
  }
}

/**
 * The readers' back-off after an empty poll or a failed claim/dequeue. "reference-effective" sleeps what the
 * reference's sleeps really take (above); "nominal" sleeps what its code asks for: the fixed delay's mean by
 * dithering whole milliseconds (sleepMicros), a uniform jitter without the sign bug.
 */
export class Backoff {
  constructor(
    readonly mode: BackoffMode,
    private readonly stopper: Stopper,
    /** The clock the reference's jitter is seeded from (tests pass spread-out timestamps). */
    private readonly nowNs: () => bigint = wallNs,
  ) {}

  /** time.Sleep(micros), as the queue's 200 µs after an empty dequeue. */
  fixed(micros: number): Promise<void> {
    if (this.mode === "nominal") return sleepMicros(micros, this.stopper);
    return sleepAbout(goSleepMs(micros / 1000), this.stopper);
  }

  /** time.Sleep(jitter(min, max)), as pub/sub's 100 µs–2 ms after an empty claim. */
  jitter(minMicros: number, maxMicros: number): Promise<void> {
    if (this.mode === "nominal") return sleepMicros(jitterMicros(minMicros, maxMicros), this.stopper);
    const ms = goSleepMs(referenceJitterMicros(minMicros, maxMicros, this.nowNs()) / 1000);
    // A zero sleep still yields, so one reader's busy-polling cannot starve the event loop.
    return ms > 0 ? sleepAbout(ms, this.stopper) : yieldOnce();
  }
}

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
  private writers = 1;
  /** Messages handed to each writer so far (its share of the schedule is perSecond / writers). */
  private issuedTo: number[] = [0];
  /** Due times handed out whose writes have not finished yet: at most one per writer. */
  private pending = new Set<number>();
  constructor(readonly perSecond: number) {}
  begin(at: number, writers = 1) {
    this.start = at;
    this.issued = 0;
    this.writers = Math.max(1, writers);
    this.issuedTo = new Array(this.writers).fill(0);
    this.pending.clear();
  }
  /** Due time (clock ms) of the next `n` messages, for writer `writer`. The writer calls done(due) once their write ends. */
  next(n: number, writer = 0): number {
    this.issued += n;
    this.issuedTo[writer] = (this.issuedTo[writer] ?? 0) + n;
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

  /**
   * How far writer `writer` is behind its own share of the schedule at `now`, in ms: the time by which its share
   * (perSecond / writers) would have covered the messages it has been handed, subtracted from now (0 if ahead).
   * The schedule is global, so while one writer is stalled (its partition locked) the others take its turns and
   * the global rate hardly moves; this is where such a stall shows. On schedule every writer takes every
   * writers-th turn, so each one's messages are covered by its share and it reads 0 (or one write's latency).
   * A writer that lost turns to a stall stays behind by them: its partition got that much less of the load.
   */
  writerLagMs(writer: number, now: number): number {
    const shareDue = this.start + ((this.issuedTo[writer] ?? 0) * this.writers * 1000) / this.perSecond;
    return now > shareDue ? now - shareDue : 0;
  }

  /** Writers the schedule is shared by (begin's `writers`). */
  get writerCount(): number {
    return this.writers;
  }
}
