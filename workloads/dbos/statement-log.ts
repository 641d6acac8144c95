// Reads a PostgreSQL statement log (log_statement = all) into transactions per connection, and normalises
// statement texts so that ours and the DBOS library's compare. One parser for both sides: the captured 2.17
// log (scripts/extract-dbos-statements.ts turns it into fixtures/dbos/statements.json) and the log the
// statement-shape test has its own server write, with the same log_line_prefix as the capture.

/** The capture's log_line_prefix: `%m [%p] app=%a xid=%x: `. The test's server writes the same. */
export const LOG_LINE_PREFIX = "%m [%p] app=%a xid=%x: ";
const LINE = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ \S+ \[(\d+)\] app=(.*?) xid=\d+: ([A-Z]+): {2}(.*)$/;

export interface LoggedStatement {
  pid: number;
  app: string;
  /** The SQL as the server logged it (continuation lines joined with newlines). */
  text: string;
  /** The DETAIL line's bound values, as logged (`'abc'`, `NULL`). */
  params: string[];
}

/** Every statement in the log, in order. */
export function parseStatementLog(log: string): LoggedStatement[] {
  const out: LoggedStatement[] = [];
  let last: LoggedStatement | undefined;
  let continuing = false;
  for (const line of log.split("\n")) {
    const m = LINE.exec(line);
    if (!m) {
      // A statement's further lines start with a tab (the server indents them).
      if (continuing && last && line.startsWith("\t")) last.text += `\n${line.slice(1)}`;
      continue;
    }
    continuing = false;
    const [, pid, app, level, rest] = m;
    if (level === "LOG") {
      const s = /^(?:statement|execute [^:]+): ([\s\S]*)$/.exec(rest);
      if (!s) continue; // durations, connection lines
      last = { pid: Number(pid), app, text: s[1], params: [] };
      out.push(last);
      continuing = true;
    } else if (level === "DETAIL" && last && last.pid === Number(pid) && /^parameters: /i.test(rest)) {
      // "parameters:" up to PostgreSQL 17, "Parameters:" from 18.
      last.params = splitParams(rest.slice("parameters: ".length));
    }
  }
  return out;
}

/** `$1 = 'a', $2 = NULL, $3 = 'it''s'` → [`'a'`, `NULL`, `'it''s'`]. */
function splitParams(s: string): string[] {
  const out: string[] = [];
  const re = /\$\d+ = ('(?:[^']|'')*'|NULL)/g;
  for (let m = re.exec(s); m; m = re.exec(s)) out.push(m[1]);
  return out;
}

/** One transaction of one connection: BEGIN … COMMIT, or a single statement outside one (autocommit). */
export interface LoggedTransaction {
  pid: number;
  statements: LoggedStatement[];
}

const BEGIN = /^(BEGIN|START TRANSACTION)\b/i;
const END = /^(COMMIT|ROLLBACK|END)\b/i;

/** Groups each connection's statements into transactions, in the order each began. Bare `;` (a pool's ping) is dropped. */
export function transactionsOf(statements: LoggedStatement[]): LoggedTransaction[] {
  const open = new Map<number, LoggedTransaction>();
  const out: LoggedTransaction[] = [];
  for (const s of statements) {
    const text = s.text.trim();
    if (text === ";" || text === "") continue;
    let tx = open.get(s.pid);
    if (!tx) {
      tx = { pid: s.pid, statements: [] };
      out.push(tx);
      if (BEGIN.test(text)) open.set(s.pid, tx);
    }
    tx.statements.push(s);
    if (END.test(text)) open.delete(s.pid);
  }
  return out;
}

/**
 * A statement's shape: bound parameters and literals become `?`, casts (`::VARCHAR`) go, the schema qualifier
 * goes (the library's `dbos.`, our run's `"pgbb_…".`), whitespace collapses. What is left is what the server
 * parses and plans: the same tables, columns, clauses and predicates in the same order.
 */
export function normaliseStatement(sql: string, schemaQualifier = "dbos"): string {
  let s = sql;
  s = s.replace(/'(?:[^']|'')*'/g, "?"); // string literals (first, so nothing below looks inside them)
  s = s.replace(/::[A-Za-z_]+(?:\[\])?/g, ""); // casts
  s = s.replace(/\$\d+/g, "?");
  s = s.replace(/(?<![\w.])\d+(?:\.\d+)?(?![\w])/g, "?"); // numbers
  const q = schemaQualifier.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  s = s.replace(new RegExp(`(?<![\\w"])${q}\\.`, "g"), "");
  s = s.replace(/\s+/g, " ").trim();
  s = s.replace(/\s*;$/, "");
  return s;
}

/** A transaction's shape: its normalised statements. */
export const transactionShape = (tx: LoggedTransaction, schemaQualifier?: string) => tx.statements.map((s) => normaliseStatement(s.text, schemaQualifier));

/** The transactions whose statements carry `id` as a bound value (`'<id>'`), in order: one workflow's (or row's) life. */
export function transactionsTouching(txs: LoggedTransaction[], id: string): LoggedTransaction[] {
  const quoted = `'${id}'`;
  return txs.filter((t) => t.statements.some((s) => s.params.includes(quoted)));
}
