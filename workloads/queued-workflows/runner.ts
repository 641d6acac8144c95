// Queued workflows: DBOS's queue path, statement for statement (sql.ts), without DBOS. Enqueuers insert
// ENQUEUED workflows on the shared schedule; each worker runs one poll loop per queue on its poller connection
// (the loops take turns on it) and hands what it claimed to its executors, which start and complete each
// workflow. Enqueuers and workers are separate loops on separate connections, so a bottleneck on either side
// shows: enqueues fall behind their schedule, or the backlog grows.
import { createHash, randomUUID } from "node:crypto";
import type pg from "pg";
import { owned } from "../../lib/workloads/parts";
import { clock, isConnectionError, rollbackQuietly, type TargetClient } from "../../runner/core";
import {
  brokerOperations,
  inDoubtFact,
  type Ledger,
  stepFailed,
  type WorkloadContext,
  type WorkloadModule,
  type WorkloadRun,
  type WorkloadVerification,
} from "../runtime";
import type { QueuedWorkflowsConfig } from "./definition";
import { type Claimed, type QwLedger, QwRecord } from "./ledger";
import { createQwSchema } from "./schema";
import { currentTail, insertColumns, onConflict217, qwSql } from "./sql";
import { VALUES } from "../dbos/schema";
import { agree, countWords } from "../../lib/words";
import { verifyQueuedWorkflows } from "./verify";
import { APP_NAME, Conn, dequeue, type RunAt, startAndComplete, wakeAll, type WorkerContext, type WorkerState } from "./worker-steps";
import { type DoubtWrite, doubtTotal, qwDoubtNote, rowsOf, settleClaims, settleRun } from "./doubts";

/** Postgres' errors the library treats as contention on the queue (it doubles its polling interval). */
const CONTENTION = new Set(["40001", "55P03"]);
/** The library's cap on the backed-off polling interval. */
const MAX_POLL_MS = 120_000;

/** The queue names, as the study's scripts name them ("bench-queue"; "bench-queue-3" when there are several). */
export function queueNames(c: Pick<QueuedWorkflowsConfig, "queues" | "queuePartitions">): string[] {
  const base = c.queuePartitions ? "bench-partition-queue" : "bench-queue";
  return c.queues === 1 ? [base] : Array.from({ length: c.queues }, (_, i) => `${base}-${i}`);
}

class QueuedWorkflowsRun implements WorkloadRun {
  readonly roles: string[];
  readonly notes: string[] = [];
  /** The config, statements, queue names and application version every worker shares. The version is a hash of the
   *  run's schema, so the same in every part of a run, as every process of one application has one. */
  private readonly w: WorkerContext;
  private enqueuerLoops: Promise<void>[] = [];
  private workerLoops: Promise<void>[] = [];
  /** What this instance counted of its workflows, which verification reads. */
  private readonly record: QwRecord;
  private sampler: NodeJS.Timeout | undefined;
  private enqueueSeq = 0;
  /** The global indexes of the enqueuers and workers this instance runs (all of them without a part). */
  private readonly ownedEnqueuers: number[];
  private readonly ownedWorkers: number[];
  /** The broker's operations in the run's recorder: the enqueue (write), and the queue's claim, run (read) and e2e. */
  private readonly ops: ReturnType<typeof brokerOperations>;
  readonly readers = { start: (clients: TargetClient[]) => this.startWorkers(clients), done: () => this.workersDone() };

  constructor(private readonly ctx: WorkloadContext<QueuedWorkflowsConfig>) {
    const c = ctx.config;
    this.ops = brokerOperations(ctx.stats);
    this.w = { config: c, sql: qwSql(ctx.schema), names: queueNames(c), appVersion: createHash("md5").update(ctx.schema).digest("hex") };
    this.ownedEnqueuers = owned(c.enqueuers, ctx.part);
    this.ownedWorkers = owned(c.workers, ctx.part);
    // A part opens the connections of the enqueuers and workers it owns, under their global names.
    this.roles = [
      ...this.ownedEnqueuers.map((i) => `enqueuer ${i}`),
      ...this.ownedWorkers.flatMap((w) => [`worker ${w} poller`, ...Array.from({ length: c.executors }, (_, e) => `worker ${w} executor ${e}`)]),
    ];
    this.record = new QwRecord(c.queues, c.workers);
  }

  async setup(admin: pg.Client) {
    await createQwSchema(admin, this.ctx.schema, this.ctx.config.profile, this.w.appVersion, APP_NAME);
  }

  private async startWorkers(clients: TargetClient[]) {
    const per = 1 + this.ctx.config.executors;
    this.workerLoops = this.ownedWorkers.map((w, j) => this.worker(w, clients.slice(j * per, (j + 1) * per)));
    this.sampler = setInterval(() => {
      const r = this.record;
      for (let q = 0; q < this.w.names.length; q++) r.peakBacklog[q] = Math.max(r.peakBacklog[q], r.enqueuedPerQueue[q] - r.completedPerQueue[q]);
    }, 1000);
    this.sampler.unref(); // a failed run must not be kept alive by it
  }

  startWriters(clients: TargetClient[]) {
    // The pacer is the part's own: its loops are numbered 0 … k − 1 as its share of the schedule (the engine's writer lag).
    this.enqueuerLoops = clients.map((tc, j) => this.enqueuer(tc, j));
  }

  writersDone() {
    return Promise.all(this.enqueuerLoops).then(() => undefined);
  }
  private workersDone() {
    return Promise.all(this.workerLoops)
      .then(() => undefined)
      .finally(() => clearInterval(this.sampler));
  }

  // ---------- enqueue ----------

  private enqueuer(tc: TargetClient, index: number) {
    const { config: c, pacer, writersStop: stop } = this.ctx;
    const write = this.ops.write;
    const conn = new Conn(tc);
    const current = c.profile === "current";
    const insert = current ? this.w.sql.insertCurrent : this.w.sql.insert217;
    // The 2.17 enqueuer is a DBOS process: its executor id and version go in the row. The current one enqueues
    // through DBOSClient, which sets neither.
    const executorId = randomUUID();
    // One workflow, when the pacer says it is due.
    return pacer.loop(index, stop, 1, async (slot) => {
      const queue = this.enqueueSeq++ % this.w.names.length;
      const id = randomUUID();
      const pk = c.queuePartitions ? `p${String(Math.floor(Math.random() * c.queuePartitions)).padStart(8, "0")}` : null;
      const common = { workflow_uuid: id, status: "ENQUEUED", name: VALUES.workflowName, recovery_attempts: 0, queue_name: this.w.names[queue] };
      const shared = { inputs: VALUES.inputs, priority: 0, queue_partition_key: pk, serialization: VALUES.serialization };
      const values = current
        ? [...insertColumns({ ...common, ...shared }), ...currentTail(APP_NAME)]
        : [
            ...insertColumns({
              ...common,
              ...shared,
              executor_id: executorId,
              application_version: this.w.appVersion,
              application_id: "",
              owner_xid: randomUUID(),
            }),
            ...onConflict217(0),
          ];
      const t0 = write.send();
      // In flight before it is sent: a worker may claim it before the COMMIT's reply reaches this loop.
      this.record.inFlight.set(id, { t: t0, queue });
      let committing = false;
      try {
        await conn.run("BEGIN");
        await conn.run(insert, values);
        committing = true;
        await conn.run("COMMIT");
        write.answered(t0, 1, slot);
        this.record.enqueuedIds.add(id);
        this.record.enqueuedPerQueue[queue]++;
        return true;
      } catch (err) {
        // Gone from the flight already: a worker completed it, so its COMMIT took effect before the reply was lost.
        const taken = !this.record.inFlight.delete(id);
        if (taken) this.record.storedInDoubt(id, queue);
        // Else a COMMIT whose reply was lost (a run whose loops reconnect): stored or not, settled by a worker that
        // completes it or at verification.
        const inDoubt = committing && !taken ? () => this.record.doubtEnqueues.set(id, queue) : undefined;
        return !(await stepFailed(this.ctx, tc, err, { what: "enqueue", count: () => write.failed(1), pause: () => stop.sleep(1), inDoubt, stop }));
      }
    });
  }

  // ---------- workers ----------

  /** One worker: a poll loop per queue sharing the poller connection, and its executors. */
  private async worker(w: number, clients: TargetClient[]) {
    const [poller, ...executorClients] = clients;
    const state: WorkerState = {
      local: [],
      executorId: randomUUID(),
      running: new Array(this.w.names.length).fill(0),
      waiters: [],
      turn: Promise.resolve(),
      claiming: [],
      doubtClaims: [],
    };
    const pollConn = new Conn(poller);
    const polls = this.w.names.map((_, q) => this.pollLoop(pollConn, q, state));
    const executors = executorClients.map((tc) => this.executor(new Conn(tc), state));
    await Promise.all(polls);
    wakeAll(state);
    await Promise.all(executors);
    this.record.heldAtStop[w] = state.local.length;
    // Claims in doubt the poller never got to read back: verification settles them.
    for (const c of state.doubtClaims) this.record.unsettledClaims.push([c.id, c.queue, state.executorId]);
  }

  /** The library's queue thread: sleep the interval × U(0.95, 1.05), dequeue, back off on contention. */
  private async pollLoop(conn: Conn, q: number, state: WorkerState) {
    const { config: c, readersStop: stop } = this.ctx;
    const g = this.ops.groups[0];
    let interval = c.pollMs;
    const maxInterval = Math.max(c.pollMs, MAX_POLL_MS);
    while (!stop.stopped) {
      // A pause-workers phase stops the polls (what was claimed still runs to its end on the executors).
      await this.ctx.readersPause?.pass(stop);
      interval = Math.max(c.pollMs, Math.min(interval, maxInterval));
      await stop.sleep(interval * (0.95 + Math.random() * 0.1));
      if (stop.stopped) break;
      // The worker's queue loops take turns on its one poller connection; a failed poll rolls back before the
      // next one starts on it.
      // What a poll claimed goes to the executors as soon as its transaction commits: a partitioned poll that
      // fails at its fifth key has claimed the first four's workflows (the library has dispatched them too).
      const hand = (ids: string[]) => {
        for (const id of ids) state.local.push({ id, queue: q });
        state.running[q] += ids.length;
        wakeAll(state);
      };
      const what = `dequeue ${this.w.names[q]}`;
      const mine = state.turn.then(async (): Promise<number | "reconnected" | "exit"> => {
        const t0 = g.claim.send();
        try {
          // Claims in doubt since the poller's connection went: read back on the new one before the next poll.
          if (state.doubtClaims.length) await this.settleClaims(conn, state);
          const n = await dequeue(this.w, conn, q, state, hand);
          g.claim.timed(t0);
          return n;
        } catch (err) {
          const claiming = state.claiming;
          state.claiming = [];
          if (!this.ctx.reconnect || !isConnectionError(err, conn.tc)) {
            await rollbackQuietly(conn.tc.client);
            throw err;
          }
          // A lost connection, in a run whose loops reconnect: reopened inside this poll's turn, so the worker's
          // other polls wait for the new connection rather than reopen it too.
          const inDoubt = claiming.length ? () => state.doubtClaims.push(...claiming) : undefined;
          const exit = await stepFailed(this.ctx, conn.tc, err, { what, count: () => g.read.failed(), pause: null, inDoubt, stop });
          return exit ? "exit" : "reconnected";
        }
      });
      state.turn = mine.catch(() => undefined);
      try {
        const n = await mine;
        if (n === "exit") return;
        if (n === 0) g.emptyPolls.add();
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code && CONTENTION.has(code)) {
          this.record.contention++;
          interval = Math.min(maxInterval, interval * 2);
        } else if (await stepFailed(this.ctx, conn.tc, err, { what, count: () => g.read.failed(), pause: null })) return;
      }
      interval = Math.max(c.pollMs, interval * 0.9);
    }
  }

  /** The claims in doubt of a worker, read back: those that committed go to its executors (./doubts.ts). */
  private async settleClaims(conn: Conn, state: WorkerState) {
    const rows = await rowsOf(
      conn.tc.client,
      this.ctx.schema,
      state.doubtClaims.map((c) => c.id),
    );
    for (const c of settleClaims(state.doubtClaims.splice(0), rows, state.executorId, this.record.doubts)) {
      state.local.push(c);
      state.running[c.queue]++;
    }
    wakeAll(state);
  }

  /** Starts and completes claimed workflows, one at a time, until the workers stop. */
  private async executor(conn: Conn, state: WorkerState) {
    const { readersStop: stop } = this.ctx;
    const g = this.ops.groups[0];
    /** A claimed workflow whose connection went (a run whose loops reconnect), to read back on the new one. */
    let unsettled: { claimed: Claimed; doubt: DoubtWrite } | null = null;
    while (!stop.stopped) {
      if (unsettled) {
        const { claimed, doubt } = unsettled;
        try {
          const rows = await rowsOf(conn.tc.client, this.ctx.schema, [claimed.id]);
          unsettled = null;
          const how = settleRun(doubt, rows.get(claimed.id), this.ctx.config.profile, this.record.doubts);
          state.running[claimed.queue]--;
          if (how === "completed") this.completedOne(claimed, g.e2e, clock());
          else if (how !== "gone") {
            // Run again from where its row stands, as the library's recovery runs its own PENDING workflows.
            this.record.doubts.resumed++;
            state.local.unshift({ ...claimed, startDone: how.startDone });
            state.running[claimed.queue]++;
          }
        } catch (err) {
          if (await stepFailed(this.ctx, conn.tc, err, { what: "read back", count: () => g.read.failed(), pause: null, stop })) break;
        }
        continue;
      }
      const next = state.local.shift();
      if (!next) {
        await Promise.race([new Promise<void>((r) => state.waiters.push(r)), stop.sleep(1000)]);
        continue;
      }
      const t0 = g.read.send();
      const at: RunAt = { doubt: null };
      try {
        if (!(await startAndComplete(this.w, conn, state, next, at))) this.record.completedNoRow++;
      } catch (err) {
        const committing = at.doubt;
        if (this.ctx.reconnect && isConnectionError(err, conn.tc)) unsettled = { claimed: next, doubt: null };
        // The workflow stays claimed (PENDING) in the table; the library would recover it later, this run reports it.
        else state.running[next.queue]--;
        const inDoubt = () => {
          if (unsettled) unsettled.doubt = committing;
        };
        if (await stepFailed(this.ctx, conn.tc, err, { what: "start/complete", count: () => g.read.failed(), pause: () => stop.sleep(1), inDoubt, stop }))
          break;
        continue;
      }
      const te = g.read.answered(t0);
      state.running[next.queue]--;
      this.completedOne(next, g.e2e, te);
    }
    // Its connection went and the run stopped before it read the workflow back: verification settles it.
    if (unsettled) this.record.unsettledRuns.push([unsettled.claimed.id, unsettled.claimed.queue, unsettled.doubt]);
  }

  /** A workflow a worker completed, in the record: its delivery timed from its enqueue when this instance sent it. */
  private completedOne(next: Claimed, e2e: { span(from: number, to: number): unknown }, te: number) {
    const sent = this.record.completed(next.id);
    if (sent) {
      if (!Number.isNaN(sent.t)) e2e.span(sent.t, te);
    } else if (this.ctx.part) this.record.completedElsewhere.push(next);
    else this.record.completedUnknown++;
  }

  // ---------- verification ----------

  ledger(): Ledger {
    return this.record.ledger() as unknown as Ledger;
  }

  /** Every part's record, absorbed into this one's (QwRecord.absorb). */
  absorb(ledgers: readonly Ledger[]) {
    const parts = ledgers as unknown as QwLedger[];
    const crossed = this.record.absorb(parts);
    if (parts.length > 1)
      this.notes.push(
        `over ${parts.length} runner processes: ${countWords(crossed, "workflow")} ${agree(crossed, "were", "was")} completed by another process than the one that enqueued them (their e2e latency is not timed: each process times its own); backlog peaks are each process's own, added`,
      );
  }

  async verify(admin: pg.Client): Promise<WorkloadVerification> {
    const { verification, notes } = await verifyQueuedWorkflows(admin, this.ctx.schema, this.w.names, this.record, this.ctx.config.profile);
    this.notes.push(...notes);
    const note = qwDoubtNote(this.record.doubts);
    if (note) this.notes.push(note);
    // A run whose loops reconnect states how many operations were in doubt, 0 included: each settled (by its
    // worker, or above), so the digests the other facts compare are exact.
    if (this.ctx.reconnect) verification.facts.push(inDoubtFact(doubtTotal(this.record.doubts)));
    return verification;
  }
}

export const queuedWorkflows: WorkloadModule<QueuedWorkflowsConfig> = {
  kind: "queued-workflows",
  groupNames: () => ["queue"],
  writerCount: (c, part) => owned(c.enqueuers, part).length,
  create: (ctx) => new QueuedWorkflowsRun(ctx),
};
