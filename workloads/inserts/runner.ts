// DBOS's raw point inserts (server-only): benchmarks/postgres_insert.py's table and statement, its batches of
// sequential inserts on a fixed timetable (runner/core/open-loop.ts), and verification that the rows in
// the table are the inserts counted, each id once.
import type pg from "pg";
import { owned } from "../../lib/workloads/parts";
import { drainNotes, mergeOpenLoopResults, OpenLoop, type OpenLoopResult, type Slot, type TargetClient } from "../../runner/core";
import { uuid7 } from "../dbos/uuid7";
import { inDoubtFact, type Ledger, stepFailed, type WorkloadContext, type WorkloadModule, type WorkloadRun, type WorkloadVerification } from "../runtime";
import type { InsertsConfig } from "./definition";
import { agree, countWords } from "../../lib/words";

/** The study's statement; prepared once per connection, as asyncpg's conn.execute prepares it. */
export const INSERT_SQL = (schema: string) => `INSERT INTO ${schema}.bench_inserts (id, payload) VALUES ($1, $2)`;
const INSERT_NAME = "dbos_bench_insert";

function create(ctx: WorkloadContext<InsertsConfig>): WorkloadRun {
  const { config: c, schema, stats } = ctx;
  const sql = INSERT_SQL(schema);
  const write = stats.op("write");
  const batchOp = stats.op("batch");
  let inserted = 0;
  /** Ids of inserts whose reply never came (their connection went, in a run whose loops reconnect): stored or not,
   *  settled at verification by whether bench_inserts holds them. */
  let doubts: string[] = [];
  const notes: string[] = [];

  /** One batch: `batchSize` inserts one after another on one connection, each its own transaction. */
  const runBatch = async (tc: TargetClient, slot: Slot) => {
    for (let i = 0; i < c.batchSize; i++) {
      const sent = write.send();
      const id = uuid7();
      try {
        await tc.client.query({ name: INSERT_NAME, text: sql, values: [id, `payload-${i}`] });
      } catch (err) {
        // The rest of the batch is not sent (the study's batch failed as a whole); rows already inserted stay
        // counted, since they are in the table.
        batchOp.failed();
        const failed = {
          what: "insert",
          count: () => write.failed(1),
          noTransaction: true,
          pause: null,
          inDoubt: () => doubts.push(id),
          stop: ctx.writersStop,
        };
        return !(await stepFailed(ctx, tc, err, failed));
      }
      // The study's batch is counted once, with its first row (each row is its own transaction); each row is
      // timed from its send and, through its slot, from the batch's scheduled time, as the study's timetable asked
      // for all of its inserts at once.
      write.answered(sent, 1, slot, sent, i === 0 ? 1 : 0);
      inserted++;
    }
    // The batch, timed from its schedule.
    batchOp.answered(slot.due);
    return true;
  };

  const loop = new OpenLoop(ctx.pacer, ctx, c.batchSize, runBatch);
  /** On the coordinating instance of a run over several processes: the parts' open loops, merged (absorb). */
  let absorbed: OpenLoopResult | null = null;

  return {
    // A part opens the connections it owns, under their global names.
    roles: owned(c.connections, ctx.part).map((i) => `conn ${i + 1}`),
    notes,
    async setup(admin: pg.Client) {
      await admin.query(`CREATE TABLE ${schema}.bench_inserts (id UUID PRIMARY KEY, payload TEXT NOT NULL, created_at TIMESTAMPTZ NOT NULL DEFAULT NOW())`);
    },
    startWriters: (clients) => loop.start(clients),
    writersDone: () => loop.done(),
    ledger: (): Ledger => ({ inserted, doubts, loop: loop.result() }),
    absorb(ledgers) {
      inserted = ledgers.reduce((n, l) => n + Number(l.inserted), 0);
      doubts = ledgers.flatMap((l) => (l.doubts as string[] | undefined) ?? []);
      absorbed = mergeOpenLoopResults(ledgers.map((l) => l.loop as OpenLoopResult));
    },
    async verify(admin: pg.Client): Promise<WorkloadVerification> {
      const r = absorbed ?? loop.result();
      notes.push(...drainNotes(r, "batch"));
      const { rows } = await admin.query<{ n: string; ids: string; not_v7: string }>(
        `SELECT count(*) AS n, count(DISTINCT id) AS ids,
                count(*) FILTER (WHERE substr(id::text, 15, 1) <> '7' OR substr(id::text, 20, 1) NOT IN ('8', '9', 'a', 'b')) AS not_v7
         FROM ${schema}.bench_inserts`,
      );
      const n = Number(rows[0].n);
      // Each insert in doubt settled: stored (counted as committed) or not.
      const stored = doubts.length
        ? Number((await admin.query<{ n: string }>(`SELECT count(*) AS n FROM ${schema}.bench_inserts WHERE id = ANY($1::uuid[])`, [doubts])).rows[0].n)
        : 0;
      if (doubts.length)
        notes.push(
          `${countWords(doubts.length, "insert")} in doubt (a connection lost before the reply), settled from the table: ${stored} stored, ${doubts.length - stored} not`,
        );
      const committed = inserted + stored;
      const duplicated = n - Number(rows[0].ids);
      const notV7 = Number(rows[0].not_v7);
      const problems: string[] = [];
      if (n !== committed)
        problems.push(`bench_inserts holds ${n.toLocaleString("en-US")} rows but ${committed.toLocaleString("en-US")} inserts were counted as committed`);
      if (duplicated > 0) problems.push(`${countWords(duplicated, "id")} ${agree(duplicated, "occur", "occurs")} more than once in bench_inserts`);
      if (notV7 > 0)
        problems.push(`${countWords(notV7, "id")} in bench_inserts ${agree(notV7, "are not UUIDv7s", "is not a UUIDv7")} (the runner only writes UUIDv7)`);
      return {
        ok: problems.length === 0,
        checked: n,
        problems,
        facts: [
          { name: "rows in bench_inserts", value: n, ok: n === committed },
          { name: "inserts committed", value: committed, ok: n === committed },
          { name: "duplicate ids", value: duplicated, ok: duplicated === 0 },
          { name: "ids not UUIDv7", value: notV7, ok: notV7 === 0 },
          ...(ctx.reconnect ? [inDoubtFact(doubts.length)] : []),
        ],
      };
    },
  };
}

export const inserts: WorkloadModule<InsertsConfig> = {
  kind: "inserts",
  writerCount: (c, part) => owned(c.connections, part).length,
  create,
};
