// The record a queue-library run keeps of its jobs (server-only), and what verification makes of it: every job
// enqueued ran exactly once, or is still waiting in the library's queue when the run stopped. Jobs are numbered
// in the order the run asks for them (`seq`); a run counts how many times each one ran.
import { agree, countWords } from "../../lib/words";
import type { Ledger } from "../runtime";

/** A job's payload as the run enqueues it: its number, and its scheduled enqueue (clock ms; null in a drain). */
export interface JobPayload {
  seq: number;
  due: number | null;
}

export class JobLedger {
  /** Jobs numbered so far (0 … assigned − 1). */
  assigned = 0;
  /** Jobs whose enqueue failed: in doubt (the library may have stored them before the error), so either outcome is
   *  right for them. */
  readonly failed = new Set<number>();
  /**
   * Jobs the library ran again as a retry of an attempt it failed itself (the handler never throws): in a run whose
   * connections a phase takes, its completion went with a connection, in doubt, and the library ran it again.
   */
  readonly retried = new Set<number>();
  /** Times each job ran, by seq (255 at most: enough to tell once from more). */
  private runs = new Uint8Array(1024);
  /** Every run of every job, in order (for a part's ledger and the faults the conformance suite provokes). */
  private ranCount = 0;

  next(): number {
    return this.assigned++;
  }

  ran(seq: number) {
    if (seq >= this.runs.length) {
      const grown = new Uint8Array(Math.max(seq + 1, this.runs.length * 2));
      grown.set(this.runs);
      this.runs = grown;
    }
    if (this.runs[seq] < 255) this.runs[seq]++;
    this.ranCount++;
  }

  /** Jobs that ran at least once. */
  get done(): number {
    return this.ranCount;
  }

  toJSON(): Ledger {
    const ran: number[] = [];
    for (let seq = 0; seq < this.runs.length; seq++) for (let k = 0; k < this.runs[seq]; k++) ran.push(seq);
    return { assigned: this.assigned, failed: [...this.failed], retried: [...this.retried], ran };
  }

  /** The whole run's ledger from the parts' (or a doctored copy of one, in the conformance suite's faults). */
  static of(ledgers: readonly Ledger[]): JobLedger {
    const l = new JobLedger();
    for (const p of ledgers) {
      l.assigned = Math.max(l.assigned, Number(p.assigned));
      for (const s of p.failed as number[]) l.failed.add(s);
      for (const s of (p.retried as number[] | undefined) ?? []) l.retried.add(s);
      for (const s of p.ran as number[]) l.ran(s);
    }
    return l;
  }

  /**
   * Checks every job against its runs and the library's queue (`waiting`: the seqs still in it). `acceptRetries`: a
   * job that ran more than once because the library retried it (retried) is counted as run again (rerun), not as a
   * duplicate: in a run whose phases take connections, its completion was in doubt.
   */
  check(
    waiting: readonly number[],
    table: string,
    acceptRetries = false,
  ): { problems: string[]; lost: number; duplicated: number; inDoubt: number; ranOnce: number; rerun: number; ranStillQueued: number } {
    const stillWaiting = new Set(waiting);
    // Ran, and still in the library's queue when it was read: its completion was not recorded by the time the
    // workers stopped (the library would run it again, its documented at-least-once).
    const ranStillQueued = waiting.filter((seq) => seq < this.runs.length && this.runs[seq] > 0).length;
    let lost = 0;
    let duplicated = 0;
    let ranOnce = 0;
    let rerun = 0;
    let firstLost = -1;
    for (let seq = 0; seq < this.assigned; seq++) {
      const n = seq < this.runs.length ? this.runs[seq] : 0;
      if (n === 1) ranOnce++;
      else if (n > 1 && acceptRetries && this.retried.has(seq)) rerun++;
      else if (n > 1) duplicated++;
      else if (!this.failed.has(seq) && !stillWaiting.has(seq)) {
        lost++;
        if (firstLost < 0) firstLost = seq;
      }
    }
    const problems: string[] = [];
    if (lost > 0)
      problems.push(`${countWords(lost, "job")} enqueued never ran and ${agree(lost, "are", "is")} not in ${table} (lost; the first is job ${firstLost})`);
    if (duplicated > 0) problems.push(`${countWords(duplicated, "job")} ran more than once`);
    return { problems, lost, duplicated, inDoubt: this.failed.size, ranOnce, rerun, ranStillQueued };
  }
}
