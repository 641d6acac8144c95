// The request driver of Yong's workloads (server-only): what the article's k6 + Express API did, minus HTTP.
// Requests run on a pool of `pool` connections (the API's node-postgres Pool, default 10), started either by
// virtual users in a closed loop (send, wait for the answer, think, as k6 VUs) or on an open-loop timetable of
// `rate` requests/s, whatever the answers do: the engine core's pacer (runner/core/pacing.ts) runs both, as the
// definition declares its pacing; the driver supplies the request.
//
// Every request is timed twice: from its start (open loop: its scheduled start, so a slow target shows as
// latency, not as a lower rate) to its answer, pool wait included (the article's http_req_duration, without
// HTTP), and on its connection alone (its statements). A workload supplies its set-up, the next request of a
// virtual user or arrival, and its verification; the engine (runner/engine.ts) supplies phases and samples.
import type pg from "pg";
import { definitionOf, type WorkloadConfig } from "../../lib/workloads/config";
import { owned } from "../../lib/workloads/parts";
import type { TargetClient, Operation } from "../../runner/core";
import {
  ERROR_PAUSE_MS,
  type Ledger,
  type Readers,
  stepFailed,
  type WorkloadContext,
  type WorkloadModule,
  type WorkloadRun,
  type WorkloadVerification,
} from "../runtime";
import { POOL_WAIT_OP, STATEMENT_OP, TOTAL_OP, type YongCommon } from "./fields";

/** One request: the operation it counts as, and its statements on a pool connection (throws on failure). */
export interface YongRequest {
  op: string;
  run(tc: TargetClient): Promise<void>;
  /** It opens a transaction (a failure rolls it back); default: autocommit statements only. */
  transaction?: boolean;
  /** In a run whose loops reconnect (a kill-backend phase): its connection went before the reply to a statement it
   *  sent, which may or may not have taken effect; the workload records it in its ledger as in doubt. Absent: a
   *  request that changes nothing (a read). */
  inDoubt?(): void;
}

/** What a Yong workload supplies to the driver. */
export interface YongWorkload {
  /** Remarks for the summary (read after verify). */
  readonly notes: string[];
  /** Virtual users of the closed loop (all kinds together). */
  readonly vus: number;
  /** Creates and fills the workload's tables (inside ctx.schema). */
  setup(admin: pg.Client): Promise<void>;
  /** The next request of virtual user `vu` (0 … vus−1), or of an open-loop arrival (`null`). */
  next(vu: number | null): YongRequest;
  /** Checks what the requests did against what the target holds. Every request has ended. */
  verify(admin: pg.Client): Promise<WorkloadVerification>;
  /** Connections of its own beside the pool (a subscriber's), one per role, opened with the pool's. */
  readonly ownRoles?: string[];
  /** Starts what runs beside the requests on its own connections; resolves once it is ready for the first request. */
  startOwn?(clients: TargetClient[]): Promise<void>;
  /** Resolves when what runs beside the requests has exited (it stops on the engine's readers' stopper). */
  ownDone?(): Promise<void>;
  /** A part's record for the whole run's verify (workloads/runtime.ts WorkloadRun.ledger). */
  ledger?(): Ledger;
  /** On the coordinating instance: every part's ledger, before verify. */
  absorb?(ledgers: readonly Ledger[]): void;
}

/**
 * Open-loop requests in flight at once, at most. A target that cannot keep up makes requests pile up (waiting
 * for a pool connection); past this many, arrivals are dropped and counted, as k6's constant-arrival-rate
 * executor drops iterations once its maxVUs are busy, instead of growing the runner's memory without bound.
 */
export const MAX_IN_FLIGHT = 20_000;

/** The API's connection pool: FIFO hand-out of free connections to waiting requests, as node-postgres' Pool. */
export class ConnectionPool {
  private readonly free: TargetClient[];
  private readonly waiting: ((tc: TargetClient) => void)[] = [];
  constructor(clients: TargetClient[]) {
    this.free = [...clients];
  }
  acquire(): Promise<TargetClient> {
    const tc = this.free.pop();
    if (tc) return Promise.resolve(tc);
    return new Promise((resolve) => this.waiting.push(resolve));
  }
  release(tc: TargetClient) {
    const next = this.waiting.shift();
    if (next) next(tc);
    else this.free.push(tc);
  }
  /** Requests waiting for a connection. */
  get queued() {
    return this.waiting.length;
  }
}

class YongRun<C extends YongCommon> implements WorkloadRun {
  readonly roles: string[];
  private loops: Promise<void>[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private dropped = 0;
  private readonly total: Operation;
  private readonly statement: Operation;
  private readonly poolWait: Operation;
  /** The workload's own connections beside the pool (notify's subscriber), when it has any. */
  readonly readers?: Readers;
  /** The global index of each of this part's virtual users (all of them without a part): the pacer counts its own
   *  0 … k − 1, the workload's requests are those of the global VU. */
  private readonly vuIds: number[];

  constructor(
    private readonly ctx: WorkloadContext<C & WorkloadConfig>,
    private readonly w: YongWorkload,
  ) {
    const pacing = ctx.pacer.pacing;
    this.vuIds = owned(w.vus, ctx.part);
    if (pacing.kind === "closed-loop" && pacing.virtualUsers !== this.vuIds.length)
      throw new Error(
        `internal: ${ctx.config.kind} declares ${pacing.virtualUsers} virtual users in its pacing but its requests are for ${this.vuIds.length}${ctx.part ? ` (part ${ctx.part.index} of ${ctx.part.of}: did the engine pace it with partPacing?)` : ""}`,
      );
    // A part opens the pool connections it owns, under their global names.
    this.roles = [...owned(ctx.config.pool, ctx.part).map((i) => `pool ${i}`), ...(w.ownRoles ?? [])];
    // Every declared operation from the start, so a run that never saw one (no empty dequeue) still reports 0.
    const metrics = definitionOf(ctx.config).metrics;
    for (const o of metrics.operations) ctx.stats.op(o.name);
    if (metrics.delivery) ctx.stats.op(metrics.delivery.name);
    this.total = ctx.stats.op(TOTAL_OP);
    this.statement = ctx.stats.op(STATEMENT_OP);
    this.poolWait = ctx.stats.op(POOL_WAIT_OP);
    // The engine's readers are the connections after the pool's: the workload's own (see ownRoles).
    const { startOwn, ownDone } = w;
    if (startOwn) this.readers = { start: (clients) => startOwn.call(w, clients), done: () => ownDone?.call(w) ?? Promise.resolve() };
  }

  get notes() {
    return this.w.notes;
  }

  setup(admin: pg.Client) {
    return this.w.setup(admin);
  }

  startWriters(clients: TargetClient[]) {
    const pool = new ConnectionPool(clients);
    const { pacer, writersStop: stop } = this.ctx;
    // The declared pacing decides: virtual users (pacing.virtualUsers of them, thinking pacing.thinkMs) or arrivals.
    if (pacer.pacing.kind === "open-loop") this.loops = [pacer.arrivals(stop, (due) => this.arrive(pool, due))];
    else this.loops = [pacer.virtualUsers(stop, async (vu) => (await this.request(pool, this.w.next(this.vuIds[vu]), this.total.send(), true)) !== "exit")];
  }

  writersDone() {
    return Promise.all(this.loops).then(async () => {
      while (this.inFlight.size) await Promise.all([...this.inFlight]);
    });
  }

  ledger(): Ledger {
    return { dropped: this.dropped, workload: this.w.ledger?.() ?? {} };
  }

  absorb(ledgers: readonly Ledger[]) {
    for (const l of ledgers) this.dropped += Number(l.dropped ?? 0);
    this.w.absorb?.(ledgers.map((l) => (l.workload ?? {}) as Ledger));
  }

  verify(admin: pg.Client) {
    if (this.dropped)
      this.w.notes.push(
        `${this.dropped.toLocaleString("en-US")} open-loop arrival(s) were dropped: ${MAX_IN_FLIGHT.toLocaleString("en-US")} requests were already in flight (the target did not keep up with ${this.ctx.config.rate.toLocaleString("en-US")} req/s)`,
      );
    return this.w.verify(admin);
  }

  /** An open-loop arrival due at `due`: its request runs on its own (timed from `due`), unless too many are in flight. */
  private arrive(pool: ConnectionPool, due: number) {
    if (this.inFlight.size >= MAX_IN_FLIGHT) {
      this.dropped++;
      return;
    }
    const p = this.request(pool, this.w.next(null), due, false).then(() => {
      this.inFlight.delete(p);
    });
    this.inFlight.add(p);
  }

  /**
   * Runs one request from `start` (the VU's send time, or the arrival's scheduled time) and records it. A
   * request still waiting for a connection when the window ends is not sent. "exit": the loop must stop.
   */
  private async request(pool: ConnectionPool, req: YongRequest, start: number, pauseOnError: boolean): Promise<"ok" | "failed" | "exit"> {
    const stop = this.ctx.writersStop;
    const asked = this.poolWait.send();
    const tc = await pool.acquire();
    if (stop.stopped) {
      pool.release(tc);
      return "exit";
    }
    const t0 = this.statement.send();
    const op = this.ctx.stats.op(req.op);
    try {
      await req.run(tc);
      // Its statements from their send; the request and the aggregate from its start, to the same answer.
      const te = this.statement.timed(t0);
      op.done();
      this.total.done();
      op.span(start, te);
      this.total.span(start, te);
      this.poolWait.span(asked, t0);
      return "ok";
    } catch (err) {
      const failed = {
        what: req.op,
        count: () => {
          op.failed();
          this.total.failed();
        },
        noTransaction: !req.transaction,
        pause: pauseOnError ? () => stop.sleep(ERROR_PAUSE_MS) : null,
        inDoubt: req.inDoubt && (() => req.inDoubt?.()),
        stop,
      };
      return (await stepFailed(this.ctx, tc, err, failed)) ? "exit" : "failed";
    } finally {
      pool.release(tc);
    }
  }
}

/** A Yong workload's runner module: every connection is a pool connection, started as the engine's "writers". */
export function yongModule<C extends YongCommon & WorkloadConfig>(
  kind: C["kind"],
  create: (ctx: WorkloadContext<C>) => YongWorkload,
): WorkloadModule<C> & { workload: (ctx: WorkloadContext<C>) => YongWorkload } {
  return {
    kind,
    // A part's "writers" are the pool connections it owns.
    writerCount: (c, part) => owned(c.pool, part).length,
    create: (ctx) => new YongRun<C>(ctx, create(ctx)),
    // The workload alone, without the driver: the mixed workload runs several of them on one driver.
    workload: create,
  };
}

/** An index in [0, n) with probability ∝ 1/(rank+1)^s (Zipf), from a precomputed cumulative table. */
export class ZipfSampler {
  private readonly cdf: Float64Array;
  constructor(n: number, s = 1) {
    this.cdf = new Float64Array(n);
    let sum = 0;
    for (let i = 0; i < n; i++) this.cdf[i] = sum += 1 / (i + 1) ** s;
    for (let i = 0; i < n; i++) this.cdf[i] /= sum;
  }
  next(): number {
    const u = Math.random();
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cdf[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
