// Queued workflows: DBOS's queue path, statement for statement (sql.ts), without DBOS. Enqueuers insert
// ENQUEUED workflows on the shared schedule; each worker runs one poll loop per queue on its poller connection
// (the loops take turns on it) and hands what it claimed to its executors, which start and complete each
// workflow. Enqueuers and workers are separate loops on separate connections, so a bottleneck on either side
// shows: enqueues fall behind their schedule, or the backlog grows.
import { createHash, randomUUID } from "node:crypto";
import type pg from "pg";
import { owned } from "../../lib/workloads/parts";
import { rollbackQuietly, type TargetClient } from "../../runner/core";
import { brokerOperations, type Ledger, stepFailed, type WorkloadContext, type WorkloadModule, type WorkloadRun, type WorkloadVerification } from "../runtime";
import type { QueuedWorkflowsConfig } from "./definition";
import { type QwLedger, QwRecord } from "./ledger";
import { createQwSchema } from "./schema";
import { currentTail, insertColumns, onConflict217, qwSql } from "./sql";
import { VALUES } from "../dbos/schema";
import { agree, countWords } from "../../lib/words";
import { verifyQueuedWorkflows } from "./verify";
import { APP_NAME, Conn, dequeue, startAndComplete, wakeAll, type WorkerContext, type WorkerState } from "./worker-steps";

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
      try {
        await conn.run("BEGIN");
        await conn.run(insert, values);
        await conn.run("COMMIT");
        write.answered(t0, 1, slot);
        this.record.enqueuedIds.add(id);
        this.record.enqueuedPerQueue[queue]++;
        return true;
      } catch (err) {
        this.record.inFlight.delete(id);
        return !(await stepFailed(this.ctx, tc, err, { what: "enqueue", count: () => write.failed(1), pause: () => stop.sleep(1) }));
      }
    });
  }

  // ---------- workers ----------

  /** One worker: a poll loop per queue sharing the poller connection, and its executors. */
  private async worker(w: number, clients: TargetClient[]) {
    const [poller, ...executorClients] = clients;
    const state: WorkerState = { local: [], executorId: randomUUID(), running: new Array(this.w.names.length).fill(0), waiters: [], turn: Promise.resolve() };
    const pollConn = new Conn(poller);
    const polls = this.w.names.map((_, q) => this.pollLoop(pollConn, q, state));
    const executors = executorClients.map((tc) => this.executor(new Conn(tc), state));
    await Promise.all(polls);
    wakeAll(state);
    await Promise.all(executors);
    this.record.heldAtStop[w] = state.local.length;
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
      const mine = state.turn.then(async () => {
        const t0 = g.claim.send();
        try {
          const n = await dequeue(this.w, conn, q, state, hand);
          g.claim.timed(t0);
          return n;
        } catch (err) {
          await rollbackQuietly(conn.tc.client);
          throw err;
        }
      });
      state.turn = mine.catch(() => undefined);
      try {
        if ((await mine) === 0) g.emptyPolls.add();
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code && CONTENTION.has(code)) {
          this.record.contention++;
          interval = Math.min(maxInterval, interval * 2);
        } else if (await stepFailed(this.ctx, conn.tc, err, { what: `dequeue ${this.w.names[q]}`, count: () => g.read.failed(), pause: null })) return;
      }
      interval = Math.max(c.pollMs, interval * 0.9);
    }
  }

  /** Starts and completes claimed workflows, one at a time, until the workers stop. */
  private async executor(conn: Conn, state: WorkerState) {
    const { readersStop: stop } = this.ctx;
    const g = this.ops.groups[0];
    const r = this.record;
    while (!stop.stopped) {
      const next = state.local.shift();
      if (!next) {
        await Promise.race([new Promise<void>((r) => state.waiters.push(r)), stop.sleep(1000)]);
        continue;
      }
      const { id, queue } = next;
      const t0 = g.read.send();
      try {
        if (!(await startAndComplete(this.w, conn, state, next))) this.record.completedNoRow++;
      } catch (err) {
        // The workflow stays claimed (PENDING) in the table; the library would recover it later, this run reports it.
        state.running[queue]--;
        if (await stepFailed(this.ctx, conn.tc, err, { what: "start/complete", count: () => g.read.failed(), pause: () => stop.sleep(1) })) return;
        continue;
      }
      const te = g.read.answered(t0);
      state.running[queue]--;
      const sent = r.inFlight.get(id);
      if (sent) {
        r.inFlight.delete(id);
        g.e2e.span(sent.t, te);
        r.completedIds.add(id);
        r.completedPerQueue[sent.queue]++;
      } else if (this.ctx.part) r.completedElsewhere.push(next);
      else r.completedUnknown++;
    }
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
    const { verification, notes } = await verifyQueuedWorkflows(admin, this.ctx.schema, this.w.names, this.record);
    this.notes.push(...notes);
    return verification;
  }
}

export const queuedWorkflows: WorkloadModule<QueuedWorkflowsConfig> = {
  kind: "queued-workflows",
  groupNames: () => ["queue"],
  writerCount: (c, part) => owned(c.enqueuers, part).length,
  create: (ctx) => new QueuedWorkflowsRun(ctx),
};
