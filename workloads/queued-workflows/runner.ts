// Queued workflows: DBOS's queue path, statement for statement (sql.ts), without DBOS. Enqueuers insert
// ENQUEUED workflows on the shared schedule; each worker runs one poll loop per queue on its poller connection
// (the loops take turns on it) and hands what it claimed to its executors, which start and complete each
// workflow. Enqueuers and workers are separate loops on separate connections, so a bottleneck on either side
// shows: enqueues fall behind their schedule, or the backlog grows.
import { createHash, randomUUID } from "node:crypto";
import type pg from "pg";
import { owned } from "../../lib/workloads/parts";
import { LeanQuery, rollbackQuietly, type TargetClient } from "../../runner/core";
import { brokerOperations, type Ledger, stepFailed, type WorkloadContext, type WorkloadModule, type WorkloadRun, type WorkloadVerification } from "../runtime";
import type { QueuedWorkflowsConfig } from "./definition";
import { type Claimed, IdDigest, type QwLedger } from "./ledger";
import { createQwSchema } from "./schema";
import { currentTail, IN_CHUNK, insertColumns, onConflict217, qwSql, type QwSql } from "./sql";
import { VALUES } from "../dbos/schema";
import { agree, countWords } from "../../lib/words";

/** The application name the study's queue script gives its DBOSClient and workers (current profile). */
const APP_NAME = "dbos-queue-bench";

/** A workflow id as the library writes it (a UUIDv4's text); anything else in the table is foreign. */
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Postgres' errors the library treats as contention on the queue (it doubles its polling interval). */
const CONTENTION = new Set(["40001", "55P03"]);
/** The library's cap on the backed-off polling interval. */
const MAX_POLL_MS = 120_000;
/** The current profile's partitioned dequeue considers at most this many keys per poll (captured). */
const PARTITION_SCAN_LIMIT = 8192;

/** The queue names, as the study's scripts name them ("bench-queue"; "bench-queue-3" when there are several). */
export function queueNames(c: Pick<QueuedWorkflowsConfig, "queues" | "queuePartitions">): string[] {
  const base = c.queuePartitions ? "bench-partition-queue" : "bench-queue";
  return c.queues === 1 ? [base] : Array.from({ length: c.queues }, (_, i) => `${base}-${i}`);
}

/** One connection's statements, each prepared once on it (LeanQuery), or unnamed for IN lists of any length. */
class Conn {
  private readonly prepared = new Map<string, LeanQuery>();
  constructor(readonly tc: TargetClient) {}
  run(text: string, values?: unknown[]): Promise<(string | null)[][]> {
    let q = this.prepared.get(text);
    if (!q) this.prepared.set(text, (q = new LeanQuery(text, values ? `qw${this.prepared.size}` : undefined)));
    return q.run(this.tc.client, values);
  }
  async unnamed(text: string, values: unknown[]): Promise<{ rows: (string | null)[][]; rowCount: number }> {
    const r = await this.tc.client.query({ text, values, rowMode: "array" });
    return { rows: r.rows as (string | null)[][], rowCount: r.rowCount ?? 0 };
  }
}

class QueuedWorkflowsRun implements WorkloadRun {
  readonly roles: string[];
  readonly notes: string[] = [];
  private readonly sql: QwSql;
  private readonly names: string[];
  /** The workers' application version: 32 hex digits, as the library's. The same in every part of a run (a hash
   *  of its schema), as every process of one application has one version: workers dequeue only their version's. */
  private readonly appVersion: string;
  private enqueuerLoops: Promise<void>[] = [];
  private workerLoops: Promise<void>[] = [];
  /** Enqueued, not yet completed: id → enqueue send time (runner clock) and queue. */
  private readonly inFlight = new Map<string, { t: number; queue: number }>();
  private readonly enqueuedIds = new IdDigest();
  private readonly completedIds = new IdDigest();
  private readonly enqueuedPerQueue: number[];
  private readonly completedPerQueue: number[];
  /** Per queue, the largest backlog the once-a-second sampler saw. */
  private readonly peakBacklog: number[];
  private sampler: NodeJS.Timeout | undefined;
  private enqueueSeq = 0;
  /** Completions of an id that was not in flight: completed twice, or never enqueued by this run. */
  private completedUnknown = 0;
  /** A part of a run over several processes: completions of ids not in its own flight (another part may have
   *  enqueued them), decided by the coordinator's absorb. */
  private readonly completedElsewhere: Claimed[] = [];
  /** The global indexes of the enqueuers and workers this instance runs (all of them without a part). */
  private readonly ownedEnqueuers: number[];
  private readonly ownedWorkers: number[];
  /** Completion UPDATEs (current profile, guarded by status PENDING) that matched no row. */
  private completedNoRow = 0;
  /** Polls that hit a serialization failure or a lock held (the library backs off). */
  private contention = 0;
  /** Claimed but not completed when the workers stopped, per worker. */
  private readonly heldAtStop: number[];
  /** The broker's operations in the run's recorder: the enqueue (write), and the queue's claim, run (read) and e2e. */
  private readonly ops: ReturnType<typeof brokerOperations>;
  readonly readers = { start: (clients: TargetClient[]) => this.startWorkers(clients), done: () => this.workersDone() };

  constructor(private readonly ctx: WorkloadContext<QueuedWorkflowsConfig>) {
    const c = ctx.config;
    this.ops = brokerOperations(ctx.stats);
    this.sql = qwSql(ctx.schema);
    this.appVersion = createHash("md5").update(ctx.schema).digest("hex");
    this.names = queueNames(c);
    this.ownedEnqueuers = owned(c.enqueuers, ctx.part);
    this.ownedWorkers = owned(c.workers, ctx.part);
    // A part opens the connections of the enqueuers and workers it owns, under their global names.
    this.roles = [
      ...this.ownedEnqueuers.map((i) => `enqueuer ${i}`),
      ...this.ownedWorkers.flatMap((w) => [`worker ${w} poller`, ...Array.from({ length: c.executors }, (_, e) => `worker ${w} executor ${e}`)]),
    ];
    this.enqueuedPerQueue = new Array(c.queues).fill(0);
    this.completedPerQueue = new Array(c.queues).fill(0);
    this.peakBacklog = new Array(c.queues).fill(0);
    this.heldAtStop = new Array(c.workers).fill(0);
  }

  async setup(admin: pg.Client) {
    await createQwSchema(admin, this.ctx.schema, this.ctx.config.profile, this.appVersion, APP_NAME);
  }

  private async startWorkers(clients: TargetClient[]) {
    const per = 1 + this.ctx.config.executors;
    this.workerLoops = this.ownedWorkers.map((w, j) => this.worker(w, clients.slice(j * per, (j + 1) * per)));
    this.sampler = setInterval(() => {
      for (let q = 0; q < this.names.length; q++) this.peakBacklog[q] = Math.max(this.peakBacklog[q], this.enqueuedPerQueue[q] - this.completedPerQueue[q]);
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
    const insert = current ? this.sql.insertCurrent : this.sql.insert217;
    // The 2.17 enqueuer is a DBOS process: its executor id and version go in the row. The current one enqueues
    // through DBOSClient, which sets neither.
    const executorId = randomUUID();
    // One workflow, when the pacer says it is due.
    return pacer.loop(index, stop, 1, async (slot) => {
      const queue = this.enqueueSeq++ % this.names.length;
      const id = randomUUID();
      const pk = c.queuePartitions ? `p${String(Math.floor(Math.random() * c.queuePartitions)).padStart(8, "0")}` : null;
      const common = { workflow_uuid: id, status: "ENQUEUED", name: VALUES.workflowName, recovery_attempts: 0, queue_name: this.names[queue] };
      const shared = { inputs: VALUES.inputs, priority: 0, queue_partition_key: pk, serialization: VALUES.serialization };
      const values = current
        ? [...insertColumns({ ...common, ...shared }), ...currentTail(APP_NAME)]
        : [
            ...insertColumns({
              ...common,
              ...shared,
              executor_id: executorId,
              application_version: this.appVersion,
              application_id: "",
              owner_xid: randomUUID(),
            }),
            ...onConflict217(0),
          ];
      const t0 = write.send();
      // In flight before it is sent: a worker may claim it before the COMMIT's reply reaches this loop.
      this.inFlight.set(id, { t: t0, queue });
      try {
        await conn.run("BEGIN");
        await conn.run(insert, values);
        await conn.run("COMMIT");
        write.answered(t0, 1, slot);
        this.enqueuedIds.add(id);
        this.enqueuedPerQueue[queue]++;
        return true;
      } catch (err) {
        this.inFlight.delete(id);
        return !(await stepFailed(this.ctx, tc, err, { what: "enqueue", count: () => write.failed(1), pause: () => stop.sleep(1) }));
      }
    });
  }

  // ---------- workers ----------

  /** One worker: a poll loop per queue sharing the poller connection, and its executors. */
  private async worker(w: number, clients: TargetClient[]) {
    const [poller, ...executorClients] = clients;
    const state: WorkerState = { local: [], executorId: randomUUID(), running: new Array(this.names.length).fill(0), waiters: [], turn: Promise.resolve() };
    const pollConn = new Conn(poller);
    const polls = this.names.map((_, q) => this.pollLoop(pollConn, q, state));
    const executors = executorClients.map((tc) => this.executor(new Conn(tc), state));
    await Promise.all(polls);
    wakeAll(state);
    await Promise.all(executors);
    this.heldAtStop[w] = state.local.length;
  }

  /** The library's queue thread: sleep the interval × U(0.95, 1.05), dequeue, back off on contention. */
  private async pollLoop(conn: Conn, q: number, state: WorkerState) {
    const { config: c, readersStop: stop } = this.ctx;
    const g = this.ops.groups[0];
    let interval = c.pollMs;
    const maxInterval = Math.max(c.pollMs, MAX_POLL_MS);
    while (!stop.stopped) {
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
          const n = await this.dequeue(conn, q, state, hand);
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
          this.contention++;
          interval = Math.min(maxInterval, interval * 2);
        } else if (await stepFailed(this.ctx, conn.tc, err, { what: `dequeue ${this.names[q]}`, count: () => g.read.failed(), pause: null })) return;
      }
      interval = Math.max(c.pollMs, interval * 0.9);
    }
  }

  /**
   * One dequeue poll of queue `q`: hands each committed claim to `hand` (in the current profile after its start,
   * the batch's read-back), and returns how many workflows it claimed.
   */
  private async dequeue(conn: Conn, q: number, state: WorkerState, hand: (ids: string[]) => void): Promise<number> {
    const c = this.ctx.config;
    const s = this.sql;
    const name = this.names[q];
    const nowMs = Date.now();
    let ids: string[] = [];
    if (c.profile === "2.17") {
      if (c.queuePartitions) {
        await conn.run("BEGIN");
        const keys = (await conn.run(s.partitions217, [name, "ENQUEUED"])).map((r) => r[0] as string);
        await conn.run("COMMIT");
        // One REPEATABLE READ transaction per key; an error (NOWAIT's lock not available) ends the whole poll.
        let claimed = 0;
        for (const key of keys) {
          await conn.run("BEGIN");
          await conn.run("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
          const running = (await conn.run(s.partitionRunning217, [name, "PENDING", key])).reduce((a, r) => a + Number(r[1]), 0);
          if (running < 1) {
            const got = (await conn.run(s.partitionDequeue217, [name, "ENQUEUED", this.appVersion, key, 1 - running])).map((r) => r[0] as string);
            for (const id of got) await conn.run(s.claim217, ["PENDING", state.executorId, this.appVersion, 1000, nowMs, id]);
            await conn.run("COMMIT");
            hand(got);
            claimed += got.length;
          } else await conn.run("COMMIT");
        }
        return claimed;
      }
      await conn.run("BEGIN");
      await conn.run("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
      ids = (await conn.run(s.dequeue217, [name, "ENQUEUED", this.appVersion])).map((r) => r[0] as string);
      // One UPDATE per claimed row, in the dequeue's transaction: the library's batch is one commit, not one statement.
      for (const id of ids) await conn.run(s.claim217, ["PENDING", state.executorId, this.appVersion, 1000, nowMs, id]);
      await conn.run("COMMIT");
      hand(ids);
      return ids.length;
    }
    // current: READ COMMITTED (only a per-worker limit is set); the version lookup opens the transaction.
    const app = APP_NAME;
    const claimHead = ["PENDING", state.executorId, 1000, this.appVersion, 1, nowMs, 1000, false, app];
    await conn.run("BEGIN");
    await conn.run(s.appVersionCurrent, [app, 1]);
    if (c.queuePartitions) {
      const heads = (await conn.run(s.partitionHeadsCurrent, [name, "ENQUEUED", app, 1, name, "PENDING", PARTITION_SCAN_LIMIT, this.appVersion, 1])).map(
        (r) => r[0] as string,
      );
      if (heads.length) {
        const locked = (await conn.unnamed(s.partitionLockCurrent(heads.length), [...heads, "ENQUEUED", name, this.appVersion, app])).rows.map(
          (r) => r[0] as string,
        );
        if (locked.length)
          ids = (await conn.unnamed(s.partitionClaimCurrent(locked.length), [...claimHead, ...locked, "ENQUEUED", name, this.appVersion, app])).rows.map(
            (r) => r[0] as string,
          );
      }
    } else {
      const free = c.workerConcurrency - state.running[q];
      if (free > 0) {
        const found = (await conn.run(s.dequeueCurrent, [name, "ENQUEUED", this.appVersion, app, free])).map((r) => r[0] as string);
        for (let i = 0; i < found.length; i += IN_CHUNK) {
          const chunk = found.slice(i, i + IN_CHUNK);
          const r = await conn.unnamed(s.claimCurrent(chunk.length), [...claimHead, ...chunk, "ENQUEUED", app]);
          ids.push(...r.rows.map((x) => x[0] as string));
        }
      }
    }
    await conn.run("COMMIT");
    // The start: one read of the whole claimed batch, its own transaction (no start write since 2.30). The
    // claim is committed: its workflows go to the executors even if the read fails.
    if (ids.length)
      try {
        await conn.run("BEGIN");
        for (let i = 0; i < ids.length; i += IN_CHUNK) {
          const chunk = ids.slice(i, i + IN_CHUNK);
          await conn.unnamed(s.statusesCurrent(chunk.length), chunk);
        }
        await conn.run("COMMIT");
      } finally {
        hand(ids);
      }
    return ids.length;
  }

  /** Starts and completes claimed workflows, one at a time, until the workers stop. */
  private async executor(conn: Conn, state: WorkerState) {
    const { readersStop: stop } = this.ctx;
    const g = this.ops.groups[0];
    const current = this.ctx.config.profile === "current";
    const s = this.sql;
    while (!stop.stopped) {
      const next = state.local.shift();
      if (!next) {
        await Promise.race([new Promise<void>((r) => state.waiters.push(r)), stop.sleep(1000)]);
        continue;
      }
      const { id, queue } = next;
      const t0 = g.read.send();
      try {
        if (!current) {
          // The 2.17 start: read the row, then write it again (INSERT … ON CONFLICT: recovery_attempts + 1).
          await conn.run("BEGIN");
          await conn.run(s.status217, [id]);
          await conn.run("COMMIT");
          await conn.run("BEGIN");
          // The start writes the row again as the library does: status ENQUEUED in VALUES (the conflict keeps the
          // row's PENDING), no partition key, a new owner_xid; the conflict arm adds 1 to recovery_attempts.
          const start = insertColumns({
            workflow_uuid: id,
            status: "ENQUEUED",
            name: VALUES.workflowName,
            executor_id: state.executorId,
            application_version: this.appVersion,
            application_id: "",
            recovery_attempts: 0,
            queue_name: this.names[queue],
            inputs: VALUES.inputs,
            priority: 0,
            owner_xid: randomUUID(),
            serialization: VALUES.serialization,
          });
          await conn.run(s.insert217, [...start, ...onConflict217(1)]);
          await conn.run("COMMIT");
          await conn.run("BEGIN");
          await conn.run(s.complete217, ["SUCCESS", VALUES.workflowOutput, null, 1000, null, id]);
          await conn.run("COMMIT");
        } else {
          await conn.run("BEGIN");
          const r = await conn.unnamed(s.completeCurrent, ["SUCCESS", VALUES.workflowOutput, null, 1000, null, id, "PENDING"]);
          await conn.run("COMMIT");
          if (r.rowCount !== 1) this.completedNoRow++;
        }
      } catch (err) {
        // The workflow stays claimed (PENDING) in the table; the library would recover it later, this run reports it.
        state.running[queue]--;
        if (await stepFailed(this.ctx, conn.tc, err, { what: "start/complete", count: () => g.read.failed(), pause: () => stop.sleep(1) })) return;
        continue;
      }
      const te = g.read.answered(t0);
      state.running[queue]--;
      const sent = this.inFlight.get(id);
      if (sent) {
        this.inFlight.delete(id);
        g.e2e.span(sent.t, te);
        this.completedIds.add(id);
        this.completedPerQueue[sent.queue]++;
      } else if (this.ctx.part) this.completedElsewhere.push(next);
      else this.completedUnknown++;
    }
  }

  // ---------- verification ----------

  ledger(): Ledger {
    const digest = (d: IdDigest) => ({ count: d.count, hi: d.hi, lo: d.lo });
    const l: QwLedger = {
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
    };
    return l as unknown as Ledger;
  }

  /**
   * Every part's record: a workflow one part enqueued and another completed leaves the first part's flight
   * here; a completion no part had in flight is one of a workflow completed twice or never enqueued.
   */
  absorb(ledgers: readonly Ledger[]) {
    const parts = ledgers as unknown as QwLedger[];
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
    if (parts.length > 1)
      this.notes.push(
        `over ${parts.length} runner processes: ${countWords(crossed, "workflow")} ${agree(crossed, "were", "was")} completed by another process than the one that enqueued them (their e2e latency is not timed: each process times its own); backlog peaks are each process's own, added`,
      );
  }

  async verify(admin: pg.Client): Promise<WorkloadVerification> {
    const s = this.ctx.schema;
    const r = await admin.query<{ queue_name: string | null; status: string | null; n: string; hi: string; lo: string; odd: string; restarted: string }>(
      `SELECT queue_name, status, count(*) AS n,
              coalesce(sum(('x' || substr(workflow_uuid, 25, 6))::bit(24)::int) FILTER (WHERE workflow_uuid ~ $1), 0) AS hi,
              coalesce(sum(('x' || substr(workflow_uuid, 31, 6))::bit(24)::int) FILTER (WHERE workflow_uuid ~ $1), 0) AS lo,
              count(*) FILTER (WHERE workflow_uuid !~ $1) AS odd,
              count(*) FILTER (WHERE recovery_attempts IS DISTINCT FROM 1) AS restarted
       FROM ${s}.workflow_status GROUP BY queue_name, status ORDER BY queue_name, status`,
      [UUID_RE.source],
    );
    const problems: string[] = [];
    const success = { count: 0, hi: 0, lo: 0 };
    const open = { count: 0, hi: 0, lo: 0 };
    const stillQueued = new Map<string, number>();
    let pendingRows = 0;
    let restarted = 0;
    for (const row of r.rows) {
      const n = Number(row.n);
      const odd = Number(row.odd);
      if (odd) {
        problems.push(`${countWords(odd, "row")} in workflow_status whose id is not a UUID this run generated (queue ${row.queue_name}, status ${row.status})`);
      }
      if (row.queue_name === null || !this.names.includes(row.queue_name)) {
        problems.push(`${countWords(n, "row")} on a queue this run never used: ${row.queue_name ?? "no queue"} (status ${row.status})`);
        continue;
      }
      const into = row.status === "SUCCESS" ? success : row.status === "ENQUEUED" || row.status === "PENDING" ? open : null;
      if (!into) {
        problems.push(`${countWords(n, "workflow")} on ${row.queue_name} with status ${row.status}: neither completed nor still queued`);
        continue;
      }
      into.count += n - odd;
      into.hi += Number(row.hi);
      into.lo += Number(row.lo);
      if (row.status === "SUCCESS") restarted += Number(row.restarted);
      if (row.status === "ENQUEUED") stillQueued.set(row.queue_name, (stillQueued.get(row.queue_name) ?? 0) + n);
      if (row.status === "PENDING") pendingRows += n;
    }
    const enqueued = this.enqueuedIds.count;
    const completed = this.completedIds.count;
    // What the runner still holds in flight is what must still be queued or claimed in the table.
    const inFlight = new IdDigest();
    for (const id of this.inFlight.keys()) inFlight.add(id);
    if (!this.completedIds.equals(success))
      problems.push(
        `the workers completed ${countWords(completed, "workflow")} but workflow_status holds ${success.count} SUCCESS row(s)${success.count === completed ? " with other ids" : ""}: completions lost, or rows changed`,
      );
    if (!inFlight.equals(open))
      problems.push(
        `${countWords(inFlight.count, "workflow")} ${agree(inFlight.count, "were", "was")} enqueued and not completed, but workflow_status holds ${open.count} ENQUEUED or PENDING row(s)${open.count === inFlight.count ? " with other ids" : ""}`,
      );
    if (restarted) problems.push(`${restarted} completed workflow(s) were started more than once (recovery_attempts is not 1)`);
    if (this.completedUnknown)
      problems.push(
        `the workers completed ${countWords(this.completedUnknown, "workflow")} that ${agree(this.completedUnknown, "were", "was")} not in flight: completed twice, or never enqueued by this run`,
      );
    if (this.completedNoRow)
      problems.push(`${this.completedNoRow} completion UPDATE(s) found no PENDING row: the workflow was completed twice or changed underneath`);
    const rows = success.count + open.count;
    const lost = Math.max(0, enqueued - rows);
    if (lost && !problems.length) problems.push(`${lost} enqueued workflow(s) are missing from workflow_status`);
    const held = this.heldAtStop.reduce((a, b) => a + b, 0);
    if (pendingRows !== held)
      problems.push(
        `${countWords(pendingRows, "workflow")} ${agree(pendingRows, "are", "is")} PENDING (claimed, not completed) but the workers held ${held} claimed ones when they stopped`,
      );
    const queued = [...stillQueued.values()].reduce((a, b) => a + b, 0);
    this.notes.push(...this.reportNotes(stillQueued, held));
    const countsMatch = success.count === completed && open.count === inFlight.count && rows === enqueued;
    const duplicated = restarted + this.completedUnknown + this.completedNoRow;
    return {
      ok: problems.length === 0,
      checked: enqueued,
      problems,
      facts: [
        { name: "lost", value: lost, ok: lost === 0 },
        { name: "run more than once", value: duplicated, ok: duplicated === 0 },
        { name: "SUCCESS", value: success.count, ok: success.count === completed },
        { name: "completions committed", value: completed, ok: success.count === completed },
        { name: "rows in workflow_status", value: rows, ok: rows === enqueued },
        { name: "runner counts match the target's rows", value: countsMatch, ok: countsMatch },
      ],
      unreadAtEnd: queued + pendingRows,
    };
  }

  /** What the summary says beyond the numbers: backlog per queue, contention, what was left at the end. */
  private reportNotes(stillQueued: Map<string, number>, held: number): string[] {
    const out: string[] = [];
    const n = this.names.length;
    if (n > 1) {
      const peaks = this.peakBacklog;
      const maxQ = peaks.indexOf(Math.max(...peaks));
      const minQ = peaks.indexOf(Math.min(...peaks));
      out.push(
        `backlog per queue (sampled each second): peak ${peaks[maxQ].toLocaleString("en-US")} on ${this.names[maxQ]}, lowest peak ${peaks[minQ].toLocaleString("en-US")} on ${this.names[minQ]}, over ${n} queues`,
      );
    } else out.push(`backlog of ${this.names[0]} (sampled each second): peak ${this.peakBacklog[0].toLocaleString("en-US")}`);
    if (stillQueued.size)
      out.push(
        `still ENQUEUED when the workers stopped: ${[...stillQueued]
          .slice(0, 8)
          .map(([q, k]) => `${k.toLocaleString("en-US")} on ${q}`)
          .join(", ")}${stillQueued.size > 8 ? `, … (${stillQueued.size} queues)` : ""}`,
      );
    if (held) out.push(`${countWords(held, "workflow")} claimed (PENDING) but not yet started when the workers stopped`);
    if (this.contention)
      out.push(
        `${this.contention.toLocaleString("en-US")} dequeue poll(s) hit contention (serialization failure or lock not available) and doubled that queue's polling interval, as the library does`,
      );
    return out;
  }
}

interface WorkerState {
  local: Claimed[];
  executorId: string;
  /** Per queue: claimed and not completed (the current profile's claim limit, per queue and process as the library's, subtracts it). */
  running: number[];
  /** Executors waiting for work; every claim wakes them all (they take turns on `local`). */
  waiters: (() => void)[];
  /** The poller connection's queue: each poll runs after the previous one. */
  turn: Promise<unknown>;
}

export const queuedWorkflows: WorkloadModule<QueuedWorkflowsConfig> = {
  kind: "queued-workflows",
  groupNames: () => ["queue"],
  writerCount: (c, part) => owned(c.enqueuers, part).length,
  create: (ctx) => new QueuedWorkflowsRun(ctx),
};

function wakeAll(state: WorkerState) {
  for (const w of state.waiters.splice(0)) w();
}
