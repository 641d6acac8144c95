// What queued workflows count to verify a run (server-only): an order-free digest of workflow ids, and a part's
// ledger when the run is carried by several runner processes (workloads/runtime.ts WorkloadRun.ledger).
import { addDoubts, type DoubtWrite, emptyDoubts, type QwDoubts } from "./doubts";

/** A claimed workflow: its id and the queue it came from. */
export interface Claimed {
  id: string;
  queue: number;
  /** A workflow resumed after its connection was lost, whose start (2.17) had committed: only its completion is left. */
  startDone?: boolean;
}

/**
 * An order-free digest of a set of random UUIDs: their count and the sums of their last 12 hex digits as two
 * 24-bit numbers (exact in a double up to 2^29 ids). Verification computes the same in SQL over the table.
 */
export class IdDigest {
  count = 0;
  hi = 0;
  lo = 0;
  add(id: string) {
    this.count++;
    this.hi += parseInt(id.substring(24, 30), 16);
    this.lo += parseInt(id.substring(30, 36), 16);
  }
  equals(o: { count: number; hi: number; lo: number }) {
    return this.count === o.count && this.hi === o.hi && this.lo === o.lo;
  }
  /** Adds another set's digest (a part's ledger): the digest of their union when they are disjoint. */
  merge(o: { count: number; hi: number; lo: number }) {
    this.count += o.count;
    this.hi += o.hi;
    this.lo += o.lo;
  }
}

/** A part's queued-workflows ledger (JSON): its digests and counts, and the ids whose fate another part knows. */
export interface QwLedger {
  enqueued: { count: number; hi: number; lo: number };
  completed: { count: number; hi: number; lo: number };
  /** Enqueued by this part and not completed by it: [id, queue] (another part's worker may have completed it). */
  inFlight: [string, number][];
  /** Completed by this part's workers but not enqueued by it: [id, queue]. */
  completedElsewhere: [string, number][];
  enqueuedPerQueue: number[];
  completedPerQueue: number[];
  peakBacklog: number[];
  completedNoRow: number;
  contention: number;
  heldAtStop: number[];
  /** A run whose loops reconnect: how its operations in doubt settled, and what was left to settle at verification. */
  doubts?: QwDoubts;
  doubtEnqueues?: [string, number][];
  unsettledClaims?: [string, number, string][];
  unsettledRuns?: [string, number, DoubtWrite][];
}

/**
 * What one instance of a run counted of its workflows (a part's, or on the coordinator every part's absorbed):
 * what was enqueued and completed, what is still in flight, and what the workers saw go wrong. Verification
 * (./verify.ts) reads only this, never the recorder's counts.
 */
export class QwRecord {
  /** Enqueued, not yet completed: id → enqueue send time (runner clock) and queue. */
  readonly inFlight = new Map<string, { t: number; queue: number }>();
  readonly enqueuedIds = new IdDigest();
  readonly completedIds = new IdDigest();
  readonly enqueuedPerQueue: number[];
  readonly completedPerQueue: number[];
  /** Per queue, the largest backlog the once-a-second sampler saw. */
  readonly peakBacklog: number[];
  /** Completions of an id that was not in flight: completed twice, or never enqueued by this run. */
  completedUnknown = 0;
  /** A part of a run over several processes: completions of ids not in its own flight (another part may have
   *  enqueued them), decided by the coordinator's absorb. */
  readonly completedElsewhere: Claimed[] = [];
  /** Completion UPDATEs (current profile, guarded by status PENDING) that matched no row. */
  completedNoRow = 0;
  /** Polls that hit a serialization failure or a lock held (the library backs off). */
  contention = 0;
  /** Claimed but not completed when the workers stopped, per worker. */
  readonly heldAtStop: number[];
  /** A run whose loops reconnect (./doubts.ts): how the operations in doubt settled so far. */
  readonly doubts: QwDoubts = emptyDoubts();
  /** Enqueues whose COMMIT reply was lost, not yet settled (a worker completing one settles it): id → queue. */
  readonly doubtEnqueues = new Map<string, number>();
  /** Claims in doubt a worker had not settled when it stopped: id, queue and the worker's executor id. */
  readonly unsettledClaims: [string, number, string][] = [];
  /** Claimed workflows whose executor lost its connection and had not read them back when it stopped: id, queue
   *  and the write in doubt (or null). */
  readonly unsettledRuns: [string, number, DoubtWrite][] = [];

  constructor(queues: number, workers: number) {
    this.enqueuedPerQueue = new Array(queues).fill(0);
    this.completedPerQueue = new Array(queues).fill(0);
    this.peakBacklog = new Array(queues).fill(0);
    this.heldAtStop = new Array(workers).fill(0);
  }

  /** This instance's record as a part sends it (WorkloadRun.ledger). */
  ledger(): QwLedger {
    const digest = (d: IdDigest) => ({ count: d.count, hi: d.hi, lo: d.lo });
    return {
      enqueued: digest(this.enqueuedIds),
      completed: digest(this.completedIds),
      inFlight: [...this.inFlight].map(([id, f]) => [id, f.queue]),
      completedElsewhere: this.completedElsewhere.map((x) => [x.id, x.queue]),
      enqueuedPerQueue: this.enqueuedPerQueue,
      completedPerQueue: this.completedPerQueue,
      peakBacklog: this.peakBacklog,
      completedNoRow: this.completedNoRow,
      contention: this.contention,
      heldAtStop: this.heldAtStop,
      doubts: this.doubts,
      doubtEnqueues: [...this.doubtEnqueues],
      unsettledClaims: this.unsettledClaims,
      unsettledRuns: this.unsettledRuns,
    };
  }

  /**
   * A worker completed `id`: the enqueue's send time and queue when this instance had it in flight (or in doubt:
   * its completion proves it stored), counted completed; null when it had not (another part's, or unknown).
   */
  completed(id: string): { t: number; queue: number } | null {
    const sent = this.inFlight.get(id);
    if (sent) this.inFlight.delete(id);
    const doubted = this.doubtEnqueues.get(id);
    if (!sent && doubted === undefined) return null;
    const queue = sent?.queue ?? (doubted as number);
    if (!sent) {
      this.doubtEnqueues.delete(id);
      this.storedInDoubt(id, queue);
    }
    this.completedIds.add(id);
    this.completedPerQueue[queue]++;
    return { t: sent?.t ?? Number.NaN, queue };
  }

  /** An enqueue in doubt found stored: counted enqueued from now on. */
  storedInDoubt(id: string, queue: number) {
    this.enqueuedIds.add(id);
    this.enqueuedPerQueue[queue]++;
    this.doubts.enqueue[0]++;
  }

  /**
   * Every part's record: a workflow one part enqueued and another completed leaves the first part's flight
   * here; a completion no part had in flight is one of a workflow completed twice or never enqueued. Returns how
   * many workflows one part enqueued and another completed.
   */
  absorb(parts: readonly QwLedger[]): number {
    const add = (to: number[], from: number[]) => {
      for (let i = 0; i < from.length; i++) to[i] = (to[i] ?? 0) + (from[i] ?? 0);
    };
    for (const l of parts) {
      this.enqueuedIds.merge(l.enqueued);
      this.completedIds.merge(l.completed);
      for (const [id, queue] of l.inFlight) this.inFlight.set(id, { t: 0, queue });
      add(this.enqueuedPerQueue, l.enqueuedPerQueue);
      add(this.completedPerQueue, l.completedPerQueue);
      add(this.peakBacklog, l.peakBacklog);
      add(this.heldAtStop, l.heldAtStop);
      this.completedNoRow += l.completedNoRow;
      this.contention += l.contention;
      if (l.doubts) addDoubts(this.doubts, l.doubts);
      for (const [id, queue] of l.doubtEnqueues ?? []) this.doubtEnqueues.set(id, queue);
      this.unsettledClaims.push(...(l.unsettledClaims ?? []));
      this.unsettledRuns.push(...(l.unsettledRuns ?? []));
    }
    let crossed = 0;
    for (const l of parts)
      for (const [id, queue] of l.completedElsewhere) {
        if (!this.inFlight.delete(id)) {
          this.completedUnknown++;
          continue;
        }
        crossed++;
        this.completedIds.add(id);
        this.completedPerQueue[queue]++;
      }
    return crossed;
  }
}
