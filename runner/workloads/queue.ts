// Queue: the reference's SKIP LOCKED work queue (queue/queue_runner.go; methodology.md §3). Writers insert
// one row per autocommit statement; readers dequeue one row per transaction (SELECT … FOR UPDATE SKIP LOCKED,
// DELETE, INSERT into an archive, COMMIT). The SQL is the reference's, schema-qualified, with one fix:
// created_at/read_at are TIMESTAMPTZ (the reference's TIMESTAMP without time zone makes e2e wrong whenever
// the server's TimeZone is not UTC).
import { randomFillSync } from "node:crypto";
import type pg from "pg";
import type { QueueConfig } from "../../lib/workloads";
import { LeanQuery } from "../leanquery";
import { bindExecuteMessage } from "../protocol";
import { isConnectionError, rollbackQuietly, type TargetClient } from "../pgclient";
import { clock, sleepMicros, sleepUntil } from "../timing";
import {
  ERROR_PAUSE_MS,
  errorMessage,
  canStampE2e,
  STAMP_BYTES,
  stampOfHex,
  type WorkloadContext,
  type WorkloadModule,
  type WorkloadRun,
  type WorkloadVerification,
} from "./types";

const BEGIN = "BEGIN ISOLATION LEVEL READ COMMITTED";

export const queueSql = (s: string, tuneTableVacuum: boolean) => ({
  setup: [
    `CREATE TABLE ${s}.queue (
       id BIGSERIAL PRIMARY KEY,
       payload BYTEA NOT NULL,
       created_at TIMESTAMPTZ NOT NULL DEFAULT NOW()
     )`,
    `CREATE TABLE ${s}.queue_archive (
       id BIGINT,
       payload BYTEA NOT NULL,
       created_at TIMESTAMPTZ NOT NULL,
       read_at TIMESTAMPTZ NOT NULL DEFAULT NOW()
     )`,
    // Redundant with the primary key, but the reference creates it, and it costs every insert and delete.
    `CREATE INDEX idx_queue_id ON ${s}.queue(id)`,
    ...(tuneTableVacuum
      ? [
          `ALTER TABLE ${s}.queue SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_insert_threshold = 1000, autovacuum_analyze_scale_factor = 0.05, fillfactor = 90)`,
        ]
      : []),
  ],
  insert: `INSERT INTO ${s}.queue (payload) VALUES ($1)`,
  dequeue: `SELECT id, payload, created_at
    FROM ${s}.queue
    ORDER BY id
    FOR UPDATE SKIP LOCKED
    LIMIT 1`,
  delete: `DELETE FROM ${s}.queue WHERE id = $1`,
  archive: `INSERT INTO ${s}.queue_archive (id, payload, created_at, read_at) VALUES ($1, $2, $3, NOW())`,
});

class QueueRun implements WorkloadRun {
  readonly roles: string[];
  readonly notes: string[] = [];
  private readonly sql: ReturnType<typeof queueSql>;
  private writerLoops: Promise<void>[] = [];
  private readerLoops: Promise<void>[] = [];
  private readonly stampE2e: boolean;

  constructor(private readonly ctx: WorkloadContext<QueueConfig>) {
    const c = ctx.config;
    this.sql = queueSql(ctx.schema, c.tuneTableVacuum);
    this.roles = [...Array.from({ length: c.writers }, (_, w) => `writer ${w}`), ...Array.from({ length: c.readers }, (_, r) => `reader ${r}`)];
    this.stampE2e = canStampE2e(c.payloadBytes, this.notes);
  }

  async setup(admin: pg.Client) {
    for (const q of this.sql.setup) await admin.query(q);
  }

  async startReaders(clients: TargetClient[]) {
    this.readerLoops = clients.map((tc) => this.readerLoop(tc));
  }

  startWriters(clients: TargetClient[]) {
    this.writerLoops = clients.map((tc) => this.writerLoop(tc));
  }

  writersDone() {
    return Promise.all(this.writerLoops).then(() => undefined);
  }
  readersDone() {
    return Promise.all(this.readerLoops).then(() => undefined);
  }

  private async writerLoop(tc: TargetClient) {
    const { config: c, stats, throttle, writersStop: stop } = this.ctx;
    // One random payload per writer, reused for every row (queue_runner.go L72-108); only the stamp changes.
    // Sent as "\x…" hex text, as lib/pq sends a []byte parameter, from a Bind message built once.
    const payload = randomFillSync(Buffer.allocUnsafe(c.payloadBytes));
    const { message, offsets } = bindExecuteMessage("pgbb_enqueue", ["\\x" + payload.toString("hex")]);
    const stampAt = offsets[0] + 2;
    const stampBuf = Buffer.alloc(STAMP_BYTES);
    const qInsert = new LeanQuery(this.sql.insert, "pgbb_enqueue");
    const write = stats.latency.write;
    while (!stop.stopped) {
      let due = 0;
      if (throttle) {
        due = throttle.next(1);
        await sleepUntil(due, stop); // never before `due`: timers fire early
        if (stop.stopped) {
          throttle.done(due);
          break;
        }
      }
      const t0 = clock();
      if (this.stampE2e) {
        stampBuf.writeDoubleLE(t0, 0);
        message.write(stampBuf.toString("hex"), stampAt, "latin1");
      }
      try {
        await qInsert.runMessage(tc.client, message);
        const te = clock();
        // Unlike the reference (which also timed failed inserts), only successful inserts are in the histogram.
        write.record((te - t0) * 1000);
        if (throttle) {
          stats.recordScheduled(due, t0, te);
          throttle.done(due);
        }
        stats.wrote(1);
      } catch (err) {
        throttle?.done(due); // failed writes are not retried: they no longer hold the schedule back
        stats.writeError(1);
        stats.noteError(`enqueue: ${errorMessage(err)}`);
        if (isConnectionError(err, tc)) return this.ctx.fatal(new Error(`${tc.role} lost its connection: ${errorMessage(err)}`));
        await stop.sleep(ERROR_PAUSE_MS);
      }
    }
  }

  private async readerLoop(tc: TargetClient) {
    const { readersStop: stop, stats } = this.ctx;
    const g = stats.groups[0];
    const client = tc.client;
    const qBegin = new LeanQuery(BEGIN);
    const qDequeue = new LeanQuery(this.sql.dequeue, "pgbb_dequeue");
    const dequeueMessage = bindExecuteMessage("pgbb_dequeue", []).message;
    const qDelete = new LeanQuery(this.sql.delete, "pgbb_delete");
    const qArchive = new LeanQuery(this.sql.archive, "pgbb_archive");
    const qCommit = new LeanQuery("COMMIT");
    const qRollback = new LeanQuery("ROLLBACK");
    const idValues: unknown[] = [null];
    const archiveValues: unknown[] = [null, null, null];
    const scratch = Buffer.alloc(STAMP_BYTES);
    while (!stop.stopped) {
      const t0 = clock(); // timer starts before BEGIN, as the reference (queue_runner.go L110-193)
      let row: (string | null)[] | undefined;
      try {
        await qBegin.run(client);
        const tc0 = clock();
        row = (await qDequeue.runMessage(client, dequeueMessage))[0];
        // Every dequeue SELECT, empty or not, as pub/sub's claim (lib/metrics.ts): the claim is the poll.
        g.latency.claim.record((clock() - tc0) * 1000);
        if (!row) {
          g.emptyPoll();
          await qRollback.run(client);
        }
      } catch (err) {
        // The reference silently retried after a failed SELECT; here it counts as a read error.
        await rollbackQuietly(client);
        g.readError();
        stats.noteError(`dequeue: ${errorMessage(err)}`);
        if (isConnectionError(err, tc)) return this.ctx.fatal(new Error(`${tc.role} lost its connection: ${errorMessage(err)}`));
        await sleepMicros(200, stop);
        continue;
      }
      if (!row) {
        await sleepMicros(200, stop); // the reference's fixed 200 µs back-off on an empty queue
        continue;
      }
      try {
        // Raw text round-trips exactly: the payload as "\x…" hex, created_at with its microseconds.
        idValues[0] = archiveValues[0] = row[0];
        archiveValues[1] = row[1];
        archiveValues[2] = row[2];
        await qDelete.run(client, idValues);
        await qArchive.run(client, archiveValues);
        await qCommit.run(client);
        const te = clock();
        g.latency.read.record((te - t0) * 1000);
        // e2e after COMMIT, as the reference.
        if (this.stampE2e) {
          const sent = stampOfHex(row[1] as string, scratch, stats.startedAt, te);
          if (Number.isNaN(sent)) stats.unreadableStamp(1);
          else g.latency.e2e.record((te - sent) * 1000);
        }
        g.read(1);
      } catch (err) {
        await rollbackQuietly(client);
        g.readError();
        stats.noteError(`dequeue: ${errorMessage(err)}`);
        if (isConnectionError(err, tc)) return this.ctx.fatal(new Error(`${tc.role} lost its connection: ${errorMessage(err)}`));
        await stop.sleep(ERROR_PAUSE_MS);
      }
      archiveValues[1] = null;
    }
  }

  async verify(admin: pg.Client): Promise<WorkloadVerification> {
    const s = this.ctx.schema;
    const r = await admin.query<{ queued: string; archived: string; distinct_archived: string; in_both: string }>(
      `SELECT (SELECT count(*) FROM ${s}.queue) AS queued,
              (SELECT count(*) FROM ${s}.queue_archive) AS archived,
              (SELECT count(DISTINCT id) FROM ${s}.queue_archive) AS distinct_archived,
              (SELECT count(*) FROM ${s}.queue_archive a JOIN ${s}.queue q ON q.id = a.id) AS in_both`,
    );
    const queued = Number(r.rows[0].queued);
    const archived = Number(r.rows[0].archived);
    const distinct = Number(r.rows[0].distinct_archived);
    const inBoth = Number(r.rows[0].in_both);
    const inserted = this.ctx.stats.writesTotal.count;
    const consumed = this.ctx.stats.groups[0].total.count;
    const problems: string[] = [];
    const lost = Math.max(inserted - (queued + distinct - inBoth), 0);
    const duplicated = archived - distinct + inBoth;
    if (lost) problems.push(`${lost} message(s) lost: inserted ${inserted}, but only ${queued} still queued + ${distinct} consumed`);
    if (archived !== distinct) problems.push(`${archived - distinct} message(s) consumed more than once (duplicate ids in queue_archive)`);
    if (inBoth) problems.push(`${inBoth} message(s) both consumed and still queued`);
    const extra = queued + distinct - inBoth - inserted;
    if (extra > 0) problems.push(`${extra} more row(s) in the target than the runner inserted`);
    if (archived !== consumed) problems.push(`the runner counted ${consumed} dequeues but queue_archive holds ${archived} rows`);
    const countsMatch = archived === consumed && queued + archived === inserted;
    if (!countsMatch && !problems.length) problems.push(`inserted ${inserted} ≠ queued ${queued} + archived ${archived}`);
    const ok = countsMatch && lost === 0 && duplicated === 0;
    return { ok, lost, duplicated, outOfOrder: 0, checked: inserted, countsMatch, problems, unreadAtEnd: queued };
  }
}

export const queue: WorkloadModule<QueueConfig> = {
  kind: "queue",
  groupNames: () => ["queue"],
  writerCount: (c) => c.writers,
  create: (ctx) => new QueueRun(ctx),
};
