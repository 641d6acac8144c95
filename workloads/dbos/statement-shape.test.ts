// The statements the DBOS workloads send are the library's: each workload runs briefly on a server of its own
// that logs every statement (log_statement = all, the capture's log_line_prefix), and one workflow's (or
// insert's) transactions, normalised, must equal the 2.17 capture's for the same path
// (fixtures/dbos/statements.json, from scripts/extract-dbos-statements.ts). A failure names the statement.
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { startEmbedded } from "../../platform/embedded";
import { freePort } from "../../lib/testing";
import { WorkloadConfig, type WorkloadInput } from "../../lib/workloads/config";
import { runWorkload } from "../../runner/harness";
import { LOG_LINE_PREFIX, parseStatementLog, transactionShape, transactionsOf, transactionsTouching } from "./statement-log";

const FIXTURE = JSON.parse(readFileSync(path.join(import.meta.dirname, "..", "..", "fixtures", "dbos", "statements.json"), "utf8")) as {
  captures: Record<string, Record<string, { transactions: string[][] }>>;
  inserts: { transactions: string[][] };
};

let dir: string;
let server: Awaited<ReturnType<typeof startEmbedded>>;
let log = "";
before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "pgbb-dbos-shape-"));
  chmodSync(dir, 0o755);
  server = await startEmbedded({
    dataDir: dir,
    port: await freePort(),
    postgresFlags: ["-c", "fsync=off", "-c", "log_statement=all", "-c", `log_line_prefix=${LOG_LINE_PREFIX}`],
    // The server's log (its stderr), as the capture's was written.
    onLog: (m) => void (log += m.endsWith("\n") ? m : `${m}\n`),
  });
});
after(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const readLog = () => log;

/** Runs `input` briefly; returns the log's transactions and the run's schema qualifier. */
async function runLogged(input: WorkloadInput) {
  let schema = "";
  const from = log.length; // this run's part of the log only
  const summary = await runWorkload(WorkloadConfig.parse(input), server.url("postgres"), { drainSeconds: 2, onSchema: (s) => (schema = `"${s}"`) });
  assert.equal(summary.verification.ok, true, summary.verification.problems.join("; "));
  // The log arrives asynchronously: wait until the run's last statements (the schema's drop) are in.
  for (let i = 0; i < 50 && !readLog().includes(`DROP SCHEMA ${schema} CASCADE`); i++) await new Promise((r) => setTimeout(r, 100));
  const all = parseStatementLog(readLog().slice(from)).filter((s) => s.app.startsWith("pgbb conn"));
  return { txs: transactionsOf(all), schema };
}

/** Compares transaction by transaction, statement by statement, naming the first difference. */
function assertSameShape(ours: string[][], captured: string[][], what: string) {
  for (let i = 0; i < Math.max(ours.length, captured.length); i++) {
    const a = ours[i] ?? [];
    const b = captured[i] ?? [];
    for (let j = 0; j < Math.max(a.length, b.length); j++)
      assert.equal(
        a[j],
        b[j],
        `${what}: transaction ${i + 1}, statement ${j + 1} differs from the capture:\n  ours:     ${a[j] ?? "(none)"}\n  captured: ${b[j] ?? "(none)"}`,
      );
  }
}

test("workflows, no steps: the start and completion transactions are dbos 2.17's", async () => {
  const { txs, schema } = await runLogged({ kind: "workflows", rate: 20, connections: 2, durationSeconds: 1, warmupSeconds: 0 });
  const start = txs.find((t) => t.statements.some((s) => /^INSERT INTO \S+\.workflow_status/.test(s.text)));
  assert.ok(start, "a start transaction is in the log");
  const id = start.statements.find((s) => s.params.length)!.params[0].slice(1, -1);
  const ours = transactionsTouching(txs, id).map((t) => transactionShape(t, schema));
  assertSameShape(ours, FIXTURE.captures["2.17"].A_start_noop.transactions, "workflows (2.17, no steps)");
});

test("workflows, 2 steps: each step's read and checkpoint transactions are dbos 2.17's", async () => {
  const { txs, schema } = await runLogged({ kind: "workflows", rate: 20, connections: 2, steps: 2, durationSeconds: 1, warmupSeconds: 0 });
  const start = txs.find((t) => t.statements.some((s) => /^INSERT INTO \S+\.workflow_status/.test(s.text)))!;
  const id = start.statements.find((s) => s.params.length)!.params[0].slice(1, -1);
  const ours = transactionsTouching(txs, id).map((t) => transactionShape(t, schema));
  assertSameShape(ours, FIXTURE.captures["2.17"].B_start_steps.transactions, "workflows (2.17, 2 steps)");
});

test("workflows, current profile: dbos 2.32's start and completion", async () => {
  const { txs, schema } = await runLogged({ kind: "workflows", rate: 20, connections: 2, profile: "current", durationSeconds: 1, warmupSeconds: 0 });
  const start = txs.find((t) => t.statements.some((s) => /^INSERT INTO \S+\.workflow_status/.test(s.text)))!;
  const id = start.statements.find((s) => s.params.length)!.params[0].slice(1, -1);
  const ours = transactionsTouching(txs, id).map((t) => transactionShape(t, schema));
  assertSameShape(ours, FIXTURE.captures["2.32"].A_start_noop.transactions, "workflows (current, no steps)");
});

test("inserts: one autocommit INSERT per row, the study's statement", async () => {
  const { txs, schema } = await runLogged({ kind: "inserts", rate: 100, connections: 2, durationSeconds: 1, warmupSeconds: 0 });
  const insert = txs.find((t) => t.statements.some((s) => /bench_inserts/.test(s.text)));
  assert.ok(insert, "an insert is in the log");
  assertSameShape([transactionShape(insert, schema)], FIXTURE.inserts.transactions, "inserts");
  // Every logged statement of the run's connections is that insert (after each connection's session settings,
  // runner/core/pg/pgclient.ts): nothing else is sent per row.
  const others = txs.flatMap((t) => transactionShape(t, schema)).filter((s) => s !== FIXTURE.inserts.transactions[0][0] && !s.startsWith("SET bytea_output"));
  assert.deepEqual(others, []);
});

test("a differing statement is named", () => {
  assert.throws(
    () =>
      assertSameShape(
        [["BEGIN", "UPDATE workflow_status SET status=? WHERE workflow_uuid = ?", "COMMIT"]],
        FIXTURE.captures["2.17"].A_start_noop.transactions,
        "x",
      ),
    /x: transaction 1, statement 2 differs from the capture:\n {2}ours: {5}UPDATE workflow_status SET status=\? WHERE workflow_uuid = \?\n {2}captured: INSERT INTO workflow_status \(workflow_uuid, status, name,/,
  );
});
