// The engine core's pacers: a run's load is paced here, never in a workload. A definition declares its pacing
// (Pacing, below: throttle, open-loop, closed-loop, unpaced); the engine builds one Pacer from that
// declaration and hands it to the workload, which supplies only its operations (a write of a batch, a request of
// a virtual user, the start of an arrival). The pacer waits for each due time on its clock (never before it:
// timers fire early), and times each paced item from its schedule itself (coordinated omission corrected).
// The clock is the pacer's own: real by default, a fake one in tests (runner/core/fake-clock.ts).
import { clock, type Stopper, sleepUntil, Throttle } from "./timing";

/**
 * How a run is paced, as its workload declares it for a parsed config (workloads/types.ts WorkloadDefinition.pacing):
 * - `throttle`: the engine's write throttle admits `operation` at `targetPerSecond` over all writers
 *   (./timing.ts Throttle; the from-schedule latencies and the "did not keep up" note come with it);
 * - `open-loop`: the workload starts `operation` on a fixed timetable at `targetPerSecond`, whatever the answers do;
 * - `closed-loop`: `virtualUsers` each send, wait for the answer and think `thinkMs` (no target rate);
 * - `unpaced`: as fast as the loops go.
 */
export interface Pacing {
  kind: "throttle" | "open-loop" | "closed-loop" | "unpaced";
  /** Items of `unit` per second the pacing aims at (throttle and open loop). */
  targetPerSecond?: number;
  /** The paced item in the workload's own words, as its operation declares it ("msg", "row", "req", "workflow"). */
  unit: string;
  /** The declared operation (metrics.operations[].name) the pacing admits or starts. */
  operation: string;
  virtualUsers?: number;
  thinkMs?: number;
  /** The workload's load goes through the engine's throttle when it has a rate (its rate field; 0 = off, so
   *  `unpaced`): compare then says "unthrottled" rather than nothing. */
  throttleable?: boolean;
}

/** A clock and a way to wait on it: what every pacer reads time from and sleeps with. */
export interface PaceClock {
  now(): number;
  /** Resolves at or after `due` (never before it), or as soon as `stop` stops. */
  sleepUntil(due: number, stop: Stopper): Promise<void>;
}

/** The runner's monotonic clock (runner/core/timing.ts). */
export const realClock: PaceClock = { now: clock, sleepUntil };

/** Where a paced item's latency from its schedule goes (RunStats.recordScheduled): `operation` is the one the
 *  pacing admits, whose latency from schedule it is. */
export interface ScheduleRecorder {
  recordScheduled(due: number, sent: number, done: number, writerLagMs?: number, operation?: string): void;
}

/** One paced operation of one loop, reused for each of its operations (nothing is allocated per operation). */
export class Slot {
  /** When the operation was due on the timetable (clock ms); 0 when the run is not on a timetable. */
  due = 0;
  constructor(
    /** The loop's index (a writer's number: its share of the throttle's schedule). */
    readonly loop: number,
    private readonly pacer: Pacer,
  ) {}
  /** The operation (or one item of it) was sent at `sent` and answered at `done`: the pacer records its latency
   *  from the schedule and, under a throttle, how far this loop is behind its share. Only successful items;
   *  ./operation.ts Operation.answered calls it, given the slot. */
  answered(sent: number, done: number) {
    this.pacer.answered(this, sent, done);
  }
}

/** An operation a loop runs: false when the loop must end (its connection is lost). */
export type PacedOperation = (slot: Slot) => Promise<boolean>;

export class Pacer {
  /** The shared timetable of a throttle or an open loop: item k is due at start + k / targetPerSecond. */
  readonly timetable: Throttle | null;

  constructor(
    readonly pacing: Pacing,
    private readonly recorder: ScheduleRecorder | null,
    readonly clock: PaceClock = realClock,
  ) {
    const rate = pacing.targetPerSecond ?? 0;
    this.timetable = (pacing.kind === "throttle" || pacing.kind === "open-loop") && rate > 0 ? new Throttle(rate) : null;
  }

  /** The engine's write throttle (its lag and "did not keep up" checks): the timetable of a throttle-paced run. */
  get throttle(): Throttle | null {
    return this.pacing.kind === "throttle" ? this.timetable : null;
  }

  /** When the load started (clock ms): the timetable's start. */
  startedAt = 0;

  /** The load starts at `at`, shared by `loops` loops (the throttle's writers). */
  begin(at: number, loops: number) {
    this.startedAt = at;
    this.timetable?.begin(at, loops);
  }

  /**
   * Loop `index` of an operation on the shared timetable (a throttle's writer, an open loop's connection): waits
   * until its next `n` items are due, then runs `operation`, until `stop`. Unpaced, the operations run back to back.
   */
  async loop(index: number, stop: Stopper, n: number, operation: PacedOperation): Promise<void> {
    const slot = new Slot(index, this);
    const t = this.timetable;
    while (!stop.stopped) {
      if (t) {
        slot.due = t.next(n, index);
        await this.clock.sleepUntil(slot.due, stop);
        if (stop.stopped) {
          t.done(slot.due);
          break;
        }
      }
      let go = true;
      try {
        go = await operation(slot);
      } finally {
        // Failed operations are not retried: they no longer hold the schedule back.
        t?.done(slot.due);
      }
      if (!go) return;
    }
  }

  /** Slot.answered: the latency from the schedule, and under a throttle the loop's lag behind its share. */
  answered(slot: Slot, sent: number, done: number) {
    const t = this.timetable;
    if (!t || !this.recorder) return;
    const lag = this.pacing.kind === "throttle" ? t.writerLagMs(slot.loop, done) : undefined;
    this.recorder.recordScheduled(slot.due, sent, done, lag, this.pacing.operation);
  }

  /**
   * The closed loop: each of the declared virtual users runs `operation(vu)`, waits for its answer and thinks
   * for the declared think time, until `stop`. Resolves when every virtual user has stopped.
   */
  virtualUsers(stop: Stopper, operation: (vu: number) => Promise<boolean>): Promise<void> {
    const thinkMs = this.pacing.thinkMs ?? 0;
    const user = async (vu: number) => {
      while (!stop.stopped) {
        if (!(await operation(vu))) return;
        if (thinkMs > 0) await this.clock.sleepUntil(this.clock.now() + thinkMs, stop);
      }
    };
    return Promise.all(Array.from({ length: this.pacing.virtualUsers ?? 0 }, (_, vu) => user(vu))).then(() => undefined);
  }

  /**
   * The open loop's arrivals: item k starts at start + k / targetPerSecond, never before, and runs on its own
   * (`start` is not awaited), whatever the answers do, until `stop`. Each arrival's lag is its own latency (the
   * workload times it from `due`), so the timetable holds no pending item.
   */
  async arrivals(stop: Stopper, start: (due: number) => void): Promise<void> {
    const t = this.timetable;
    if (!t) throw new Error(`arrivals need an open-loop pacing with a rate (this run is paced "${this.pacing.kind}")`);
    for (;;) {
      const due = t.next(1);
      t.done(due);
      await this.clock.sleepUntil(due, stop);
      if (stop.stopped) return;
      start(due);
    }
  }

  /** A periodic wait on this pacer's clock (a poll every interval), first due at `first`. */
  every(first: number, intervalMs: number): Metronome {
    return new Metronome(this.clock, first, intervalMs);
  }
}

/** Due at first, first + interval, …: each wait resolves at its due time (never before), false once stopped. */
export class Metronome {
  constructor(
    private readonly clock: PaceClock,
    private due: number,
    private readonly intervalMs: number,
  ) {}
  async wait(stop: Stopper): Promise<boolean> {
    await this.clock.sleepUntil(this.due, stop);
    this.due += this.intervalMs;
    return !stop.stopped;
  }
}
