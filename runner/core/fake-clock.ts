// A simulated clock for the pacers (runner/core/pacing.ts PaceClock): time moves only when the test runs it, so a
// test drives a pacer for many simulated seconds in a few real milliseconds, and no result depends on how busy
// the machine is. An operation that "takes" time waits on this clock too (took()).
import type { PaceClock } from "./pacing";
import type { Stopper } from "./timing";

interface Sleeper {
  due: number;
  /** Order of arrival: sleepers due at the same time wake in the order they went to sleep. */
  seq: number;
  stop: Stopper | null;
  wake: () => void;
}

/** Lets every promise chain that can run without the clock moving run: a turn of the event loop, which comes
 *  after every queued microtask (the pacers and the test's operations wait on nothing else). */
const settle = () => new Promise<void>((r) => setImmediate(r));

const before = (a: Sleeper, b: Sleeper) => a.due < b.due || (a.due === b.due && a.seq < b.seq);

/** The sleepers, earliest first (a binary heap: thousands of virtual users sleep at once). */
class SleeperHeap {
  private readonly h: Sleeper[] = [];
  get size() {
    return this.h.length;
  }
  peek(): Sleeper | undefined {
    return this.h[0];
  }
  push(s: Sleeper) {
    const h = this.h;
    h.push(s);
    for (let i = h.length - 1; i > 0; ) {
      const p = (i - 1) >> 1;
      if (!before(h[i], h[p])) break;
      [h[i], h[p]] = [h[p], h[i]];
      i = p;
    }
  }
  pop(): Sleeper | undefined {
    const h = this.h;
    const top = h[0];
    const last = h.pop();
    if (h.length && last) {
      h[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && before(h[l], h[m])) m = l;
        if (r < h.length && before(h[r], h[m])) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
    return top;
  }
  /** Removes and returns the sleepers of stoppers that have stopped. */
  takeStopped(): Sleeper[] {
    const out: Sleeper[] = [];
    const keep: Sleeper[] = [];
    for (const s of this.h) (s.stop?.stopped ? out : keep).push(s);
    if (out.length) {
      this.h.length = 0;
      for (const s of keep) this.push(s);
    }
    return out;
  }
}

export class FakeClock implements PaceClock {
  private t: number;
  private seq = 0;
  private readonly sleepers = new SleeperHeap();

  constructor(start = 1_000_000) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  sleepUntil(due: number, stop: Stopper): Promise<void> {
    return this.wait(due, stop);
  }

  /** An operation's own work of `ms` simulated milliseconds (not woken by any stop). */
  took(ms: number): Promise<void> {
    return this.wait(this.t + ms, null);
  }

  private wait(due: number, stop: Stopper | null): Promise<void> {
    if (due <= this.t || stop?.stopped) return Promise.resolve();
    return new Promise((wake) => this.sleepers.push({ due, seq: this.seq++, stop, wake }));
  }

  /**
   * Runs simulated time up to `until`: lets everything that can run now run, then moves the clock to the next
   * sleeper's due time and wakes every sleeper due then, and again, until none is due by `until` (the clock
   * then reads `until`). Sleepers whose stopper has stopped are woken first, as a Stopper wakes its sleepers.
   */
  async runUntil(until: number): Promise<void> {
    await this.settle();
    for (;;) {
      const next = this.sleepers.peek();
      if (!next || next.due > until) break;
      this.t = next.due;
      while (this.sleepers.peek()?.due === this.t) this.sleepers.pop()!.wake();
      await settle();
    }
    this.t = Math.max(this.t, until);
    await settle();
  }

  /** Wakes the sleepers of stoppers that have stopped (call after stopping one), and lets them run. */
  async settle(): Promise<void> {
    for (const s of this.sleepers.takeStopped()) s.wake();
    await settle();
  }
}
