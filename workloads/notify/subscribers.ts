// The notify workload's subscribers (server-only), one dedicated connection each way:
// - polling (baseline): one loop per channel, a poll every 100 ms on a fixed schedule (the next poll is due
//   100 ms after the previous one was due, never earlier: timers fire early), a full page polled again at once;
// - LISTEN (modded): LISTEN on every channel; the trigger's pg_notify delivers each message at its commit.
// Both hand every message to Deliveries, which times it from its publish (the runner's clock, in the payload)
// and checks it arrives once.
import type pg from "pg";
import { clock, isConnectionError, type Operation, type Pacer, type Stopper, type TargetClient } from "../../runner/core";
import type { Gap } from "./gaps";
import { channelName, type notifySql, POLL_LIMIT, parseMessage, type ReceivedMessage } from "./sql";

export const POLL_INTERVAL_MS = 100;

/** Each publisher's messages received, as a growing bitmap of sequence numbers (constant memory per message). */
export class Deliveries {
  private seen: Uint8Array[] = [];
  received = 0;
  duplicated = 0;
  /** Messages not from one of this run's publishers (a row or notification nobody published). */
  foreign = 0;
  /** Per publisher: messages received and the sum of their sequence numbers. */
  readonly count: number[] = [];
  readonly seqSum: number[] = [];

  constructor(
    private readonly publishers: number,
    /** Told each first delivery: when it was published and when it arrived (clock ms). */
    private readonly onDelivered: (publishedAt: number, now: number) => void,
  ) {}

  /** Takes one message (a row's or a notification's payload); returns it when it is one of this run's. */
  deliver(text: string, now = clock()): ReceivedMessage | null {
    const m = parseMessage(text);
    if (!m || m.p < 0 || m.p >= this.publishers || m.s < 1) {
      this.foreign++;
      return null;
    }
    let bits = this.seen[m.p];
    if (!bits || bits.length <= m.s >> 3) {
      const grown = new Uint8Array(Math.max(1024, (m.s >> 3) * 2));
      if (bits) grown.set(bits);
      this.seen[m.p] = bits = grown;
    }
    const mask = 1 << (m.s & 7);
    if (bits[m.s >> 3] & mask) {
      this.duplicated++;
      return m;
    }
    bits[m.s >> 3] |= mask;
    this.received++;
    this.count[m.p] = (this.count[m.p] ?? 0) + 1;
    this.seqSum[m.p] = (this.seqSum[m.p] ?? 0) + m.s;
    this.onDelivered(m.t, now);
    return m;
  }

  /** Whether publisher `p`'s message `seq` was received. */
  has(p: number, seq: number): boolean {
    return ((this.seen[p]?.[seq >> 3] ?? 0) & (1 << (seq & 7))) !== 0;
  }

  /** Messages of `published[p]` (sequence numbers 1..published[p]) never received. */
  lost(published: readonly number[]): number {
    let lost = 0;
    for (let p = 0; p < published.length; p++) lost += Math.max(0, published[p] - (this.count[p] ?? 0));
    return lost;
  }
}

export interface Subscriber {
  /** Resolves once it listens (LISTEN) or has polled every channel once. */
  start(): Promise<void>;
  /** Resolves when its loops have exited (after the stopper stopped). */
  done(): Promise<void>;
  /** Remarks for the summary (the NOTIFY queue's usage). */
  notes(): string[];
}

/** One poll loop per channel on one connection (their polls take turns on it), each poll counted and timed as `poll`. */
export class PollingSubscriber implements Subscriber {
  private loops: Promise<void>[] = [];
  /** The poll last queued on the connection: the next one starts after it (a client runs one query at a time). */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    /** Its connection: read per statement (a run whose loops reconnect gives it a new one). */
    private readonly tc: TargetClient,
    private readonly sql: ReturnType<typeof notifySql>,
    private readonly channels: number,
    private readonly deliveries: Deliveries,
    private readonly stop: Stopper,
    /** The run's pacer: the polls' timer. */
    private readonly pacer: Pacer,
    private readonly hooks: { poll: Operation; onError: (err: unknown) => Promise<boolean> },
  ) {}

  async start() {
    const first: Promise<void>[] = [];
    const t0 = this.pacer.clock.now();
    this.loops = Array.from({ length: this.channels }, (_, i) => {
      let polled!: () => void;
      first.push(new Promise<void>((r) => (polled = r)));
      // Staggered over the interval, so the channels' polls do not all queue at once.
      return this.loop(channelName(i), t0 + (i * POLL_INTERVAL_MS) / this.channels, polled);
    });
    await Promise.all(first);
  }

  private async loop(channel: string, first: number, polled: () => void) {
    let tx = "0";
    let id = "0";
    let firstPoll = true;
    const interval = this.pacer.every(first, POLL_INTERVAL_MS);
    while (!this.stop.stopped) {
      if (!(await interval.wait(this.stop))) break;
      let rows: { id: string; tx: string; payload: string }[];
      do {
        let t = 0;
        try {
          const got = await this.inTurn(async () => {
            t = this.hooks.poll.send(); // timed from its own start, not from waiting for another channel's poll
            try {
              return (await this.tc.client.query<{ id: string; tx: string; payload: string }>(this.sql.poll, [channel, tx, id])).rows;
            } catch (err) {
              if (!isConnectionError(err, this.tc)) throw err;
              // A lost connection is handled inside the turn: the other channels' polls wait for its new one (a run
              // whose loops reconnect), and poll on from where they were (the table keeps every message).
              return (await this.hooks.onError(err)) ? "exit" : "again";
            }
          });
          if (got === "exit") return;
          if (got === "again") break;
          rows = got;
        } catch (err) {
          if (await this.hooks.onError(err)) return;
          break;
        }
        const now = this.hooks.poll.answered(t);
        for (const r of rows) {
          this.deliveries.deliver(typeof r.payload === "string" ? r.payload : JSON.stringify(r.payload), now);
          tx = String(r.tx);
          id = String(r.id);
        }
      } while (rows.length === POLL_LIMIT && !this.stop.stopped);
      if (firstPoll) {
        firstPoll = false;
        polled();
      }
    }
    if (firstPoll) polled();
  }

  private inTurn<T>(f: () => Promise<T>): Promise<T> {
    const mine = this.turn.then(f);
    this.turn = mine.catch(() => undefined);
    return mine;
  }

  done() {
    return Promise.all(this.loops).then(() => undefined);
  }
  notes() {
    return [];
  }
}

/**
 * LISTEN on every channel on a dedicated connection. Notifications are delivered as they arrive; the
 * connection also reads pg_notification_queue_usage() once a second (a full queue makes publishers' commits
 * fail), and the largest share is reported. In a run whose loops reconnect, a lost connection is replaced and
 * LISTEN issued again on the new one; what committed in between is missed (NOTIFY is not durable), and the gap
 * is kept for verification (./gaps.ts).
 */
export class ListenSubscriber implements Subscriber {
  private loop: Promise<void> = Promise.resolve();
  maxQueueUsage = 0;
  /** The listener's gaps: each from its connection's loss to its new LISTEN (./gaps.ts). */
  readonly gaps: Gap[] = [];
  /** The stamp of the last notification delivered on the current connection, or when its LISTEN was sent. */
  private since = 0;
  /** Where the open gap begins (`since` when the connection was found lost); null while listening. */
  private gapFrom: number | null = null;
  /** The client the notification handler is on. */
  private listening: pg.Client | null = null;
  private readonly onNotification = (m: pg.Notification) => {
    const got = this.deliveries.deliver(m.payload ?? "");
    if (got) this.since = got.t;
  };

  constructor(
    /** Its connection: read per statement (a run whose loops reconnect gives it a new one). */
    private readonly tc: TargetClient,
    private readonly sql: ReturnType<typeof notifySql>,
    private readonly channels: number,
    private readonly deliveries: Deliveries,
    private readonly stop: Stopper,
    /** The run's pacer: the queue-usage reading's timer. */
    private readonly pacer: Pacer,
    private readonly onError: (err: unknown) => Promise<boolean>,
  ) {}

  async start() {
    await this.listen();
    this.loop = this.watchQueue();
  }

  /** LISTEN on every channel, on the connection the subscriber has now. */
  private async listen() {
    const client = this.tc.client;
    if (this.listening !== client) {
      this.listening?.off("notification", this.onNotification);
      client.on("notification", this.onNotification);
      this.listening = client;
    }
    // Before the LISTEN's reply: a notification that arrives with it moves `since` on (a lost LISTEN keeps the gap).
    this.since = clock();
    await client.query(Array.from({ length: this.channels }, (_, i) => `LISTEN ${channelName(i)};`).join(" "));
    if (this.gapFrom !== null) this.gaps.push({ from: this.gapFrom, to: clock() });
    this.gapFrom = null;
  }

  private async watchQueue() {
    const second = this.pacer.every(this.pacer.clock.now() + 1000, 1000);
    while (!this.stop.stopped) {
      try {
        if (this.gapFrom !== null) await this.listen();
        const r = await this.tc.client.query<{ usage: string | number }>(this.sql.queueUsage);
        this.maxQueueUsage = Math.max(this.maxQueueUsage, Number(r.rows[0].usage));
      } catch (err) {
        const lost = isConnectionError(err, this.tc);
        // The gap opens after the last notification the lost connection delivered (one lost again while it
        // listened anew keeps the gap it had).
        if (lost) this.gapFrom ??= this.since;
        if (await this.onError(err)) return;
        if (lost) continue;
      }
      await this.waitOrLoss(second);
    }
  }

  /** The next second's tick, or sooner the connection's loss, which this idle connection has no statement to find. */
  private async waitOrLoss(second: { wait(stop: Stopper): Promise<unknown> }) {
    const c = this.tc.client;
    if (this.tc.lost) return;
    let wake: () => void = () => undefined;
    const lost = new Promise<void>((r) => (wake = r));
    c.on("end", wake);
    c.on("error", wake);
    try {
      await Promise.race([second.wait(this.stop), lost]);
    } finally {
      c.off("end", wake);
      c.off("error", wake);
    }
  }

  async done() {
    await this.loop;
    this.listening?.off("notification", this.onNotification);
  }

  notes() {
    return [
      `NOTIFY queue: at most ${(this.maxQueueUsage * 100).toFixed(this.maxQueueUsage > 0 && this.maxQueueUsage < 0.001 ? 4 : 1)} % used (pg_notification_queue_usage(), read once a second; a full queue makes the publishers' commits fail)`,
    ];
  }
}
