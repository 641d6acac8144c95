// Notify (server-only): each request publishes one message (an INSERT on a pool connection, to a channel
// drawn uniformly); one subscriber on a connection of its own receives every message, by polling (baseline)
// or LISTEN (modded), and times its delivery. After the last publish the subscriber gets a few seconds to
// receive what is still on its way, then verification checks, per publisher, that the table holds exactly
// what was published and that every message was received exactly once (a lost notification is counted and
// fails the run, beside how full the NOTIFY queue got).
import type pg from "pg";
import { type TargetClient, clock, Stopper } from "../../runner/core";
import { inDoubtFact, type Ledger, stepFailed, type WorkloadContext, type WorkloadVerification } from "../runtime";
import { PublishTimes } from "./gaps";
import { yongModule, type YongRequest, type YongWorkload } from "../yong/driver";
import type { NotifyConfig } from "./definition";
import { channelName, messagePayload, notifySql } from "./sql";
import { Deliveries, ListenSubscriber, PollingSubscriber, POLL_INTERVAL_MS, type Subscriber } from "./subscribers";
import { countWords, unitWords } from "../../lib/words";

/** After the last publish, how long the subscriber may take to receive the rest. */
export const DELIVERY_GRACE_MS = 5000;
/** Over several processes the subscriber cannot know what the other parts published: once the readers stop, it
 *  receives until nothing more came for this long (or the grace ran out). */
export const PART_QUIET_MS = 1000;

class NotifyWorkload implements YongWorkload {
  readonly notes: string[] = [];
  readonly vus: number;
  /** One subscriber for the whole run: over several processes, part 0 runs it and receives every part's messages. */
  readonly ownRoles: string[];
  private readonly sql: ReturnType<typeof notifySql>;
  /** Per publisher (a VU; the open loop's arrivals are one publisher): the next sequence number, and what succeeded. */
  private readonly nextSeq: number[];
  private readonly publishedCount: number[];
  private readonly publishedSum: number[];
  private publishedTotal = 0;
  private readonly deliveries: Deliveries;
  private subscriber: Subscriber | null = null;
  /** Stops the subscriber once it has received everything, or the grace ran out (see startOwn). */
  private readonly ownStop = new Stopper();
  private drained: Promise<void> = Promise.resolve();
  /** The subscriber's notes, or on the coordinating instance the ones part 0's subscriber sent. */
  private readonly subscriberNotes: string[] = [];
  /** A run whose loops reconnect (a kill-backend phase): each publish's send and reply times, which tell a
   *  notification missed while the listener reconnected from a lost one (./gaps.ts); null in any other run. */
  private readonly times: PublishTimes | null;
  /** Publishes whose reply was lost (a run whose loops reconnect), settled from the table: [publisher, seq, when their
   *  connection failed (clock ms)]. */
  private readonly doubts: [number, number, number][] = [];

  constructor(private readonly ctx: WorkloadContext<NotifyConfig>) {
    const c = ctx.config;
    this.vus = c.vus;
    this.sql = notifySql(ctx.schema, c.variant);
    this.ownRoles = (ctx.part?.index ?? 0) === 0 ? ["subscriber"] : [];
    // The open loop's arrivals are one publisher per runner process (its part index); a closed loop's VUs each one.
    const publishers = c.load === "rate" ? Math.max(c.processes ?? 1, 1) : Math.max(c.vus, 1);
    this.nextSeq = new Array(publishers).fill(1);
    this.publishedCount = new Array(publishers).fill(0);
    this.publishedSum = new Array(publishers).fill(0);
    this.times = ctx.reconnect ? new PublishTimes() : null;
    const delivery = ctx.stats.op("delivery");
    // A delivery only the subscriber sees: timed from the publish stamp its payload carries.
    this.deliveries = new Deliveries(publishers, (publishedAt, now) => {
      delivery.done();
      delivery.span(publishedAt, now);
    });
  }

  async setup(admin: pg.Client) {
    for (const q of this.sql.setup) await admin.query(q);
  }

  async startOwn([tc]: TargetClient[]) {
    // A part other than part 0 of a run over several processes only publishes (ownRoles).
    if (!tc) return;
    const c = this.ctx.config;
    const onError = (count: () => void) => (err: unknown) =>
      stepFailed(this.ctx, tc, err, { what: "subscriber", count, noTransaction: true, pause: () => this.ownStop.sleep(POLL_INTERVAL_MS), stop: this.ownStop });
    if (c.variant === "modded") {
      const delivery = this.ctx.stats.op("delivery");
      this.subscriber = new ListenSubscriber(
        tc,
        this.sql,
        c.channels,
        this.deliveries,
        this.ownStop,
        this.ctx.pacer,
        onError(() => delivery.failed()),
      );
    } else {
      const poll = this.ctx.stats.op("poll");
      this.subscriber = new PollingSubscriber(tc, this.sql, c.channels, this.deliveries, this.ownStop, this.ctx.pacer, {
        poll,
        onError: onError(() => poll.failed()),
      });
    }
    await this.subscriber.start();
    // The engine stops its readers once the publishers are done: receive what is on its way, then stop.
    this.drained = (async () => {
      const readers = this.ctx.readersStop;
      while (!readers.stopped) await readers.sleep(60_000);
      const until = clock() + DELIVERY_GRACE_MS;
      let seen = this.deliveries.received;
      let quietFrom = clock();
      // What the listener missed while it reconnected never comes: it is not waited for.
      const missed = this.times && this.subscriber instanceof ListenSubscriber && this.subscriber.gaps.length ? this.missing().inGaps : 0;
      // Publishes in doubt are not yet settled: left out of both sides, those received among them too.
      const doubtsReceived = () => this.doubts.filter(([p, seq]) => this.deliveries.has(p, seq)).length;
      const waiting = () => {
        if (!this.ctx.part) return this.deliveries.received - doubtsReceived() < this.publishedTotal - missed;
        if (this.deliveries.received !== seen) [seen, quietFrom] = [this.deliveries.received, clock()];
        return clock() - quietFrom < PART_QUIET_MS;
      };
      while (waiting() && clock() < until && !this.ownStop.stopped) await this.ownStop.sleep(20);
      this.ownStop.stop();
    })();
  }

  async ownDone() {
    await this.drained;
    await this.subscriber?.done();
  }

  next(vu: number | null): YongRequest {
    const p = vu ?? this.ctx.part?.index ?? 0;
    const seq = this.nextSeq[p]++;
    const channel = channelName(Math.floor(Math.random() * this.ctx.config.channels));
    // An INSERT in autocommit (its NOTIFY, modded, at its commit): one whose reply was lost is in doubt, its commit (if
    // any) before the error, and settled from the table at verification.
    // Its failure time becomes its reply time once the table says it was stored (settleDoubts): until then it is in
    // neither what was published nor what the listener may have missed.
    const inDoubt = () => this.doubts.push([p, seq, clock()]);
    return { op: "publish", run: (tc) => this.publish(tc, p, seq, channel), inDoubt };
  }

  private async publish(tc: TargetClient, p: number, seq: number, channel: string) {
    const sent = clock();
    const payload = messagePayload(p, seq, sent, this.ctx.config.messageBytes);
    this.times?.sent(p, seq, sent);
    await tc.client.query({ name: "publish", text: this.sql.publish, values: [channel, payload] });
    this.times?.replied(p, seq, clock());
    this.publishedCount[p]++;
    this.publishedSum[p] += seq;
    this.publishedTotal++;
  }

  ledger(): Ledger {
    const d = this.deliveries;
    return {
      publishedCount: this.publishedCount,
      publishedSum: this.publishedSum,
      received: d.received,
      duplicated: d.duplicated,
      foreign: d.foreign,
      count: d.count,
      seqSum: d.seqSum,
      subscriberNotes: this.subscriber?.notes() ?? [],
    };
  }

  /** Every part's publishes, and what part 0's subscriber received of them. */
  absorb(ledgers: readonly Ledger[]) {
    const d = this.deliveries;
    // Arrays by global publisher; a sparse one arrives with nulls.
    const add = (to: number[], from: unknown) => {
      const f = from as (number | null)[];
      for (let p = 0; p < f.length; p++) to[p] = (to[p] ?? 0) + (f[p] ?? 0);
    };
    for (const l of ledgers) {
      add(this.publishedCount, l.publishedCount);
      add(this.publishedSum, l.publishedSum);
      d.received += Number(l.received);
      d.duplicated += Number(l.duplicated);
      d.foreign += Number(l.foreign);
      add(d.count, l.count);
      add(d.seqSum, l.seqSum);
      this.subscriberNotes.push(...(l.subscriberNotes as string[]));
    }
    this.publishedTotal = this.publishedCount.reduce((a, b) => a + b, 0);
  }

  /** Published messages never received, those the listener's gaps explain and the rest (a run whose loops reconnect). */
  private missing(): { inGaps: number; lost: number } {
    const gaps = this.subscriber instanceof ListenSubscriber ? this.subscriber.gaps : [];
    return this.times?.missing(gaps, (p, seq) => this.deliveries.has(p, seq)) ?? { inGaps: 0, lost: 0 };
  }

  /** The publishes in doubt, settled by the table: a row with its publisher and sequence number was stored (and, modded,
   *  notified); counted published from here on. Returns how many were stored. */
  private async settleDoubts(admin: pg.Client): Promise<number> {
    if (!this.doubts.length) return 0;
    const { rows } = await admin.query<{ p: number; s: string }>(
      `SELECT (payload->>'p')::int AS p, (payload->>'s')::bigint AS s FROM ${this.sql.table}
       WHERE ((payload->>'p')::int, (payload->>'s')::bigint) IN (SELECT * FROM unnest($1::int[], $2::bigint[]))`,
      [this.doubts.map((d) => d[0]), this.doubts.map((d) => d[1])],
    );
    const stored = new Set(rows.map((r) => `${r.p}:${r.s}`));
    for (const [p, seq, failedAt] of this.doubts) {
      if (!stored.has(`${p}:${seq}`)) continue; // never happened: its reply stays unknown (PublishTimes)
      // Committed before its error, if at all: that is its reply time, for the listener's gaps.
      this.times?.replied(p, seq, failedAt);
      this.publishedCount[p]++;
      this.publishedSum[p] += seq;
      this.publishedTotal++;
    }
    return stored.size;
  }

  async verify(admin: pg.Client): Promise<WorkloadVerification> {
    const problems: string[] = [];
    const d = this.deliveries;
    const stored = await this.settleDoubts(admin);
    // The table against the publishers: per publisher, its rows, their distinct sequence numbers and their sum.
    const r = await admin.query<{ p: number | null; n: string; distinct_n: string; seq_sum: string }>(this.sql.perPublisher);
    let rows = 0;
    let countsMatch = true;
    const seen = new Set<number>();
    for (const row of r.rows) {
      const n = Number(row.n);
      rows += n;
      const p = row.p === null ? -1 : Number(row.p);
      if (!(p >= 0 && p < this.publishedCount.length)) {
        countsMatch = false;
        problems.push(`the messages table holds ${countWords(n, "row")} no publisher of this run inserted`);
        continue;
      }
      seen.add(p);
      if (n !== this.publishedCount[p] || Number(row.distinct_n) !== n || Number(row.seq_sum) !== this.publishedSum[p]) {
        countsMatch = false;
        problems.push(
          `publisher ${p}: published ${countWords(this.publishedCount[p], "message")} (sequence numbers summing to ${this.publishedSum[p]}), the table holds ${n} (${row.distinct_n} distinct, summing to ${row.seq_sum})`,
        );
      }
    }
    for (let p = 0; p < this.publishedCount.length; p++)
      if (!seen.has(p) && this.publishedCount[p] > 0) {
        countsMatch = false;
        problems.push(`publisher ${p}: published ${countWords(this.publishedCount[p], "message")}, the table holds none of them`);
      }
    // What the subscriber received against what was published; in a run whose loops reconnect, less what the
    // listener missed while it reconnected (NOTIFY is not durable: those never come).
    const missed = this.missing().inGaps;
    const lost = d.lost(this.publishedCount) - missed;
    const noun = this.ctx.config.variant === "modded" ? "notification" : "message";
    if (lost)
      problems.push(
        `${lost.toLocaleString("en-US")} published ${unitWords(noun, lost)} never received within ${DELIVERY_GRACE_MS / 1000} s of the last publish (received ${d.received.toLocaleString("en-US")} of ${this.publishedTotal.toLocaleString("en-US")})`,
      );
    if (d.duplicated) problems.push(`${countWords(d.duplicated, noun)} received more than once`);
    if (d.foreign) problems.push(`${countWords(d.foreign, noun)} received that no publisher of this run sent`);
    for (let p = 0; p < this.publishedCount.length; p++)
      if ((d.seqSum[p] ?? 0) > this.publishedSum[p])
        problems.push(`publisher ${p}: the subscriber received sequence numbers it did not publish (sum ${d.seqSum[p]} > ${this.publishedSum[p]})`);
    this.notes.push(
      `delivered ${d.received.toLocaleString("en-US")} of ${this.publishedTotal.toLocaleString("en-US")} published message(s) (${this.ctx.config.variant === "modded" ? "LISTEN" : `polling ${countWords(this.ctx.config.channels, "channel")} every ${POLL_INTERVAL_MS} ms`})`,
      ...(this.subscriber?.notes() ?? this.subscriberNotes),
    );
    if (this.doubts.length)
      this.notes.push(
        `${countWords(this.doubts.length, "publish")} in doubt (a connection lost before the reply), settled from the table: ${stored} stored, ${this.doubts.length - stored} not`,
      );
    if (missed)
      this.notes.push(
        `${countWords(missed, noun)} missed while the listener reconnected: NOTIFY is not durable, and a notification committed between the listener's lost connection and its new LISTEN reaches no one (a measured fact of LISTEN/NOTIFY, not a failure)`,
      );
    const tableMatches = countsMatch && rows === this.publishedTotal;
    return {
      ok: problems.length === 0,
      checked: this.publishedTotal,
      problems,
      facts: [
        { name: "never received", value: lost, ok: lost === 0 },
        { name: "received more than once", value: d.duplicated, ok: d.duplicated === 0 },
        { name: "received that no publisher sent", value: d.foreign, ok: d.foreign === 0 },
        { name: "the table holds what was published", value: tableMatches, ok: tableMatches },
        // A run whose loops reconnect: what was missed in the listener's gaps, and the publishes in doubt.
        // (Polling, baseline, misses nothing: the table keeps every message.)
        ...(this.ctx.reconnect && this.ctx.config.variant === "modded"
          ? [{ name: "missed while the listener reconnected (NOTIFY is not durable)", value: missed, ok: true }]
          : []),
        ...(this.ctx.reconnect ? [inDoubtFact(this.doubts.length)] : []),
      ],
      unreadAtEnd: lost,
    };
  }
}

export const notify = yongModule<NotifyConfig>("notify", (ctx) => new NotifyWorkload(ctx));
