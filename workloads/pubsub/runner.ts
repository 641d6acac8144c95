// Pub/sub: the reference's Kafka-style log (stanislavkozlovski/pg-queue-pubsub-benchmark,
// pubsub/*.go). P partition tables with gapless offsets handed out by a
// log_counter row, G consumer groups with one reader per partition each, offsets claimed and read in one
// READ COMMITTED transaction. The SQL is the reference's, verbatim except that every table is qualified
// with the run's own schema.
import type pg from "pg";
import { z } from "zod";
import { type PubsubConfig, pubsubWritersOf } from "./definition";
import { ByteaArrayText } from "./payload";
import { owns } from "../../lib/workloads/parts";
import { LeanQuery, bindExecuteMessage, type TargetClient, Backoff, clock } from "../../runner/core";
import {
  type BrokerGroup,
  brokerOperations,
  ERROR_PAUSE_MS,
  errorMessage,
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
import { countWords } from "../../lib/words";

const BEGIN = "BEGIN ISOLATION LEVEL READ COMMITTED"; // the reference passes sql.LevelReadCommitted

export const pubsubSql = (s: string, partitions: number) => ({
  setup: [
    `CREATE TABLE ${s}.log_counter (
       id           INT PRIMARY KEY,
       next_offset  BIGINT NOT NULL
     )`,
    ...Array.from({ length: partitions }, (_, i) => i + 1).flatMap((p) => [
      `CREATE TABLE ${s}.topicpartition${p} (
         id          BIGSERIAL PRIMARY KEY,
         c_offset    BIGINT UNIQUE NOT NULL,
         payload     BYTEA NOT NULL,
         created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
       )`,
      `INSERT INTO ${s}.log_counter(id, next_offset) VALUES (${p}, 1)`,
      // Applied by the reference on every run (its only non-default setting in the 4 vCPU test).
      `ALTER TABLE ${s}.topicpartition${p} SET (autovacuum_analyze_scale_factor = 0.05)`,
    ]),
    `CREATE TABLE ${s}.consumer_offsets (
       group_id     TEXT NOT NULL,
       topic_id     INT  NOT NULL,
       next_offset  BIGINT NOT NULL DEFAULT 1,
       PRIMARY KEY (group_id, topic_id)
     )`,
  ],
  /** $1 batch size, $2 payloads, $3 partition. */
  write: (p: number) => `WITH reserve AS (
      UPDATE ${s}.log_counter
      SET next_offset = next_offset + $1
      WHERE id = $3::int
      RETURNING (next_offset - $1) AS first_off
    )
    INSERT INTO ${s}.topicpartition${p}(c_offset, payload)
    SELECT r.first_off + p.ord - 1, p.payload
    FROM reserve r,
         unnest($2::bytea[]) WITH ORDINALITY AS p(payload, ord)`,
  joinGroup: `INSERT INTO ${s}.consumer_offsets (group_id, topic_id, next_offset) VALUES ($1::text, $2::int, 1) ON CONFLICT (group_id, topic_id) DO NOTHING`,
  /** $1 group, $2 read batch, $3 partition. */
  claim: `WITH counter_tip AS (
      SELECT (next_offset - 1) AS highest_committed_offset
      FROM ${s}.log_counter
      WHERE id = $3::int
    ),
    to_claim AS (
      SELECT c.group_id,
             c.next_offset AS n0,
             LEAST($2::bigint,
                   GREATEST(0, (SELECT highest_committed_offset FROM counter_tip) - c.next_offset + 1)) AS delta
      FROM ${s}.consumer_offsets c
      WHERE c.group_id = $1::text AND c.topic_id = $3::int
      FOR UPDATE
    ),
    upd AS (
      UPDATE ${s}.consumer_offsets c
      SET next_offset = c.next_offset + t.delta
      FROM to_claim t
      WHERE c.group_id = t.group_id AND c.topic_id = $3::int
      RETURNING t.n0 AS claimed_start_offset, (c.next_offset - 1) AS claimed_end_offset
    )
    SELECT claimed_start_offset, claimed_end_offset FROM upd`,
  read: (p: number) => `SELECT c_offset, payload, created_at
    FROM ${s}.topicpartition${p}
    WHERE c_offset BETWEEN $1 AND $2
    ORDER BY c_offset`,
});

/** A reader's record in a part's ledger (ReaderState without its stats). */
const ReaderRecord = z.object({
  groupKey: z.string(),
  partition: z.number().int().positive(),
  expected: z.number().int(),
  read: z.number().int().nonnegative(),
  lost: z.number().int().nonnegative(),
  duplicated: z.number().int().nonnegative(),
  outOfOrder: z.number().int().nonnegative(),
});
/** A part's record (PubsubRun.ledger): messages written per partition (index p − 1; 0 for others'), its readers,
 *  and the messages each group's readers counted. */
const PubsubLedger = z.object({
  written: z.array(z.number().int().nonnegative()),
  doubtBatches: z.array(z.number().int().nonnegative()).optional(),
  readers: z.array(ReaderRecord),
  counted: z.record(z.string(), z.number().int().nonnegative()),
});

/** Per (group, partition) reader state: O(1) memory whatever the run length. */
interface ReaderState {
  group: BrokerGroup;
  groupKey: string;
  partition: number;
  /** The next offset this reader expects to read (offsets start at 1). */
  expected: number;
  read: number;
  lost: number;
  duplicated: number;
  outOfOrder: number;
  /**
   * A read whose COMMIT was in flight when the connection went (a run whose loops reconnect): its claimed range and
   * what the read found, applied if it committed. The next claim settles it (the group's offset then starts after
   * the range, or at its start again); one the run ended before is settled from consumer_offsets at verification.
   */
  pending?: { start: number; end: number; expected: number; rows: number; lost: number; duplicated: number; outOfOrder: number };
}

/** What is wrong with the readers' coverage: a group's partition with no reader state, or with more than one. */
function readerCoverage(readers: readonly ReaderState[], groups: readonly BrokerGroup[], partitions: number): string[] {
  const out: string[] = [];
  for (const g of groups)
    for (let p = 1; p <= partitions; p++) {
      const n = readers.filter((r) => r.groupKey === g.name && r.partition === p).length;
      if (n === 0) out.push(`group ${g.name} partition ${p}: no part reported its reader (a part's record is missing): its messages were not checked`);
      else if (n > 1) out.push(`group ${g.name} partition ${p}: ${n} parts reported its reader, one must: its messages were counted ${n} times`);
    }
  return out;
}

class PubsubRun implements WorkloadRun {
  readonly roles: string[];
  readonly notes: string[] = [];
  private readonly sql: ReturnType<typeof pubsubSql>;
  private readonly readerStates: ReaderState[] = [];
  /** Messages whose batch committed, per partition (index p-1): compared with the table's rows at the end. */
  private readonly written: number[];
  /** Messages the readers of each group counted (by group name), beside their states' own counts. */
  private readonly counted = new Map<string, number>();
  /** Per partition (index p-1): batches whose COMMIT was in flight when their writer's connection went: stored
   *  whole or not at all (one transaction), settled at verification from the table's rows. */
  private readonly doubtBatches: number[];
  /** Reads whose COMMIT was in doubt, and how many of them had committed, as their settling found. */
  private doubtReads = 0;
  private doubtReadsCommitted = 0;
  /** The partitions (1-based) this instance runs, and its writers by global index (all of them without a part). */
  private readonly partitions: number[];
  private readonly writerIndexes: number[];
  private writerLoops: Promise<void>[] = [];
  private readerLoops: Promise<void>[] = [];
  private readonly stampE2e: boolean;
  /** Payloads also carry their write's scheduled time (throttled runs): runtime.ts SCHEDULE_STAMP_OFFSET. */
  private readonly stampSchedule: boolean;
  /** The broker's operations in the run's recorder: the write, and each group's read, claim and e2e. */
  private readonly ops: ReturnType<typeof brokerOperations>;
  readonly readers = { start: (clients: TargetClient[]) => this.startReaders(clients), done: () => Promise.all(this.readerLoops).then(() => undefined) };

  constructor(private readonly ctx: WorkloadContext<PubsubConfig>) {
    const c = ctx.config;
    this.ops = brokerOperations(ctx.stats);
    this.sql = pubsubSql(ctx.schema, c.partitions);
    this.written = new Array(c.partitions).fill(0);
    this.doubtBatches = new Array(c.partitions).fill(0);
    // A part owns partitions p with (p − 1) mod N = its index: their writers and every group's reader of them.
    this.partitions = Array.from({ length: c.partitions }, (_, i) => i + 1).filter((p) => owns(p - 1, ctx.part));
    this.writerIndexes = pubsubWritersOf(c, ctx.part);
    this.roles = [
      ...this.writerIndexes.map((w) => `writer ${w} p${(w % c.partitions) + 1}`),
      ...ctx.stats.groups.flatMap((g) => this.partitions.map((p) => `reader ${g.name} p${p}`)),
    ];
    this.stampE2e = canStampE2e(c.payloadBytes, this.notes);
    this.stampSchedule = this.stampE2e && canStampSchedule(c.payloadBytes, ctx.pacer.throttle !== null, this.notes);
  }

  async setup(admin: pg.Client) {
    for (const q of this.sql.setup) await admin.query(q);
  }

  private async startReaders(clients: TargetClient[]) {
    const joined: Promise<void>[] = [];
    let i = 0;
    // Assignment as the reference (pubsub_runner.go L51-101): for each group, one reader per partition.
    for (const group of this.ops.groups) {
      for (const p of this.partitions) {
        const st: ReaderState = { group, groupKey: group.name, partition: p, expected: 1, read: 0, lost: 0, duplicated: 0, outOfOrder: 0 };
        this.readerStates.push(st);
        const tc = clients[i++];
        let ready!: () => void;
        let failed!: (e: Error) => void;
        joined.push(new Promise<void>((res, rej) => ((ready = res), (failed = rej))));
        this.readerLoops.push(this.readerLoop(tc, st, ready, failed));
      }
    }
    await Promise.all(joined);
  }

  startWriters(clients: TargetClient[]) {
    const P = this.ctx.config.partitions;
    // Writer w is pinned to partition (w % P) + 1 (reference L75-80: p1=3 p2=3 p3=2 p4=2 for 10 writers, 4 partitions).
    this.writerLoops = clients.map((tc, i) => this.writerLoop(tc, this.writerIndexes[i], (this.writerIndexes[i] % P) + 1));
  }

  writersDone() {
    return Promise.all(this.writerLoops).then(() => undefined);
  }

  private writerLoop(tc: TargetClient, w: number, partition: number) {
    const { config: c, pacer, writersStop: stop } = this.ctx;
    const B = c.writeBatch;
    // The Bind message of this writer's INSERT, with the batch's text built in place in its parameter region.
    const name = `pgbb_write_p${partition}`;
    const { message, offsets } = bindExecuteMessage(name, [String(B), ByteaArrayText.textLength(B, c.payloadBytes), String(partition)]);
    const batch = new ByteaArrayText(B, c.payloadBytes, message, offsets[1]);
    const qBegin = new LeanQuery(BEGIN);
    const qWrite = new LeanQuery(this.sql.write(partition), name);
    const qCommit = new LeanQuery("COMMIT");
    const write = this.ops.write;
    // One batch of B messages, when the pacer says it is due (slot.due: 0 unthrottled).
    return pacer.loop(w, stop, B, async (slot) => {
      batch.refill(); // fresh random payloads per batch, as the reference's buildPayloadBatch, outside the timer
      const t0 = write.send();
      if (this.stampE2e) batch.stamp(t0, this.stampSchedule ? slot.due : undefined);
      let committing = false;
      try {
        await qBegin.run(tc.client);
        const ts = write.send(); // timer starts after BEGIN, as the reference (writer.go L62-80)
        await qWrite.runMessage(tc.client, message);
        committing = true;
        await qCommit.run(tc.client);
        // B messages in one batch, timed from `ts`; from its schedule from `t0`, when the batch left.
        write.answered(ts, B, slot, t0);
        this.written[partition - 1] += B;
        return true;
      } catch (err) {
        const what = `write p${partition}`;
        // Lost during its COMMIT: the batch (its offsets and rows, one transaction) is stored whole or not at all.
        const inDoubt = committing ? () => this.doubtBatches[partition - 1]++ : undefined;
        return !(await stepFailed(this.ctx, tc, err, { what, count: () => write.failed(B), pause: () => stop.sleep(ERROR_PAUSE_MS), inDoubt, stop }));
      }
    });
  }

  private async readerLoop(tc: TargetClient, st: ReaderState, ready: () => void, failed: (e: Error) => void) {
    const { config: c, readersStop: stop } = this.ctx;
    // tc.client is read per statement: a loop of a run that reconnects gets a new one (workloads/runtime.ts stepFailed).
    try {
      await tc.client.query(this.sql.joinGroup, [st.groupKey, st.partition]);
    } catch (err) {
      failed(new Error(`${tc.role} could not join its group: ${errorMessage(err)}`, { cause: err }));
      return;
    }
    ready();
    const g = st.group;
    // The claim's parameters never change for a reader: its Bind message is built once.
    const claimMessage = bindExecuteMessage("pgbb_claim", [st.groupKey, String(c.readBatch), String(st.partition)]).message;
    const readValues: unknown[] = [0, 0];
    const qBegin = new LeanQuery(BEGIN);
    const qClaim = new LeanQuery(this.sql.claim, "pgbb_claim");
    const qRead = new LeanQuery(this.sql.read(st.partition), `pgbb_read_p${st.partition}`);
    const qCommit = new LeanQuery("COMMIT");
    const scratch = Buffer.alloc(STAMP_BYTES);
    const backoff = new Backoff(c.backoff, stop);
    // A write batch shares its stamps: the send time, and under a throttle the scheduled time after it.
    const stampHex = 2 * (this.stampSchedule ? STAMPS_BYTES : STAMP_BYTES);
    // e2e values of one poll, applied after COMMIT: runs of equal stamps (a write batch shares one stamp).
    const runStamp = new Float64Array(c.readBatch);
    const runDue = new Float64Array(c.readBatch);
    const runCount = new Uint32Array(c.readBatch);
    /** Outcome of the current poll, applied to the reader's state only after COMMIT. */
    const check = { expected: 0, lost: 0, duplicated: 0, outOfOrder: 0, rows: 0, runs: 0, tRows: 0 };
    const readAndCheck = async (start: number, end: number) => {
      readValues[0] = start;
      readValues[1] = end;
      const rows = await qRead.run(tc.client, readValues);
      check.tRows = clock(); // the rows' delivery, which only the reader sees: the end of their e2e
      // Verify order and completeness against the claim.
      let exp = st.expected;
      check.lost = check.duplicated = check.outOfOrder = check.runs = 0;
      if (start > exp)
        check.lost += start - exp; // the group's offset moved past messages this reader never got
      else if (start < exp) check.duplicated += exp - start; // offsets handed out again
      exp = start;
      let runs = 0;
      let prevHex = "";
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i];
        const off = Number(row[0]);
        if (off === exp) exp++;
        else if (off > exp) {
          check.lost += off - exp;
          exp = off + 1;
        } else check.outOfOrder++;
        if (this.stampE2e) {
          const payload = row[1] as string;
          const hex = payload.substring(2, 2 + stampHex);
          if (hex === prevHex) runCount[runs - 1]++;
          else {
            runStamp[runs] = stampOfHex(payload, scratch, this.ctx.stats.startedAt, check.tRows); // NaN: unreadable
            if (this.stampSchedule) runDue[runs] = stampOfHex(payload, scratch, this.ctx.stats.startedAt, check.tRows, SCHEDULE_STAMP_OFFSET);
            runCount[runs] = 1;
            runs++;
            prevHex = hex;
          }
        }
      }
      if (exp <= end) {
        check.lost += end - exp + 1; // claimed offsets the range read did not return
        exp = end + 1;
      }
      check.expected = exp;
      check.rows = rows.length;
      check.runs = runs;
    };
    while (!stop.stopped) {
      await this.ctx.readersPause?.pass(stop); // a pause-workers phase: between claims, holding nothing
      if (stop.stopped) break;
      let start: number, end: number;
      try {
        await qBegin.run(tc.client);
        const tc0 = g.claim.send();
        const r = await qClaim.runMessage(tc.client, claimMessage);
        g.claim.timed(tc0);
        if (r.length !== 1) throw new Error(`claim returned no row: consumer_offsets has no row for ${st.groupKey}/${st.partition}`);
        start = Number(r[0][0]);
        end = Number(r[0][1]);
        if (st.pending) this.settleRead(st, start - 1);
      } catch (err) {
        const what = `claim ${st.groupKey} p${st.partition}`;
        if (await stepFailed(this.ctx, tc, err, { what, count: () => g.read.failed(), pause: () => backoff.jitter(100, 800), stop })) return;
        continue;
      }

      if (start > end) {
        // Empty claim: the reference COMMITs (its UPDATE ran with delta 0) and backs off 100 µs–2 ms.
        try {
          await qCommit.run(tc.client);
          g.emptyPolls.add();
        } catch (err) {
          // No pause of its own: the empty claim's back-off follows.
          // An empty claim moved nothing: its commit in doubt or not, the offset is where it was.
          const what = `empty claim commit ${st.groupKey} p${st.partition}`;
          if (await stepFailed(this.ctx, tc, err, { what, count: () => g.read.failed(), pause: null, stop })) return;
        }
        await backoff.jitter(100, 2000); // reference: time.Sleep(jitter(100µs, 2ms))
        continue;
      }

      let committing = false;
      try {
        const tr = g.read.send(); // read timer starts after the claim, as the reference (reader.go L138)
        // The rows (200 × 2 KiB strings) must not stay referenced across the COMMIT round trip: held there,
        // they outlive a scavenge, get promoted and make the heap (and RSS) swing by ~100 MB.
        await readAndCheck(start, end);
        committing = true;
        await qCommit.run(tc.client);
        g.read.answered(tr, check.rows);
        for (let i = 0; i < check.runs; i++) {
          // Both stamps or neither: a message whose scheduled time cannot be read is in neither e2e.
          if (Number.isNaN(runStamp[i]) || (this.stampSchedule && Number.isNaN(runDue[i]))) this.ctx.stats.unreadableStamp(runCount[i]);
          else {
            g.e2e.span(runStamp[i], check.tRows, runCount[i]);
            if (this.stampSchedule) g.e2eScheduled.span(runDue[i], check.tRows, runCount[i]);
          }
        }
        st.expected = check.expected;
        st.read += check.rows;
        st.lost += check.lost;
        st.duplicated += check.duplicated;
        st.outOfOrder += check.outOfOrder;
        this.counted.set(st.groupKey, (this.counted.get(st.groupKey) ?? 0) + check.rows);
      } catch (err) {
        const what = `read ${st.groupKey} p${st.partition}`;
        // Lost during its COMMIT: the group's offset moved past the range or did not; the next claim tells.
        const { expected, rows, lost, duplicated, outOfOrder } = check;
        const inDoubt = committing
          ? () => {
              this.doubtReads++;
              st.pending = { start, end, expected, rows, lost, duplicated, outOfOrder };
            }
          : undefined;
        if (await stepFailed(this.ctx, tc, err, { what, count: () => g.read.failed(), pause: () => stop.sleep(ERROR_PAUSE_MS), inDoubt, stop })) return;
      }
    }
  }

  /**
   * Settles a reader's in-doubt read from where its group's offset stands (`committedTo`, the last offset committed):
   * past the range, it committed and what it read counts as read; still before it, it did not (the range is read
   * again). Anywhere else is not a settling, and the reader's ordinary checks (lost, read twice) report it.
   */
  private settleRead(st: ReaderState, committedTo: number) {
    const p = st.pending;
    if (!p) return;
    st.pending = undefined;
    if (committedTo === p.end) {
      this.doubtReadsCommitted++;
      st.expected = p.expected;
      st.read += p.rows;
      st.lost += p.lost;
      st.duplicated += p.duplicated;
      st.outOfOrder += p.outOfOrder;
      this.counted.set(st.groupKey, (this.counted.get(st.groupKey) ?? 0) + p.rows);
    }
  }

  async verify(admin: pg.Client): Promise<WorkloadVerification> {
    const s = this.ctx.schema;
    const problems: string[] = [];
    let countsMatch = true;
    let lost = 0;
    let duplicated = 0;
    let outOfOrder = 0;
    let checked = 0;
    let unreadAtEnd = 0;
    let doubtBatchesStored = 0;
    const tips = new Map<number, number>();
    const counters = await admin.query<{ id: number; next_offset: string }>(`SELECT id, next_offset FROM ${s}.log_counter`);
    for (const row of counters.rows) tips.set(Number(row.id), Number(row.next_offset) - 1);

    for (let p = 1; p <= this.ctx.config.partitions; p++) {
      const r = await admin.query<{ n: string; mn: string | null; mx: string | null }>(
        `SELECT count(*) AS n, min(c_offset) AS mn, max(c_offset) AS mx FROM ${s}.topicpartition${p}`,
      );
      const n = Number(r.rows[0].n);
      const mx = Number(r.rows[0].mx ?? 0);
      const mn = Number(r.rows[0].mn ?? 0);
      const tip = tips.get(p) ?? 0;
      if (n !== tip || mx !== tip || (n > 0 && mn !== 1)) {
        const missing = Math.max(tip - n, 0);
        lost += missing;
        countsMatch = false;
        problems.push(
          `partition ${p}: offsets 1..${tip} were handed out but the table holds ${n} rows (offsets ${n ? `${mn}..${mx}` : "none"}): ${countWords(missing, "message")} missing`,
        );
      }
      // In-doubt batches: each stored whole or not at all, so the rows beyond those written are whole batches of them.
      const extra = n - this.written[p - 1];
      const B = this.ctx.config.writeBatch;
      const doubts = this.doubtBatches[p - 1];
      if (extra !== 0 && !(doubts > 0 && extra > 0 && extra % B === 0 && extra / B <= doubts)) {
        countsMatch = false;
        const inDoubt = doubts ? ` (and ${countWords(doubts, "batch")} of ${B} in doubt, stored whole or not at all)` : "";
        problems.push(`partition ${p}: the runner counted ${this.written[p - 1]} messages written${inDoubt} but the table holds ${n} rows`);
      }
      if (doubts) doubtBatchesStored += Math.max(0, Math.min(doubts, Math.floor(extra / B)));
    }

    const offsets = await admin.query<{ group_id: string; topic_id: number; next_offset: string }>(
      `SELECT group_id, topic_id, next_offset FROM ${s}.consumer_offsets`,
    );
    const committed = new Map(offsets.rows.map((o) => [`${o.group_id}/${o.topic_id}`, Number(o.next_offset) - 1]));
    // A read still in doubt (no claim came after it) is settled from where its group's offset stands.
    for (const st of this.readerStates) {
      const co = committed.get(`${st.groupKey}/${st.partition}`);
      if (st.pending && co !== undefined) this.settleRead(st, co);
    }
    for (const st of this.readerStates) {
      const where = `group ${st.groupKey} partition ${st.partition}`;
      const co = committed.get(`${st.groupKey}/${st.partition}`);
      if (co === undefined) {
        countsMatch = false;
        problems.push(`${where}: no consumer_offsets row`);
      } else {
        if (co !== st.expected - 1) {
          countsMatch = false;
          problems.push(`${where}: the consumer offset is at ${co} but the reader read up to ${st.expected - 1}`);
        }
        unreadAtEnd += Math.max((tips.get(st.partition) ?? 0) - co, 0);
      }
      if (st.lost) problems.push(`${countWords(st.lost, "message")} lost in ${where} (claimed but never read)`);
      if (st.duplicated) problems.push(`${countWords(st.duplicated, "message")} read twice in ${where}`);
      if (st.outOfOrder) problems.push(`${countWords(st.outOfOrder, "message")} out of order in ${where}`);
      lost += st.lost;
      duplicated += st.duplicated;
      outOfOrder += st.outOfOrder;
      checked += st.read;
    }
    // Every group's reader of every partition, once: over several parts they come from the parts' ledgers, and
    // one no part reported (its record lost) would otherwise leave its partition unchecked.
    for (const problem of readerCoverage(this.readerStates, this.ops.groups, this.ctx.config.partitions)) {
      countsMatch = false;
      problems.push(problem);
    }
    for (const g of this.ops.groups) {
      const sum = this.readerStates.filter((r) => r.groupKey === g.name).reduce((a, r) => a + r.read, 0);
      const counted = this.counted.get(g.name) ?? 0;
      if (sum !== counted) {
        countsMatch = false;
        problems.push(`group ${g.name}: readers verified ${sum} messages but ${counted} were counted`);
      }
    }
    const ok = countsMatch && lost === 0 && duplicated === 0 && outOfOrder === 0;
    const facts = brokerFacts({ lost, duplicated, outOfOrder, countsMatch });
    const doubtBatches = this.doubtBatches.reduce((a, b) => a + b, 0);
    // A run whose loops reconnect states how many operations were in doubt, 0 included, and how each settled.
    if (this.ctx.reconnect) facts.push(inDoubtFact(doubtBatches + this.doubtReads));
    if (doubtBatches + this.doubtReads)
      this.notes.push(
        `${countWords(doubtBatches + this.doubtReads, "operation")} in doubt, a COMMIT sent when a connection was lost and never answered, each settled from the target: ${countWords(doubtBatches, "write batch")} (${doubtBatchesStored} stored, ${doubtBatches - doubtBatchesStored} not); ${countWords(this.doubtReads, "read")} (${this.doubtReadsCommitted} committed, ${this.doubtReads - this.doubtReadsCommitted} not)`,
      );
    return { ok, checked, problems, facts, unreadAtEnd };
  }

  ledger(): Ledger {
    const readers = this.readerStates.map(({ group: _, ...r }) => r);
    return { written: this.written, doubtBatches: this.doubtBatches, readers, counted: Object.fromEntries(this.counted) };
  }

  /** Every part's record added into this one's: writes by partition, every part's readers, groups' counts. */
  absorb(ledgers: readonly Ledger[]) {
    ledgers.forEach((raw, part) => {
      const parsed = PubsubLedger.safeParse(raw);
      if (!parsed.success) throw new Error(`part ${part}'s pub/sub ledger is not valid: ${parsed.error.issues[0]?.message}`);
      const l = parsed.data;
      if (l.written.length !== this.written.length)
        throw new Error(`part ${part}'s pub/sub ledger has ${l.written.length} partitions, the run ${this.written.length}`);
      for (let i = 0; i < l.written.length; i++) {
        this.written[i] += l.written[i];
        this.doubtBatches[i] += l.doubtBatches?.[i] ?? 0;
      }
      for (const r of l.readers) {
        const group = this.ops.groups.find((g) => g.name === r.groupKey);
        if (!group) throw new Error(`part ${part}'s pub/sub ledger has a reader of group ${r.groupKey}, which the run does not have`);
        this.readerStates.push({ ...r, group });
      }
      for (const [g, n] of Object.entries(l.counted)) this.counted.set(g, (this.counted.get(g) ?? 0) + n);
    });
  }
}

export const pubsub: WorkloadModule<PubsubConfig> = {
  kind: "pubsub",
  groupNames: (c) => Array.from({ length: c.consumerGroups }, (_, g) => `g${g}`),
  writerCount: (c, part) => pubsubWritersOf(c, part).length,
  create: (ctx) => new PubsubRun(ctx),
};
