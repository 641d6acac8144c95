// Job queue: the article's job_queue table, its dequeue statement verbatim, and the operations around it
// (the article does not show them): a producer request inserts one job, a consumer request dequeues the oldest
// pending job and, if it got one, completes it in a second statement.
//
// Verification. The runner keeps the id of every job its producers inserted and of every job its consumers
// dequeued. At the end each inserted job must be in the table once: completed if a consumer completed it,
// processing if its completion failed, pending if nobody took it; consumers must never have taken a job twice
// or one no producer of this run inserted; the preloaded jobs must all still be there, completed; and the
// table must hold nothing else.
import type pg from "pg";
import { type TargetClient, clock } from "../../runner/core";
import { inDoubtFact, type Ledger, type WorkloadContext, type WorkloadVerification } from "../runtime";
import { type YongRequest, type YongWorkload, yongModule } from "../yong/driver";
import type { JobqueueConfig } from "./definition";
import { agree, countWords } from "../../lib/words";

export const jobqueueSql = (s: string, partial: boolean) => ({
  create: `CREATE TABLE ${s}.job_queue (
    id SERIAL PRIMARY KEY,
    payload JSONB NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    created_at TIMESTAMPTZ NOT NULL DEFAULT NOW()
  )`,
  index: partial
    ? `CREATE INDEX idx_pending_jobs ON ${s}.job_queue (created_at) WHERE status = 'pending'`
    : `CREATE INDEX idx_jobs_status_created ON ${s}.job_queue (status, created_at)`,
  enqueue: `INSERT INTO ${s}.job_queue (payload) VALUES ($1::jsonb) RETURNING id`,
  dequeue: `UPDATE ${s}.job_queue SET status = 'processing'
    WHERE id = (
      SELECT id FROM ${s}.job_queue
      WHERE status = 'pending'
      ORDER BY created_at
      LIMIT 1
      FOR UPDATE SKIP LOCKED
    ) RETURNING *`,
  complete: `UPDATE ${s}.job_queue SET status = 'completed' WHERE id = $1`,
});

/** Preloaded jobs are inserted this many per statement (each its own transaction), with a progress line. */
const PRELOAD_BATCH = 1_000_000;

/** The job's number in this run, from the payload as jsonb prints it ({"n": 12, "to": …}). */
const N_RE = /"n": (\d+)/;

class JobqueueWorkload implements YongWorkload {
  readonly notes: string[] = [];
  readonly vus: number;
  private readonly sql: ReturnType<typeof jobqueueSql>;
  /** The highest id of the preloaded jobs (ids above it are this run's). */
  private preloadMaxId = 0;
  /** Job numbers: part i of N numbers its jobs i + 1, i + 1 + N, … so no two parts use the same (1, 2, … alone). */
  private nextN: number;
  private readonly nStep: number;
  /** Ids the producers inserted; ids the consumers dequeued (and of those, the ones whose completion failed). */
  private readonly inserted: number[] = [];
  private readonly dequeued: number[] = [];
  private readonly notCompleted: number[] = [];
  /**
   * Operations whose reply went with their connection (a kill-backend phase), settled at verification: the job
   * numbers of enqueues (stored or not: found by their number), how many dequeues (each claimed at most one job
   * nobody knows of, left processing), and the ids of completions (the job completed or still processing).
   */
  private doubtEnqueues: number[] = [];
  private doubtClaims = 0;
  private readonly doubtCompletes = new Set<number>();
  /** Per job number not yet dequeued: when its producer sent the INSERT (runner clock), for delivery latency. */
  private readonly sentAt = new Map<number, number>();
  private readonly producerShare: number;

  constructor(private readonly ctx: WorkloadContext<JobqueueConfig>) {
    const c = ctx.config;
    this.sql = jobqueueSql(ctx.schema, c.variant === "modded");
    this.vus = c.producers + c.consumers;
    // Open loop: arrivals are producer or consumer requests in the VUs' proportion.
    this.producerShare = this.vus > 0 ? c.producers / this.vus : 2 / 3;
    this.nextN = 1 + (ctx.part?.index ?? 0);
    this.nStep = ctx.part?.of ?? 1;
  }

  async setup(admin: pg.Client) {
    const { config: c, schema, log } = this.ctx;
    await admin.query(this.sql.create);
    // Completed jobs, in batches (each its own transaction), before the index: building it once is faster
    // than maintaining it row by row. created_at increases with id, before the run's jobs.
    for (let done = 0; done < c.preload; done += PRELOAD_BATCH) {
      const n = Math.min(PRELOAD_BATCH, c.preload - done);
      await admin.query(
        `INSERT INTO ${schema}.job_queue (payload, status, created_at)
         SELECT jsonb_build_object('type', 'email', 'to', 'user' || i || '@example.com', 'n', -i), 'completed',
                now() - interval '1 day' + i * interval '1 microsecond'
         FROM generate_series($1::int + 1, $1::int + $2::int) i`,
        [done, n],
      );
      if (c.preload > PRELOAD_BATCH) log(`preloaded ${(done + n).toLocaleString("en-US")} of ${c.preload.toLocaleString("en-US")} completed jobs`);
    }
    await admin.query(this.sql.index);
    if (c.preload) {
      // As a table that has been in use: visibility map set, statistics known.
      await admin.query(`VACUUM ANALYZE ${schema}.job_queue`);
      this.preloadMaxId = Number((await admin.query<{ m: string }>(`SELECT coalesce(max(id), 0) AS m FROM ${schema}.job_queue`)).rows[0].m);
    }
  }

  next(vu: number | null): YongRequest {
    const producer = vu === null ? Math.random() < this.producerShare : vu < this.ctx.config.producers;
    return producer ? this.enqueue() : this.dequeue();
  }

  private enqueue(): YongRequest {
    const n = this.nextN;
    this.nextN += this.nStep;
    const payload = `{"type":"email","to":"user${n}@example.com","n":${n}}`;
    return {
      op: "enqueue",
      inDoubt: () => this.doubtEnqueues.push(n),
      run: async (tc: TargetClient) => {
        this.sentAt.set(n, clock());
        try {
          const r = await tc.client.query<{ id: string }>({ name: "job_enqueue", text: this.sql.enqueue, values: [payload] });
          this.inserted.push(Number(r.rows[0].id));
        } catch (err) {
          this.sentAt.delete(n);
          throw err;
        }
      },
    };
  }

  private dequeue(): YongRequest {
    const stats = this.ctx.stats;
    /** The job this request claimed, once the claim answered: a lost reply after it is its completion's. */
    let claimed: number | null = null;
    return {
      op: "dequeue",
      inDoubt: () => {
        if (claimed === null) this.doubtClaims++;
        else this.doubtCompletes.add(claimed);
      },
      run: async (tc: TargetClient) => {
        const r = await tc.client.query<{ id: string; payload: string }>({ name: "job_dequeue", text: this.sql.dequeue });
        const row = r.rows[0];
        if (!row) {
          stats.op("empty").done();
          return;
        }
        const got = clock();
        const id = Number(row.id);
        claimed = id;
        this.dequeued.push(id);
        const n = Number(N_RE.exec(row.payload)?.[1] ?? Number.NaN);
        const sent = this.sentAt.get(n);
        if (sent !== undefined) {
          stats.op("delivery").span(sent, got);
          this.sentAt.delete(n);
        }
        try {
          await tc.client.query({ name: "job_complete", text: this.sql.complete, values: [row.id] });
        } catch (err) {
          this.notCompleted.push(id);
          throw err;
        }
      },
    };
  }

  ledger(): Ledger {
    const { inserted, dequeued, notCompleted, doubtEnqueues, doubtClaims } = this;
    return { inserted, dequeued, notCompleted, doubtEnqueues, doubtClaims, doubtCompletes: [...this.doubtCompletes] };
  }

  /** Every part's jobs: what its producers inserted and its consumers took (a job may be taken by another part). */
  absorb(ledgers: readonly Ledger[]) {
    // One by one: a spread of a long run's ids would overflow the call's arguments.
    const add = (to: number[], ids: unknown) => {
      for (const id of ids as number[]) to.push(id);
    };
    for (const l of ledgers) {
      add(this.inserted, l.inserted);
      add(this.dequeued, l.dequeued);
      add(this.notCompleted, l.notCompleted);
      add(this.doubtEnqueues, l.doubtEnqueues ?? []);
      this.doubtClaims += Number(l.doubtClaims ?? 0);
      for (const id of (l.doubtCompletes as number[] | undefined) ?? []) this.doubtCompletes.add(id);
    }
    if (ledgers.length > 1)
      this.notes.push("delivery latency is timed for the jobs dequeued in the runner process that enqueued them (each process times only its own)");
  }

  async verify(admin: pg.Client): Promise<WorkloadVerification> {
    const { config: c, schema } = this.ctx;
    const problems: string[] = [];
    // Enqueues in doubt, settled by their job numbers: a row that holds one was stored, and is this run's job.
    const stored = this.doubtEnqueues.length
      ? await admin.query<{ id: string }>(`SELECT id FROM ${schema}.job_queue WHERE id > $1 AND (payload->>'n')::bigint = ANY($2::bigint[])`, [
          this.preloadMaxId,
          this.doubtEnqueues,
        ])
      : { rows: [] };
    const mine = new Set(this.inserted);
    for (const row of stored.rows) mine.add(Number(row.id));
    // What the consumers took: each job once, and only this run's.
    const taken = new Map<number, number>();
    for (const id of this.dequeued) taken.set(id, (taken.get(id) ?? 0) + 1);
    let duplicated = 0;
    let foreignTaken = 0;
    for (const [id, times] of taken) {
      if (times > 1) duplicated += times - 1;
      if (!mine.has(id)) foreignTaken++;
    }
    if (duplicated) problems.push(`${countWords(duplicated, "dequeue")} took a job that had been dequeued already`);
    if (foreignTaken) problems.push(`consumers dequeued ${countWords(foreignTaken, "job")} that no producer of this run inserted`);

    // What the table holds: this run's jobs with the status their history gives them, nothing else.
    const failedCompletion = new Set(this.notCompleted);
    const expected = (id: number) => (!taken.has(id) ? "pending" : failedCompletion.has(id) ? "processing" : "completed");
    // A completion in doubt left its job completed or processing; a dequeue in doubt, at most one job nobody took
    // processing (the dequeue claims one, or none).
    let claimsSettled = 0;
    const accepted = (id: number, status: string) => {
      if (this.doubtCompletes.has(id)) return status === "completed" || status === "processing";
      if (!taken.has(id) && status === "processing" && claimsSettled < this.doubtClaims) {
        claimsSettled++;
        return true;
      }
      return status === expected(id);
    };
    const r = await admin.query<{ id: string; status: string }>(`SELECT id, status FROM ${schema}.job_queue WHERE id > $1`, [this.preloadMaxId]);
    const present = new Set<number>();
    let foreign = 0;
    let wrongStatus = 0;
    const examples: string[] = [];
    for (const row of r.rows) {
      const id = Number(row.id);
      if (!mine.has(id)) {
        foreign++;
        continue;
      }
      present.add(id);
      if (!accepted(id, row.status)) {
        wrongStatus++;
        if (examples.length < 3) examples.push(`job ${id} is ${row.status}, expected ${expected(id)}`);
      }
    }
    const lost = mine.size - present.size;
    if (lost) problems.push(`${countWords(lost, "job")} the producers inserted ${agree(lost, "are", "is")} missing from job_queue`);
    if (foreign) problems.push(`${countWords(foreign, "job")} in job_queue that no producer of this run inserted`);
    if (wrongStatus) problems.push(`${countWords(wrongStatus, "job")} whose status is not what the consumers did to them: ${examples.join("; ")}`);
    if (c.preload) {
      const p = await admin.query<{ n: string; done: string }>(
        `SELECT count(*) AS n, count(*) FILTER (WHERE status = 'completed') AS done FROM ${schema}.job_queue WHERE id <= $1`,
        [this.preloadMaxId],
      );
      if (Number(p.rows[0].n) !== c.preload || Number(p.rows[0].done) !== c.preload)
        problems.push(`of the ${c.preload} preloaded completed jobs, ${p.rows[0].n} are there and ${p.rows[0].done} still completed`);
    }
    const pending = mine.size - taken.size + foreignTaken;
    const doubts = this.doubtEnqueues.length + this.doubtClaims + this.doubtCompletes.size;
    if (doubts)
      this.notes.push(
        `${countWords(doubts, "operation")} in doubt (a connection lost before the reply), each settled from job_queue: ${countWords(this.doubtEnqueues.length, "enqueue")} (${stored.rows.length} stored); ${countWords(this.doubtClaims, "dequeue")} (${claimsSettled} left a job processing); ${countWords(this.doubtCompletes.size, "completion")}`,
      );
    if (pending > 0) this.notes.push(`${countWords(pending, "job")} ${agree(pending, "were", "was")} still pending at the end (producers outpaced consumers)`);
    if (this.notCompleted.length) this.notes.push(`${this.notCompleted.length} dequeued job(s) were left processing: their completion failed`);
    // Nothing counted unread: a backlog is what this load makes (twice as many producers as consumers), noted above.
    return {
      ok: problems.length === 0,
      checked: mine.size,
      problems,
      facts: [
        { name: "lost", value: lost, ok: lost === 0 },
        { name: "dequeued more than once", value: duplicated, ok: duplicated === 0 },
        { name: "foreign jobs", value: foreign, ok: foreign === 0 },
        { name: "jobs with a wrong status", value: wrongStatus, ok: wrongStatus === 0 },
        // A run whose loops reconnect states how many operations were in doubt, 0 included.
        ...(this.ctx.reconnect ? [inDoubtFact(doubts)] : []),
      ],
    };
  }
}

export const jobqueue = yongModule<JobqueueConfig>("jobqueue", (ctx) => new JobqueueWorkload(ctx));
