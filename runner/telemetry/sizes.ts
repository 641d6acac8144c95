// The run's tables' size and their indexes' (pg_table_size: heap, TOAST, free space and visibility maps;
// pg_indexes_size), read on the telemetry's connection between its readings (./collector.ts) so that it never waits
// on a lock. Both functions open each relation with an ACCESS SHARE lock, which queues behind an ACCESS EXCLUSIVE
// one: read in the telemetry's one round trip they once held every reading up behind such a lock (and the stall's
// reading never named its holder, runner/telemetry/causes-runs.test.ts). So the tables are locked first with NOWAIT
// (a table locked by someone else fails at once) and the rest (indexes, TOAST) under a 100 ms lock_timeout; when
// either refuses, the last sizes stand until a later reading gets through. One query string, one implicit
// transaction: a refused lock leaves no transaction open on the connection the readings share.
import type pg from "pg";
import { explainPgError } from "../../lib/targets/pgurl";

/** Table and index bytes of the run's tables, summed. */
export interface TableSizes {
  tableBytes: number;
  indexBytes: number;
}

/** lock_not_available: NOWAIT refused, or lock_timeout ran out. */
const LOCK_NOT_AVAILABLE = "55P03";
/** undefined_table: a table dropped between listing and locking it. */
const UNDEFINED_TABLE = "42P01";
/** Sizes are read after every this many readings (5 s at one a second): two round trips more on the telemetry's
 *  connection each time, which a run's growth over minutes does not need every second. */
export const SIZE_EVERY_READINGS = 5;
/** How long the size reading waits for an index's or a TOAST table's lock at most. */
export const SIZE_LOCK_TIMEOUT_MS = 100;

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

export class TableSizeReader {
  private last?: TableSizes;
  private reading = false;
  /** Set when sizes cannot be read at all (a privilege missing): no more readings, the reason for info.missing. */
  failed?: string;
  /** Readings refused by a lock (the last sizes kept), and the server's words for the last refusal. */
  refused = 0;
  lastRefusal?: string;

  constructor(
    private readonly client: pg.Client,
    private readonly schema: string,
  ) {}

  /** The last sizes read, if any. */
  get latest(): TableSizes | undefined {
    return this.last;
  }

  /** Starts a reading unless one is under way or reading failed for good; never rejects, never waits on a lock. */
  refresh(): Promise<void> {
    if (this.reading || this.failed) return Promise.resolve();
    this.reading = true;
    return this.read()
      .catch((err) => this.failedWith(err))
      .finally(() => (this.reading = false));
  }

  private async read(): Promise<void> {
    // Lock-free: the catalog, not the tables.
    const tables = await this.client.query<{ oid: number; name: string }>(
      `SELECT c.oid, format('%I.%I', n.nspname, c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = ${lit(this.schema)} AND c.relkind IN ('r', 'm', 'p') ORDER BY c.oid`,
    );
    if (tables.rows.length === 0) return void (this.last = { tableBytes: 0, indexBytes: 0 });
    const names = tables.rows.map((t) => t.name).join(", ");
    const oids = tables.rows.map((t) => t.oid).join(",");
    const results = (await this.client.query(
      `SET LOCAL lock_timeout = '${SIZE_LOCK_TIMEOUT_MS}ms';
       LOCK TABLE ${names} IN ACCESS SHARE MODE NOWAIT;
       SELECT coalesce(sum(pg_table_size(r)), 0) AS t, coalesce(sum(pg_indexes_size(r)), 0) AS i FROM unnest('{${oids}}'::oid[]) r`,
    )) as unknown as pg.QueryResult[];
    const row = results[2].rows[0];
    this.last = { tableBytes: Number(row.t), indexBytes: Number(row.i) };
  }

  private failedWith(err: unknown) {
    const code = (err as { code?: string }).code;
    if (code === LOCK_NOT_AVAILABLE || code === UNDEFINED_TABLE) {
      this.refused++;
      this.lastRefusal = (err as Error).message;
      return;
    }
    // A lost connection is the collector's to report; anything else the server refused stops the size readings.
    if (code) this.failed = `the run's table and index sizes: ${explainPgError(err)}`;
  }
}
