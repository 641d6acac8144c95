// A notify run whose loops reconnect (a kill-backend phase), server-only. NOTIFY is not durable: a notification is
// delivered only to the sessions listening when its transaction commits, so a listener whose connection went misses
// every one that committed from its loss until its new LISTEN, and nothing brings them back. That is a measured fact
// of LISTEN/NOTIFY, not a failure: verification counts those "missed while the listener reconnected" and stays exact
// outside the gap (any other missing one is lost, any duplicate a failure).
//
// The gap, on the runner's clock: it opens after the commit of the last notification the old connection delivered
// (notifications arrive in commit order; that one committed after its publish was sent, its stamp) and closes when
// the new LISTEN is answered. A publish committed somewhere between its send and its reply (for one whose reply was
// lost: the error), so a missing message falls in the gap when that interval meets it: its reply after the gap
// opened, its send before the gap closed. One sent after the new LISTEN's reply, or answered before the last
// delivered one was sent, had a listener: if it never came, it is lost.

/** One listener gap, in clock ms: from the stamp of the last notification delivered before the loss (or the LISTEN
 *  before it, when none was) to the reply to the new LISTEN. */
export interface Gap {
  from: number;
  to: number;
}

/** Each publish's send and reply times (clock ms) by publisher and sequence number: NaN until known, and a reply of
 *  NaN marks a publish that did not happen (failed before it was sent, or in doubt and not stored) or is not settled. */
export class PublishTimes {
  private readonly times: Float64Array[] = [];

  private at(p: number, seq: number): Float64Array {
    let t = this.times[p];
    if (!t || t.length <= 2 * seq + 1) {
      const grown = new Float64Array(Math.max(2048, 4 * (seq + 1))).fill(Number.NaN);
      if (t) grown.set(t);
      this.times[p] = t = grown;
    }
    return t;
  }

  sent(p: number, seq: number, t: number) {
    this.at(p, seq)[2 * seq] = t;
  }
  /** Answered at `t` (or, in doubt and found stored, failed at `t`: it committed before then). A publish in doubt
   *  is told only once settled, so one not stored keeps no reply: it never happened. */
  replied(p: number, seq: number, t: number) {
    this.at(p, seq)[2 * seq + 1] = t;
  }

  /**
   * Published messages (a reply known) that `received` says never arrived, split into those a gap explains and the
   * rest. Per publisher, sequence numbers 1 … the last it sent.
   */
  missing(gaps: readonly Gap[], received: (p: number, seq: number) => boolean): { inGaps: number; lost: number } {
    let inGaps = 0;
    let lost = 0;
    this.times.forEach((t, p) => {
      for (let seq = 1; 2 * seq + 1 < t.length; seq++) {
        const send = t[2 * seq];
        const reply = t[2 * seq + 1];
        if (Number.isNaN(reply) || received(p, seq)) continue;
        if (gaps.some((g) => reply > g.from && send < g.to)) inGaps++;
        else lost++;
      }
    });
    return { inGaps, lost };
  }
}
