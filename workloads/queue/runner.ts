// Queue: the reference's SKIP LOCKED work queue (queue/queue_runner.go). Writers insert
// one row per autocommit statement; readers dequeue one row per transaction (SELECT … FOR UPDATE SKIP LOCKED,
// DELETE, INSERT into an archive, COMMIT). The SQL is the reference's, schema-qualified, with one fix:
// created_at/read_at are TIMESTAMPTZ (the reference's TIMESTAMP without time zone makes e2e wrong whenever
// the server's TimeZone is not UTC).
import { createHash, randomFillSync } from "node:crypto";
import type pg from "pg";
import type { QueueConfig } from "./definition";
import { LeanQuery, bindExecuteMessage, type TargetClient, Backoff } from "../../runner/core";
import {
  brokerOperations,
  ERROR_PAUSE_MS,
  canStampE2e,
  canStampSchedule,
  SCHEDULE_STAMP_OFFSET,
  STAMP_BYTES,
  STAMPS_BYTES,
  stampOfHex,
  inDoubtFact,
  stepFailed,
  type Ledger,
  type WorkloadContext,
  type WorkloadModule,
  type WorkloadRun,
  type WorkloadVerification,
} from "../runtime";
import { brokerFacts } from "../../lib/measurement/verification";
import { owned } from "../../lib/workloads/parts";
import { z } from "zod";
import { countWords } from "../../lib/words";

/** A part's record (QueueRun.ledger): arrays indexed by global writer, zero (or "") for writers of other parts. */
const QueueLedger = z.object({
  inserted: z.array(z.number().int().nonnegative()),
  tailMd5: z.array(z.string()),
  consumedCount: z.array(z.number().int().nonnegative()),
  consumedSeqSum: z.array(z.number().nonnegative()),
  consumedForeign: z.number().int().nonnegative(),
  consumedTotal: z.number().int().nonnegative(),
  doubtWrites: z.array(z.array(z.number().int().positive())).optional(),
  doubtReads: z.array(z.object({ id: z.string(), w: z.number().int().nullable(), seq: z.number().int() })).optional(),
});

/** A dequeue whose COMMIT was sent and not answered (its connection went): its row's id, and its (writer, seq) when
 *  payloads carry one (w null otherwise). Settled at verification by whether the archive holds the id. */
interface DoubtRead {
  id: string;
  w: number | null;
  seq: number;
}

const BEGIN = "BEGIN ISOLATION LEVEL READ COMMITTED";

/**
 * Each queued message says who wrote it: payload bytes 16..23 (after the stamps) are the writer's index and the
 * message's sequence number in that writer (uint32 big-endian each, 1, 2, 3, … per writer, counting successful
 * inserts only). Verification then checks identities, not just counts, in constant memory per writer: every
 * (writer, seq) in 1..written is in the queue or the archive exactly once, nothing else is there, and the
 * readers' per-writer count and sum of seq equal the archive's. Payloads shorter than this carry no identity.
 */
const ID_OFFSET = STAMPS_BYTES;
const ID_BYTES = 8;
export const IDENTITY_MIN_PAYLOAD = ID_OFFSET + ID_BYTES;

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

/** The in-doubt operations as settled from the target (QueueRun.settleDoubts). */
interface Settled {
  /** Per writer: in-doubt seqs found in neither table (not stored), excused from the lost count. */
  absent: number[][];
  /** Without identities: in-doubt inserts, stored or not (only their number can be accepted). */
  writesUnsettled: number;
  writesStored: number;
  readsCommitted: number;
}

class QueueRun implements WorkloadRun {
  readonly roles: string[];
  readonly notes: string[] = [];
  private readonly sql: ReturnType<typeof queueSql>;
  private writerLoops: Promise<void>[] = [];
  private readerLoops: Promise<void>[] = [];
  private readonly stampE2e: boolean;
  /** Payloads also carry their write's scheduled time (throttled runs): runtime.ts SCHEDULE_STAMP_OFFSET. */
  private readonly stampSchedule: boolean;
  /** Whether payloads carry (writer, seq): see IDENTITY_MIN_PAYLOAD. */
  private readonly identity: boolean;
  /** Per writer: messages inserted (= the last seq, in-doubt inserts included), md5 of the payload bytes after the
   *  identity (fixed per writer). */
  private readonly inserted: number[];
  private readonly tailMd5: string[];
  /** Per writer: messages the readers consumed and the sum of their seqs. */
  private readonly consumedCount: number[];
  private readonly consumedSeqSum: number[];
  /** Messages consumed whose identity did not parse as one of our writers'. */
  private consumedForeign = 0;
  /** Messages consumed in all (identity or not). */
  private consumedTotal = 0;
  /**
   * Per writer: the seqs of inserts whose reply never came (the connection went under them, in a run whose loops
   * reconnect): stored or not. The writer moves on to the next seq, so no seq is sent twice; verification accepts
   * each one present or absent, and every other seq exactly.
   */
  private readonly doubtWrites: number[][];
  /** Dequeues whose COMMIT was in flight when their connection went: archived or not, settled at verification. */
  private readonly doubtReads: DoubtRead[] = [];
  /** The row ids of doubtReads not yet settled: a later dequeue of one of them settles it as not committed (its row
   *  was still there to take), which the archive alone could not tell from a commit. Usually empty. */
  private readonly doubtIds = new Set<string>();
  /** What settleDoubts found, once. */
  private settled?: Settled;
  /** The global indexes of the writers this instance runs (all of them without a part). */
  private readonly writerIndexes: number[];
  /** The broker's operations in the run's recorder: the write, and the single group "queue"'s read, claim and e2e. */
  private readonly ops: ReturnType<typeof brokerOperations>;
  readonly readers = {
    start: async (clients: TargetClient[]) => {
      this.readerLoops = clients.map((tc) => this.readerLoop(tc));
    },
    done: () => Promise.all(this.readerLoops).then(() => undefined),
  };

  constructor(private readonly ctx: WorkloadContext<QueueConfig>) {
    const c = ctx.config;
    this.ops = brokerOperations(ctx.stats);
    this.sql = queueSql(ctx.schema, c.tuneTableVacuum);
    // A part runs writers and readers by their global index (lib/workloads/parts.ts), and keeps their names.
    this.writerIndexes = owned(c.writers, ctx.part);
    this.roles = [...this.writerIndexes.map((w) => `writer ${w}`), ...owned(c.readers, ctx.part).map((r) => `reader ${r}`)];
    this.stampE2e = canStampE2e(c.payloadBytes, this.notes);
    this.stampSchedule = this.stampE2e && canStampSchedule(c.payloadBytes, ctx.pacer.throttle !== null, this.notes);
    this.identity = c.payloadBytes >= IDENTITY_MIN_PAYLOAD;
    if (!this.identity)
      this.notes.push(
        `verification compared counts only: identifying each message needs payloads of at least ${IDENTITY_MIN_PAYLOAD} bytes (payload is ${c.payloadBytes})`,
      );
    this.inserted = new Array(c.writers).fill(0);
    this.tailMd5 = new Array(c.writers).fill("");
    this.consumedCount = new Array(c.writers).fill(0);
    this.consumedSeqSum = new Array(c.writers).fill(0);
    this.doubtWrites = Array.from({ length: c.writers }, () => []);
  }

  async setup(admin: pg.Client) {
    for (const q of this.sql.setup) await admin.query(q);
  }

  startWriters(clients: TargetClient[]) {
    this.writerLoops = clients.map((tc, i) => this.writerLoop(tc, this.writerIndexes[i]));
  }

  writersDone() {
    return Promise.all(this.writerLoops).then(() => undefined);
  }

  private writerLoop(tc: TargetClient, w: number) {
    const { config: c, pacer, writersStop: stop } = this.ctx;
    // One random payload per writer, reused for every row (queue_runner.go L72-108); only the stamp and the
    // sequence number change. Sent as "\x…" hex text, as lib/pq sends a []byte parameter, from a Bind message
    // built once.
    const payload = randomFillSync(Buffer.allocUnsafe(c.payloadBytes));
    if (this.identity) {
      payload.writeUInt32BE(w, ID_OFFSET);
      this.tailMd5[w] = createHash("md5").update(payload.subarray(IDENTITY_MIN_PAYLOAD)).digest("hex");
    }
    const { message, offsets } = bindExecuteMessage("pgbb_enqueue", [`\\x${payload.toString("hex")}`]);
    const stampAt = offsets[0] + 2;
    const seqAt = stampAt + 2 * (ID_OFFSET + 4); // hex digits of the seq, after the stamp and the writer index
    const stampBuf = Buffer.alloc(STAMPS_BYTES);
    const seqBuf = Buffer.alloc(4);
    const qInsert = new LeanQuery(this.sql.insert, "pgbb_enqueue");
    const write = this.ops.write;
    // One message, when the pacer says it is due (slot.due: 0 unthrottled).
    return pacer.loop(w, stop, 1, async (slot) => {
      if (this.identity) {
        seqBuf.writeUInt32BE(this.inserted[w] + 1, 0); // a failed insert's seq is reused: seqs of rows are 1..inserted
        message.write(seqBuf.toString("hex"), seqAt, "latin1");
      }
      const t0 = write.send();
      if (this.stampE2e) {
        stampBuf.writeDoubleLE(t0, 0);
        if (this.stampSchedule) stampBuf.writeDoubleLE(slot.due, SCHEDULE_STAMP_OFFSET);
        message.write(stampBuf.toString("hex", 0, this.stampSchedule ? STAMPS_BYTES : STAMP_BYTES), stampAt, "latin1");
      }
      try {
        await qInsert.runMessage(tc.client, message);
        // Unlike the reference (which also timed failed inserts), only successful inserts are in the histogram.
        write.answered(t0, 1, slot);
        this.inserted[w]++;
        return true;
      } catch (err) {
        // A single INSERT in autocommit: no transaction to roll back. Its connection lost before the reply (a run
        // that reconnects): the row may be stored, so its seq is in doubt and never sent again.
        const inDoubt = () => this.doubtWrites[w].push(++this.inserted[w]);
        const failed = { what: "enqueue", count: () => write.failed(1), noTransaction: true, pause: () => stop.sleep(ERROR_PAUSE_MS), inDoubt, stop };
        return !(await stepFailed(this.ctx, tc, err, failed));
      }
    });
  }

  private async readerLoop(tc: TargetClient) {
    const { readersStop: stop, stats } = this.ctx;
    const g = this.ops.groups[0];
    // tc.client is read per statement: a loop of a run that reconnects gets a new one (workloads/runtime.ts stepFailed).
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
    const backoff = new Backoff(this.ctx.config.backoff, stop);
    while (!stop.stopped) {
      await this.ctx.readersPause?.pass(stop); // a pause-workers phase: between claims, holding nothing
      if (stop.stopped) break;
      const t0 = g.read.send(); // timer starts before BEGIN, as the reference (queue_runner.go L110-193)
      let row: (string | null)[] | undefined;
      try {
        await qBegin.run(tc.client);
        const tc0 = g.claim.send();
        row = (await qDequeue.runMessage(tc.client, dequeueMessage))[0];
        // Every dequeue SELECT, empty or not, as pub/sub's claim (lib/measurement/metrics.ts): the claim is the poll.
        g.claim.timed(tc0);
        if (!row) {
          g.emptyPolls.add();
          await qRollback.run(tc.client);
        }
      } catch (err) {
        // The reference silently retried after a failed SELECT; here it counts as a read error.
        // Nothing in doubt: a transaction whose connection dies before its COMMIT is rolled back by the server.
        if (await stepFailed(this.ctx, tc, err, { what: "dequeue", count: () => g.read.failed(), pause: () => backoff.fixed(200), stop })) return;
        continue;
      }
      if (!row) {
        await backoff.fixed(200); // the reference's time.Sleep(200µs) on an empty queue
        continue;
      }
      let committing = false;
      try {
        // Raw text round-trips exactly: the payload as "\x…" hex, created_at with its microseconds.
        idValues[0] = archiveValues[0] = row[0];
        archiveValues[1] = row[1];
        archiveValues[2] = row[2];
        await qDelete.run(tc.client, idValues);
        await qArchive.run(tc.client, archiveValues);
        committing = true;
        await qCommit.run(tc.client);
        const te = g.read.answered(t0);
        // e2e after COMMIT, as the reference.
        if (this.stampE2e) {
          const sent = stampOfHex(row[1] as string, scratch, stats.startedAt, te);
          const due = this.stampSchedule ? stampOfHex(row[1] as string, scratch, stats.startedAt, te, SCHEDULE_STAMP_OFFSET) : 0;
          // Both stamps or neither: a message whose scheduled time cannot be read is in neither e2e.
          if (Number.isNaN(sent) || Number.isNaN(due)) stats.unreadableStamp(1);
          else {
            g.e2e.span(sent, te);
            if (this.stampSchedule) g.e2eScheduled.span(due, te);
          }
        }
        this.consumedTotal++;
        if (this.identity) this.consumed(row[1] as string);
        if (this.doubtIds.size) this.doubtIds.delete(row[0] as string);
      } catch (err) {
        // Lost during its COMMIT: the message may be archived (consumed) or back in the queue for another dequeue.
        const doubt = row;
        const inDoubt = committing
          ? () => {
              this.doubtReads.push({ id: doubt[0] as string, ...this.identityOf(doubt[1] as string) });
              this.doubtIds.add(doubt[0] as string);
            }
          : undefined;
        const failed = { what: "dequeue", count: () => g.read.failed(), pause: () => stop.sleep(ERROR_PAUSE_MS), inDoubt, stop };
        if (await stepFailed(this.ctx, tc, err, failed)) return;
      }
      archiveValues[1] = null;
    }
  }

  /** A message's (writer, seq) from its payload's hex text ("\\x" + hex); w null without identities. */
  private identityOf(hex: string): { w: number | null; seq: number } {
    if (!this.identity) return { w: null, seq: 0 };
    const at = 2 + 2 * ID_OFFSET;
    return { w: parseInt(hex.substring(at, at + 8), 16), seq: parseInt(hex.substring(at + 8, at + 16), 16) };
  }

  /** Counts a consumed message against its writer, from its payload's hex text ("\\x" + hex). */
  private consumed(hex: string) {
    const { w, seq } = this.identityOf(hex);
    this.consumedOne(w, seq);
  }

  private consumedOne(w: number | null, seq: number) {
    if (w !== null && w >= 0 && w < this.consumedCount.length) {
      this.consumedCount[w]++;
      this.consumedSeqSum[w] += seq;
    } else this.consumedForeign++;
  }

  /**
   * Identities, checked in SQL over both tables: per writer, the seqs present (each must be in 1..inserted, at
   * most once) and what the archive holds; everything else is foreign. Adds its findings to `problems`.
   */
  private async verifyIdentities(admin: pg.Client, problems: string[]): Promise<{ lost: number; duplicated: number; foreign: number }> {
    const s = this.ctx.schema;
    const r = await admin.query<{ w: number | null; rows: string; seqs: string; archived: string; archived_sum: string }>(
      `WITH t AS (
         SELECT a, CASE WHEN ok THEN w END AS w, k FROM (
           SELECT a, w, k, length(payload) = $1 AND w < $2 AND k BETWEEN 1 AND ($3::bigint[])[w + 1]
                  AND md5(substring(payload FROM $4)) = ($5::text[])[w + 1] AS ok
           FROM (SELECT a, payload,
                        (get_byte(payload, $6) << 24 | get_byte(payload, $6 + 1) << 16 | get_byte(payload, $6 + 2) << 8 | get_byte(payload, $6 + 3))::bigint & 4294967295 AS w,
                        (get_byte(payload, $6 + 4)::bigint << 24 | get_byte(payload, $6 + 5) << 16 | get_byte(payload, $6 + 6) << 8 | get_byte(payload, $6 + 7)) AS k
                 FROM (SELECT true AS a, payload FROM ${s}.queue_archive UNION ALL SELECT false, payload FROM ${s}.queue) u
                 WHERE length(payload) >= $6 + 8) x) y
         UNION ALL
         SELECT a, NULL, NULL FROM (SELECT true AS a, payload FROM ${s}.queue_archive UNION ALL SELECT false, payload FROM ${s}.queue) u
         WHERE length(payload) < $6 + 8)
       SELECT w, count(*) AS rows, count(DISTINCT k) AS seqs, count(*) FILTER (WHERE a) AS archived, coalesce(sum(k) FILTER (WHERE a), 0) AS archived_sum
       FROM t GROUP BY w`,
      [this.ctx.config.payloadBytes, this.inserted.length, this.inserted, IDENTITY_MIN_PAYLOAD + 1, this.tailMd5, ID_OFFSET],
    );
    let lost = 0;
    let duplicated = 0;
    let foreign = 0;
    const seen = new Set<number>();
    for (const row of r.rows) {
      if (row.w === null) {
        foreign = Number(row.rows);
        problems.push(
          `${countWords(foreign, "row")} in the queue or its archive that no writer inserted (a payload of another size or content, or a sequence number beyond what its writer wrote)`,
        );
        continue;
      }
      const w = Number(row.w);
      seen.add(w);
      const rows = Number(row.rows);
      const seqs = Number(row.seqs);
      const missing = this.inserted[w] - seqs - (this.settled?.absent[w].length ?? 0);
      if (missing > 0) {
        lost += missing;
        problems.push(
          `writer ${w}: ${countWords(missing, "message")} lost, neither queued nor consumed, of the ${this.inserted[w]} it inserted${await this.firstMissing(admin, w)}`,
        );
      }
      if (rows > seqs) {
        duplicated += rows - seqs;
        problems.push(`writer ${w}: ${countWords(rows - seqs, "message")} present more than once in the queue and its archive`);
      }
      const archived = Number(row.archived);
      if (archived !== this.consumedCount[w] || Number(row.archived_sum) !== this.consumedSeqSum[w])
        problems.push(
          `writer ${w}: the readers consumed ${countWords(this.consumedCount[w], "message")} marked as its own (sequence numbers summing to ${this.consumedSeqSum[w]}) but the archive holds ${archived} of its messages (summing to ${row.archived_sum}): consumed rows it did not write, or archived rows changed`,
        );
    }
    for (let w = 0; w < this.inserted.length; w++) {
      const stored = this.inserted[w] - (this.settled?.absent[w].length ?? 0);
      if (seen.has(w) || stored === 0) continue;
      lost += stored;
      problems.push(`writer ${w}: ${countWords(this.inserted[w], "message")} lost, neither queued nor consumed: all it inserted`);
    }
    if (this.consumedForeign) problems.push(`the readers consumed ${countWords(this.consumedForeign, "message")} that no writer of this run wrote`);
    return { lost, duplicated, foreign };
  }

  /** ": sequence numbers 12, 13, 57…" for the problem line (a few, so it stays one line). */
  private async firstMissing(admin: pg.Client, w: number): Promise<string> {
    const s = this.ctx.schema;
    const r = await admin.query<{ k: string }>(
      `SELECT k FROM generate_series(1, $1::bigint) k WHERE k <> ALL($4::bigint[])
       EXCEPT SELECT (get_byte(payload, $3 + 4)::bigint << 24 | get_byte(payload, $3 + 5) << 16 | get_byte(payload, $3 + 6) << 8 | get_byte(payload, $3 + 7))
       FROM (SELECT payload FROM ${s}.queue UNION ALL SELECT payload FROM ${s}.queue_archive) u
       WHERE length(payload) >= $3 + 8 AND (get_byte(payload, $3) << 24 | get_byte(payload, $3 + 1) << 16 | get_byte(payload, $3 + 2) << 8 | get_byte(payload, $3 + 3)) = $2
       ORDER BY 1 LIMIT 6`,
      [this.inserted[w], w, ID_OFFSET, this.settled?.absent[w] ?? []],
    );
    const ks = r.rows.map((x) => x.k);
    return ks.length ? `: sequence number(s) ${ks.slice(0, 5).join(", ")}${ks.length > 5 ? ", …" : ""}` : "";
  }

  /**
   * Settles every in-doubt operation from the target, once, before the checks: a dequeue whose row no later dequeue
   * took, and whose id the archive holds, committed (counted as consumed, as the archive counts it); else it did not.
   * An insert whose (writer, seq) is in the queue or the archive was stored; one in neither was not, and is excused
   * from the lost count (its seq was never sent again). Without identities an insert cannot be told apart: only
   * their number is accepted, as a range.
   */
  private async settleDoubts(admin: pg.Client): Promise<Settled> {
    if (this.settled) return this.settled;
    const s = this.ctx.schema;
    let readsCommitted = 0;
    const open = this.doubtReads.filter((d) => this.doubtIds.has(d.id));
    if (open.length) {
      const r = await admin.query<{ id: string }>(`SELECT DISTINCT id::text AS id FROM ${s}.queue_archive WHERE id = ANY($1::bigint[])`, [
        open.map((d) => d.id),
      ]);
      const archived = new Set(r.rows.map((x) => x.id));
      for (const d of open) {
        if (!archived.has(d.id)) continue;
        readsCommitted++;
        this.consumedTotal++;
        if (this.identity) this.consumedOne(d.w, d.seq);
      }
    }
    const absent: number[][] = this.doubtWrites.map(() => []);
    let writesStored = 0;
    const doubts = this.doubtWrites.flatMap((seqs, w) => seqs.map((k) => [w, k]));
    if (this.identity && doubts.length) {
      const r = await admin.query<{ w: string; k: string }>(
        `SELECT DISTINCT w, k FROM (
           SELECT (get_byte(payload, $3) << 24 | get_byte(payload, $3 + 1) << 16 | get_byte(payload, $3 + 2) << 8 | get_byte(payload, $3 + 3))::bigint & 4294967295 AS w,
                  (get_byte(payload, $3 + 4)::bigint << 24 | get_byte(payload, $3 + 5) << 16 | get_byte(payload, $3 + 6) << 8 | get_byte(payload, $3 + 7)) AS k
           FROM (SELECT payload FROM ${s}.queue UNION ALL SELECT payload FROM ${s}.queue_archive) u WHERE length(payload) >= $3 + 8) x
         WHERE (w, k) IN (SELECT * FROM unnest($1::bigint[], $2::bigint[]))`,
        [doubts.map((d) => d[0]), doubts.map((d) => d[1]), ID_OFFSET],
      );
      const stored = new Set(r.rows.map((x) => `${x.w}/${x.k}`));
      for (const [w, k] of doubts) {
        if (stored.has(`${w}/${k}`)) writesStored++;
        else absent[w].push(k);
      }
    }
    const writesUnsettled = this.identity ? 0 : doubts.length;
    this.settled = { absent, writesUnsettled, writesStored, readsCommitted };
    const n = doubts.length + this.doubtReads.length;
    if (n) {
      const writes = this.identity
        ? `${countWords(doubts.length, "insert")} (${writesStored} stored, ${doubts.length - writesStored} not)`
        : `${countWords(doubts.length, "insert")} (stored or not: payloads too short to tell)`;
      this.notes.push(
        `${countWords(n, "operation")} in doubt, sent when a connection was lost and never answered, each settled from the target: ${writes}; ${countWords(this.doubtReads.length, "dequeue")} (${readsCommitted} committed, ${this.doubtReads.length - readsCommitted} not)`,
      );
    }
    return this.settled;
  }

  async verify(admin: pg.Client): Promise<WorkloadVerification> {
    const s = this.ctx.schema;
    const settled = await this.settleDoubts(admin);
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
    // Its own record (a coordinator's: every part's, absorbed), never the stats: they are one process's. In-doubt
    // inserts found absent were not stored; without identities, up to writesUnsettled of them may be absent.
    const inserted = this.inserted.reduce((a, b) => a + b, 0) - settled.absent.reduce((a, b) => a + b.length, 0);
    const certain = inserted - settled.writesUnsettled;
    const consumed = this.consumedTotal;
    const problems: string[] = [];
    let lost: number;
    let duplicated: number;
    if (this.identity) {
      // Which messages, not just how many: a deleted row and a foreign one no longer cancel out.
      ({ lost, duplicated } = await this.verifyIdentities(admin, problems));
    } else {
      lost = Math.max(certain - (queued + distinct - inBoth), 0);
      duplicated = archived - distinct + inBoth;
      if (lost) problems.push(`${countWords(lost, "message")} lost: inserted ${inserted}, but only ${queued} still queued + ${distinct} consumed`);
      if (archived !== distinct) problems.push(`${countWords(archived - distinct, "message")} consumed more than once (duplicate ids in queue_archive)`);
      if (inBoth) problems.push(`${countWords(inBoth, "message")} both consumed and still queued`);
      const extra = queued + distinct - inBoth - inserted;
      if (extra > 0) problems.push(`${extra} more row(s) in the target than the runner inserted`);
    }
    if (archived !== consumed) problems.push(`the runner counted ${consumed} dequeues but queue_archive holds ${archived} rows`);
    const countsMatch = archived === consumed && queued + archived >= certain && queued + archived <= inserted;
    if (!countsMatch && !problems.length) problems.push(`inserted ${inserted} ≠ queued ${queued} + archived ${archived}`);
    // Every finding is a failure (with identities: foreign rows, or readers' sums that disagree with the archive).
    const ok = problems.length === 0;
    const facts = brokerFacts({ lost, duplicated, outOfOrder: 0, countsMatch });
    // A run whose loops reconnect states how many operations were in doubt, 0 included.
    if (this.ctx.reconnect) facts.push(inDoubtFact(this.doubtWrites.reduce((a, b) => a + b.length, 0) + this.doubtReads.length));
    return { ok, checked: certain, problems, facts, unreadAtEnd: queued };
  }

  ledger(): Ledger {
    const { inserted, tailMd5, consumedCount, consumedSeqSum, consumedForeign, consumedTotal, doubtWrites } = this;
    // Only the in-doubt dequeues no later dequeue settled.
    const doubtReads = this.doubtReads.filter((d) => this.doubtIds.has(d.id));
    return { inserted, tailMd5, consumedCount, consumedSeqSum, consumedForeign, consumedTotal, doubtWrites, doubtReads };
  }

  /** Every part's record added into this one's (arrays by global writer; a writer's payload tail from its part). */
  absorb(ledgers: readonly Ledger[]) {
    ledgers.forEach((raw, part) => {
      const parsed = QueueLedger.safeParse(raw);
      if (!parsed.success) throw new Error(`part ${part}'s queue ledger is not valid: ${parsed.error.issues[0]?.message}`);
      const l = parsed.data;
      const n = this.inserted.length;
      if (l.inserted.length !== n) throw new Error(`part ${part}'s queue ledger has ${l.inserted.length} writers, the run ${n}`);
      for (let w = 0; w < n; w++) {
        this.inserted[w] += l.inserted[w];
        this.consumedCount[w] += l.consumedCount[w];
        this.consumedSeqSum[w] += l.consumedSeqSum[w];
        if (l.tailMd5[w]) this.tailMd5[w] = l.tailMd5[w];
        this.doubtWrites[w].push(...(l.doubtWrites?.[w] ?? []));
      }
      for (const d of l.doubtReads ?? []) {
        this.doubtReads.push(d);
        this.doubtIds.add(d.id);
      }
      this.consumedForeign += l.consumedForeign;
      this.consumedTotal += l.consumedTotal;
    });
  }
}

export const queue: WorkloadModule<QueueConfig> = {
  kind: "queue",
  groupNames: () => ["queue"],
  writerCount: (c, part) => owned(c.writers, part).length,
  create: (ctx) => new QueueRun(ctx),
};
