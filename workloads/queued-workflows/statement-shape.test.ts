// The statements queued-workflows issues are the DBOS library's: a server of its own logs every statement
// (log_statement = all, the capture's log_line_prefix), and one workflow's transactions, normalised, equal the
// captured ones in fixtures/dbos/statements.json, for each profile, on an ordinary and a partitioned queue.
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import pg from "pg";
import { type EmbeddedServer, startEmbedded } from "../../platform/embedded";
import { freePort } from "../../lib/testing";
import { WorkloadConfig } from "../../lib/workloads/config";
import { runWorkload, verificationError } from "../../runner/harness";
import { LOG_LINE_PREFIX, normaliseStatement, parseStatementLog, transactionsOf, transactionsTouching } from "../dbos/statement-log";
import { VALUES } from "../dbos/schema";
import { RESULT_POLL_217 } from "../dbos/statements";
import { currentTail, insertColumns, onConflict217 } from "./sql";
import { throughputOf } from "../../lib/measurement/operations";

const FIXTURE = JSON.parse(readFileSync(path.join(import.meta.dirname, "..", "..", "fixtures", "dbos", "statements.json"), "utf8")) as {
  captures: Record<string, Record<string, { transactions: string[][] }>>;
};

let server: EmbeddedServer;
let dir: string;
let log = "";
before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "pgbb-qw-shape-"));
  chmodSync(dir, 0o755);
  server = await startEmbedded({
    dataDir: dir,
    port: await freePort(),
    onLog: (m) => (log += m),
    postgresFlags: ["-c", "log_statement=all", "-c", `log_line_prefix=${LOG_LINE_PREFIX}`, "-c", "fsync=off", "-c", "max_connections=100"],
  });
});
after(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * One workflow's transactions as shapes. The library claims every row of a poll with one UPDATE each, and lists
 * ids in IN lists as long as the claim: a poll that claimed several workflows is the capture's (which claimed
 * one) with the UPDATE repeated and the list longer, so repeats and list lengths are folded.
 */
function shapesOf(statementLog: string, schema: string): string[][] {
  const statements = parseStatementLog(statementLog).filter((s) => s.app.startsWith("pgbb"));
  const first = statements.find((s) => /^INSERT INTO \S+\.workflow_status\b/.test(s.text) && s.params.length);
  assert.ok(first, "the log has an enqueue");
  const id = first.params[0].slice(1, -1);
  return transactionsTouching(transactionsOf(statements), id).map((t) =>
    t.statements
      .map((s) => normaliseStatement(s.text, schema).replace(/workflow_uuid IN \(\?(?:, \?)+\)/g, "workflow_uuid IN (?)"))
      .filter((s, i, all) => i === 0 || s !== all[i - 1]),
  );
}

/** The capture's transactions of a path; the 2.17 ones without the blog-era script's handle polling (`get_result`). */
function captured(version: string, section: string): string[][] {
  const poll = normaliseStatement(RESULT_POLL_217);
  return FIXTURE.captures[version][section].transactions.filter((t) => !t.includes(poll));
}

const cases: [string, Record<string, unknown>, string, string][] = [
  ["2.17, one queue", { profile: "2.17" }, "2.17", "C_enqueue"],
  ["2.17, partitioned queue", { profile: "2.17", queuePartitions: 4 }, "2.17", "D_penqueue"],
  ["current, one queue", { profile: "current" }, "2.32", "C_enqueue"],
  ["current, partitioned queue", { profile: "current", queuePartitions: 4 }, "2.32", "D_penqueue"],
];

for (const [name, input, version, section] of cases)
  test(`${name}: one workflow's transactions are the captured ${version} ${section} ones`, async () => {
    const db = `shape_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: server.url("postgres") });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${db}`);
    await admin.end();
    let schema = "";
    const from = log.length;
    const config = WorkloadConfig.parse({
      kind: "queued-workflows",
      enqueuers: 1,
      workers: 1,
      executors: 1,
      throttleWritesPerSec: 20,
      pollMs: 200,
      durationSeconds: 1,
      warmupSeconds: 0,
      ...input,
    });
    const summary = await runWorkload(config, server.url(db), { drainSeconds: 3, onSchema: (s) => (schema = `"${s}"`) });
    assert.equal(verificationError(summary), null);
    assert.ok(throughputOf(summary, "read")!.count > 0);
    // The log arrives asynchronously: wait until the run's last statement (its schema's drop) is in.
    for (let i = 0; i < 50 && !log.includes(`DROP SCHEMA ${schema} CASCADE`, from); i++) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(shapesOf(log.slice(from), schema), captured(version, section));
  });

/** A bound value's class: NULL, a UUID, 32 hex digits (an application version), or the literal itself. */
const classOf = (v: unknown) => {
  const t = v === null ? "NULL" : typeof v === "boolean" ? (v ? "t" : "f") : String(v);
  return t === "NULL" ? t : /^[0-9a-f]{8}-[0-9a-f]{4}-/.test(t) ? "uuid" : /^[0-9a-f]{32}$/.test(t) ? "hex32" : t;
};

test("the enqueue and start INSERTs bind what the library bound: the same NULLs, constants and kinds of ids", () => {
  // From the captures' first queued workflow (statement-log-dbos-2.17.0.txt and -2.32-queue.txt, section C_enqueue),
  // each bound value by the classes above.
  const pickle = VALUES.inputs;
  const captured217 = (increment: string) =>
    ["uuid", "ENQUEUED", "noop_workflow", ..."NULL NULL NULL NULL NULL".split(" "), "uuid", "hex32", "", "NULL", "NULL", "0", "bench-queue"].concat([
      "NULL",
      "NULL",
      "NULL",
      pickle,
      "0",
      "NULL",
      "uuid",
      "NULL",
      "py_pickle",
      "NULL",
      "1000",
      "ENQUEUED",
      "DELAYED",
      increment,
    ]);
  const capturedCurrent = ["uuid", "ENQUEUED", "noop_workflow", ...Array(10).fill("NULL"), "0", "bench-queue", "NULL", "NULL", "NULL", pickle, "0"].concat([
    "NULL",
    "NULL",
    "NULL",
    "py_pickle",
    "NULL",
    "null",
    "NULL",
    "NULL",
    "f",
    "dbos-queue-bench",
    "1000",
  ]);

  const id = "0b6f1f0e-8a4c-4f7e-9d2a-2f8f1c3e5a7b";
  const v = { executor_id: id, application_version: "0123456789abcdef0123456789abcdef", application_id: "", owner_xid: id };
  const base = { workflow_uuid: id, status: "ENQUEUED", name: VALUES.workflowName, recovery_attempts: 0, queue_name: "bench-queue" };
  const body = { inputs: VALUES.inputs, priority: 0, serialization: VALUES.serialization };
  assert.deepEqual([...insertColumns({ ...base, ...body, ...v }), ...onConflict217(0)].map(classOf), captured217("0"));
  assert.deepEqual([...insertColumns({ ...base, ...body, ...v }), ...onConflict217(1)].map(classOf), captured217("1"));
  assert.deepEqual([...insertColumns({ ...base, ...body }), ...currentTail("dbos-queue-bench")].map(classOf), capturedCurrent);
});
