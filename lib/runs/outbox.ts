// Keeps a run's samples until the control store has them. A sample that cannot be stored (the control store
// is restarting, briefly unreachable) is retried with back-off, in seq order, so the store never holds a
// hole that later fills (a live stream would skip it). Memory is bounded: past MAX_SAMPLES waiting, the
// oldest are dropped and counted, and the run's summary says which were lost.
import { isStoreUnavailable, storeErrorText } from "../status/health";
import { countWords } from "../words";

/** One hour of samples at one per second: a few MB at most. */
export const MAX_SAMPLES = 3600;
const MIN_BACKOFF_MS = 250;
/** Once the caller is stopping, what still waits on the control store gets this long in all (not each). */
export const STOP_WAIT_MS = 2000;
const MAX_BACKOFF_MS = 5000;

export class SampleOutbox<S extends { seq: number }> {
  private queue: S[] = [];
  private pumping: Promise<void> | undefined;
  private closed = false;
  /** Seqs dropped because more than `limit` were waiting. */
  readonly lost: number[] = [];
  /** Why they were lost, in words, for the run's note. */
  private readonly why = new Set<string>();

  constructor(
    private readonly store: (s: S) => Promise<void>,
    private readonly log: (line: string) => void,
    /** True once the runner is stopping: what is still waiting is then given up (and counted as lost). */
    private readonly giveUp: () => boolean = () => false,
    private readonly limit = MAX_SAMPLES,
  ) {}

  push(s: S) {
    this.queue.push(s);
    if (this.queue.length > this.limit) {
      this.lost.push(this.queue.shift()!.seq);
      this.why.add(`the control store was unreachable for longer than the runner keeps samples (${this.limit})`);
    }
    this.pumping ??= this.pump().finally(() => (this.pumping = undefined));
  }

  private async pump() {
    let backoff = MIN_BACKOFF_MS;
    let failingSince: number | undefined;
    while (this.queue.length && !this.closed) {
      if (this.giveUp()) {
        this.close();
        break;
      }
      const s = this.queue[0];
      try {
        await this.store(s);
        this.queue.shift();
        if (failingSince !== undefined)
          this.log(`the control store answers again: stored the samples kept meanwhile (down ${((Date.now() - failingSince) / 1000).toFixed(1)} s)`);
        failingSince = undefined;
        backoff = MIN_BACKOFF_MS;
      } catch (err) {
        // Stopping: what is still waiting (this one too) is given up and counted as lost.
        if (this.giveUp()) {
          this.close();
          break;
        }
        if (!isStoreUnavailable(err)) {
          // Not an outage: retrying would fail the same way for ever. Counted as lost, and the rest go on.
          this.queue.shift();
          this.lost.push(s.seq);
          this.why.add(`the control store refused them (${storeErrorText(err)})`);
          this.log(`cannot store sample ${s.seq}: ${storeErrorText(err)}; it is lost`);
          continue;
        }
        if (failingSince === undefined) {
          failingSince = Date.now();
          this.log(`cannot store sample ${s.seq} (${storeErrorText(err)}); keeping samples (up to ${this.limit}) and retrying`);
        }
        const until = Date.now() + backoff;
        while (Date.now() < until && !this.closed && !this.giveUp()) await new Promise((r) => setTimeout(r, Math.min(until - Date.now(), 250) + 1));
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    }
  }

  /** How many samples are still waiting for the control store. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Resolves once every kept sample is stored (or close() gave up on them). */
  async flush() {
    while (this.pumping) await this.pumping;
  }

  /** Gives up (the runner is stopping): what is still waiting counts as lost. */
  close() {
    this.closed = true;
    if (this.queue.length) this.why.add("the runner stopped before the control store took them");
    this.lost.push(...this.queue.map((s) => s.seq));
    this.queue = [];
  }

  /** "3 sample(s) (seq 4–6) could not be stored …", or null when none were lost. */
  lostNote(): string | null {
    if (!this.lost.length) return null;
    const seqs = [...this.lost].sort((a, b) => a - b);
    const ranges: string[] = [];
    for (let i = 0; i < seqs.length; ) {
      let j = i;
      while (j + 1 < seqs.length && seqs[j + 1] === seqs[j] + 1) j++;
      ranges.push(i === j ? `${seqs[i]}` : `${seqs[i]}–${seqs[j]}`);
      i = j + 1;
    }
    return `${countWords(seqs.length, "sample")} (seq ${ranges.join(", ")}) could not be stored: ${[...this.why].join("; ")}; the chart has a gap there`;
  }
}

/** Retries `fn` with back-off until it succeeds or `giveUp()` says to stop; logs the first failure. */
export async function untilStored<T>(what: string, fn: () => Promise<T>, log: (line: string) => void, giveUp: () => boolean): Promise<T> {
  let backoff = MIN_BACKOFF_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (giveUp() || !isStoreUnavailable(err)) throw err;
      if (attempt === 1) log(`cannot store ${what} (${storeErrorText(err)}); retrying until the control store answers`);
      const until = Date.now() + backoff;
      while (Date.now() < until && !giveUp()) await new Promise((r) => setTimeout(r, Math.min(until - Date.now(), 250) + 1));
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    }
  }
}

/**
 * The time a stopping caller still gives the control store: from the first moment `stopping()` is seen true,
 * STOP_WAIT_MS in all for every call still waiting, however many; a control store that stopped answering
 * (kill -STOP, a frozen VM) would otherwise hold Ctrl-C for ever, since its calls never fail.
 */
export class StopBudget {
  private since: number | undefined;
  constructor(
    private readonly stoppingNow: () => boolean,
    readonly ms = STOP_WAIT_MS,
  ) {}

  /** True once the caller is stopping (and the budget is running). */
  stopping = (): boolean => {
    if (this.since === undefined && this.stoppingNow()) this.since = Date.now();
    return this.since !== undefined;
  };

  /** Settles as `p` does, or rejects once the caller is stopping and the budget is spent. */
  async bound<T>(p: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const spent = new Promise<never>((_, reject) => {
      const check = () => {
        if (this.stopping() && Date.now() - this.since! >= this.ms)
          reject(new Error(`the control store did not answer within ${this.ms / 1000} s of stopping (timed out)`));
        else timer = setTimeout(check, 100);
      };
      check();
    });
    try {
      return await Promise.race([p, spent]);
    } finally {
      clearTimeout(timer);
    }
  }
}
