// A lean node-postgres "submittable" query for the hot loops. node-postgres' own Query costs ~25 µs of
// JavaScript per statement (config cloning with property descriptors, a Result with per-query type parsers,
// an EventEmitter, two promises); an empty pub/sub poll is three statements and 20 readers make thousands
// a second, so that overhead alone was ~0.3 of a core. This object is reused for every execution of one
// statement on one connection, keeps the raw text of each row, and sends exactly the protocol messages
// node-postgres sends (Parse once per connection, then Bind/Describe/Execute/Sync; simple Query for
// parameterless statements), so the server sees the same traffic.
import type pg from "pg";
import { simpleQueryMessage } from "./protocol";
// node-postgres' own value serialiser, so parameters are encoded exactly as with client.query().
const { prepareValue } = require("pg/lib/utils") as { prepareValue: (v: unknown) => unknown };

interface Connection {
  stream: { cork?: () => void; uncork?: () => void; write(b: Buffer): boolean };
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
  query(text: string): void;
  parse(q: { text: string; name: string; types?: unknown[] }): void;
  bind(c: { portal: string; statement: string; values: unknown[]; binary?: boolean; valueMapper: (v: unknown) => unknown }): void;
  describe(c: { type: "P"; name: string }): void;
  execute(c: { portal: string; rows?: number }): void;
  sync(): void;
}

const NO_ROWS: (string | null)[][] = [];

export class LeanQuery {
  /** Rows collected while the statement runs (raw text values, null for SQL NULL). */
  private rows: (string | null)[][] = NO_ROWS;
  values: unknown[] | undefined;
  /** A pre-built Bind…Sync sequence to send instead of serialising `values` (runner/core/pg/protocol.ts). */
  private message: Buffer | undefined;
  /** Simple queries: the Query message, built once. */
  private readonly simple: Buffer | undefined;
  private resolve: ((rows: (string | null)[][]) => void) | null = null;
  private reject: ((err: Error) => void) | null = null;
  private error: Error | null = null;

  /** `name` given: a prepared statement (parsed once per connection); else a simple query (no parameters). */
  constructor(
    readonly text: string,
    readonly name?: string,
  ) {
    this.simple = name ? undefined : simpleQueryMessage(text);
  }

  /** Runs the statement on `client` (which must be otherwise idle) and resolves with its rows. */
  run(client: pg.Client, values?: unknown[]): Promise<(string | null)[][]> {
    this.message = undefined;
    return this.start(client, values);
  }

  /** Runs the prepared statement with a pre-built Bind…Sync message (its parameters already in it). */
  runMessage(client: pg.Client, message: Buffer): Promise<(string | null)[][]> {
    this.message = message;
    return this.start(client, undefined);
  }

  private start(client: pg.Client, values: unknown[] | undefined): Promise<(string | null)[][]> {
    this.rows = [];
    this.values = values;
    this.error = null;
    return new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
      (client as unknown as { query(q: unknown): void }).query(this);
    });
  }

  /** Called by node-postgres when it is this query's turn. */
  submit(connection: Connection): Error | null {
    if (this.simple) {
      connection.stream.write(this.simple);
      return null;
    }
    const name = this.name!;
    connection.stream.cork?.();
    try {
      if (connection.parsedStatements[name] === undefined && connection.submittedNamedStatements[name] === undefined) {
        connection.parse({ text: this.text, name });
        connection.submittedNamedStatements[name] = this.text;
      }
      if (this.message) connection.stream.write(this.message);
      else {
        connection.bind({ portal: "", statement: name, values: this.values ?? [], valueMapper: prepareValue });
        connection.describe({ type: "P", name: "" });
        connection.execute({ portal: "" });
        connection.sync();
      }
    } catch (err) {
      return err as Error;
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription() {}
  handleDataRow(msg: { fields: (string | null)[] }) {
    this.rows.push(msg.fields);
  }
  handleCommandComplete() {}
  handleEmptyQuery() {}
  handlePortalSuspended() {}
  handleCopyInResponse() {}
  handleCopyData() {}
  handleError(err: Error) {
    // A server error is followed by ReadyForQuery, but node-postgres drops the query before it; a dead
    // connection is reported here only. Either way this is the end of the statement.
    this.error = err;
    this.settle();
  }
  handleReadyForQuery() {
    this.settle();
  }

  private settle() {
    const resolve = this.resolve;
    const reject = this.reject;
    const rows = this.rows;
    // Let go of the rows: the caller decides how long they live (payload strings must not outlive a poll).
    this.rows = NO_ROWS;
    this.values = undefined;
    this.resolve = this.reject = null;
    if (this.error) reject?.(this.error);
    else resolve?.(rows);
  }
}
