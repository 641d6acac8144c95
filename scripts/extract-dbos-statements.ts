// Turns the DBOS statement captures (the library itself, driven against a PostgreSQL with log_statement = all,
// marker statements `SELECT 'MARK X_…'` around each path) into fixtures/dbos/statements.json: for each marked
// path, the normalised transactions of its first workflow, in order. The statement-shape test compares the
// workloads' own transactions with these. Run by a developer who has the captures; nothing else reads them:
//   node --import tsx scripts/extract-dbos-statements.ts <dir with statement-log-dbos-*.txt> [out.json]
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { normaliseStatement, parseStatementLog, transactionShape, transactionsOf, transactionsTouching } from "../workloads/dbos/statement-log";

const CAPTURES: { version: string; file: string }[] = [
  { version: "2.17", file: "statement-log-dbos-2.17.0.txt" },
  { version: "2.32", file: "statement-log-dbos-2.32-start.txt" },
  { version: "2.32", file: "statement-log-dbos-2.32-queue.txt" },
];

/** W1 is plain asyncpg, not DBOS, so no capture has it: its one statement as benchmarks/postgres_insert.py
 *  (stored version e0afaac) issues it, `conn.execute(sql, id, payload)` outside a transaction (autocommit). */
const INSERTS = {
  source: "dbos-inc/dbos-postgres-benchmark benchmarks/postgres_insert.py (stored version e0afaac): asyncpg conn.execute outside a transaction",
  transactions: [[normaliseStatement("INSERT INTO bench_inserts (id, payload) VALUES ($1, $2)")]],
};

function extract(version: string, text: string) {
  const all = parseStatementLog(text);
  const txs = transactionsOf(all.filter((s) => s.app !== "MARKER"));
  const markers = all.flatMap((s, i) => {
    const m = s.app === "MARKER" ? /^SELECT 'MARK (([A-Z])_\w+)'$/.exec(s.text.trim()) : null;
    return m ? [{ name: m[1], letter: m[2], at: i }] : [];
  });
  const sections: Record<string, { capture: string; workflowId: string; transactions: string[][] }> = {};
  for (const first of markers.filter((m) => m.name.endsWith("_begin"))) {
    const last = markers.filter((m) => m.letter === first.letter).at(-1)!;
    // The path's first workflow: the first workflow_status INSERT between its markers.
    const start = all.slice(first.at, last.at).find((s) => s.app !== "MARKER" && /^INSERT INTO dbos\.workflow_status\b/.test(s.text));
    if (!start) continue;
    const id = start.params[0].slice(1, -1);
    sections[first.name.replace(/_begin$/, "")] = {
      capture: version,
      workflowId: id,
      transactions: transactionsTouching(txs, id).map((t) => transactionShape(t)),
    };
  }
  return sections;
}

const [dir, out = path.join(import.meta.dirname, "..", "fixtures", "dbos", "statements.json")] = process.argv.slice(2);
if (!dir) {
  console.error("usage: node --import tsx scripts/extract-dbos-statements.ts <dir with statement-log-dbos-*.txt> [out.json]");
  process.exit(2);
}
const captures: Record<string, Record<string, unknown>> = {};
for (const c of CAPTURES) Object.assign((captures[c.version] ??= {}), extract(c.version, readFileSync(path.join(dir, c.file), "utf8")));
const json = {
  what: "per marked path of each DBOS capture, the normalised transactions (workloads/dbos/statement-log.ts normaliseStatement) of its first workflow, in order",
  generatedBy: "scripts/extract-dbos-statements.ts",
  sources: Object.fromEntries(CAPTURES.map((c) => [c.file, c.version])),
  captures,
  inserts: INSERTS,
};
writeFileSync(out, `${JSON.stringify(json, null, 2)}\n`);
console.log(
  `wrote ${out}: ${Object.entries(captures)
    .map(([v, s]) => `${v}: ${Object.keys(s).join(", ")}`)
    .join("; ")}`,
);
