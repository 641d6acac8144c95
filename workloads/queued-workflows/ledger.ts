// What queued workflows count to verify a run (server-only): an order-free digest of workflow ids, and a part's
// ledger when the run is carried by several runner processes (workloads/runtime.ts WorkloadRun.ledger).

/** A claimed workflow: its id and the queue it came from. */
export interface Claimed {
  id: string;
  queue: number;
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
}
