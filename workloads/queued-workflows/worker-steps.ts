// What a queued-workflows worker sends the target (server-only), statement for statement as the library's current
// and 2.17 profiles do (./sql.ts): a dequeue poll of one queue, and a claimed workflow's start and completion. The
// run's loops (./runner.ts) decide when; these say what.
import { randomUUID } from "node:crypto";
import { LeanQuery, type TargetClient } from "../../runner/core";
import { VALUES } from "../dbos/schema";
import type { QueuedWorkflowsConfig } from "./definition";
import type { DoubtWrite } from "./doubts";
import type { Claimed } from "./ledger";
import { IN_CHUNK, insertColumns, onConflict217, type QwSql } from "./sql";

/** The application name the study's queue script gives its DBOSClient and workers (current profile). */
export const APP_NAME = "dbos-queue-bench";

/** The current profile's partitioned dequeue considers at most this many keys per poll (captured). */
const PARTITION_SCAN_LIMIT = 8192;

/** What every worker of a run shares: the config, the statements, the queue names and the application version. */
export interface WorkerContext {
  config: QueuedWorkflowsConfig;
  sql: QwSql;
  names: readonly string[];
  /** 32 hex digits, as the library's; workers dequeue only their version's workflows. */
  appVersion: string;
}

/** One connection's statements, each prepared once on it (LeanQuery), or unnamed for IN lists of any length. */
export class Conn {
  private readonly prepared = new Map<string, LeanQuery>();
  constructor(readonly tc: TargetClient) {}
  run(text: string, values?: unknown[]): Promise<(string | null)[][]> {
    let q = this.prepared.get(text);
    if (!q) this.prepared.set(text, (q = new LeanQuery(text, values ? `qw${this.prepared.size}` : undefined)));
    return q.run(this.tc.client, values);
  }
  async unnamed(text: string, values: unknown[]): Promise<{ rows: (string | null)[][]; rowCount: number }> {
    const r = await this.tc.client.query({ text, values, rowMode: "array" });
    return { rows: r.rows as (string | null)[][], rowCount: r.rowCount ?? 0 };
  }
}

export interface WorkerState {
  local: Claimed[];
  executorId: string;
  /** Per queue: claimed and not completed (the current profile's claim limit, per queue and process as the library's, subtracts it). */
  running: number[];
  /** Executors waiting for work; every claim wakes them all (they take turns on `local`). */
  waiters: (() => void)[];
  /** The poller connection's queue: each poll runs after the previous one. */
  turn: Promise<unknown>;
  /** Claims whose COMMIT is in flight on the poller connection: in doubt if the connection goes before its reply. */
  claiming: Claimed[];
  /** Claims in doubt since the poller's connection went, settled from the table before its next poll. */
  doubtClaims: Claimed[];
}

/** Where an executor's workflow stands: the write whose COMMIT is in flight (in doubt if the connection goes). */
export interface RunAt {
  doubt: DoubtWrite;
}

/** Claims `ids` of queue `q` commit with `commit`; while its reply is awaited they are the poll's claims in doubt. */
async function commitClaims(conn: Conn, state: WorkerState, q: number, ids: string[]) {
  state.claiming = ids.map((id) => ({ id, queue: q }));
  await conn.run("COMMIT");
  state.claiming = [];
}

export function wakeAll(state: WorkerState) {
  for (const w of state.waiters.splice(0)) w();
}

/**
 * One dequeue poll of queue `q`: hands each committed claim to `hand` (in the current profile after its start,
 * the batch's read-back), and returns how many workflows it claimed.
 */
export async function dequeue(w: WorkerContext, conn: Conn, q: number, state: WorkerState, hand: (ids: string[]) => void): Promise<number> {
  const c = w.config;
  const s = w.sql;
  const name = w.names[q];
  const nowMs = Date.now();
  let ids: string[] = [];
  if (c.profile === "2.17") {
    if (c.queuePartitions) {
      await conn.run("BEGIN");
      const keys = (await conn.run(s.partitions217, [name, "ENQUEUED"])).map((r) => r[0] as string);
      await conn.run("COMMIT");
      // One REPEATABLE READ transaction per key; an error (NOWAIT's lock not available) ends the whole poll.
      let claimed = 0;
      for (const key of keys) {
        await conn.run("BEGIN");
        await conn.run("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
        const running = (await conn.run(s.partitionRunning217, [name, "PENDING", key])).reduce((a, r) => a + Number(r[1]), 0);
        if (running < 1) {
          const got = (await conn.run(s.partitionDequeue217, [name, "ENQUEUED", w.appVersion, key, 1 - running])).map((r) => r[0] as string);
          for (const id of got) await conn.run(s.claim217, ["PENDING", state.executorId, w.appVersion, 1000, nowMs, id]);
          await commitClaims(conn, state, q, got);
          hand(got);
          claimed += got.length;
        } else await conn.run("COMMIT");
      }
      return claimed;
    }
    await conn.run("BEGIN");
    await conn.run("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
    ids = (await conn.run(s.dequeue217, [name, "ENQUEUED", w.appVersion])).map((r) => r[0] as string);
    // One UPDATE per claimed row, in the dequeue's transaction: the library's batch is one commit, not one statement.
    for (const id of ids) await conn.run(s.claim217, ["PENDING", state.executorId, w.appVersion, 1000, nowMs, id]);
    await commitClaims(conn, state, q, ids);
    hand(ids);
    return ids.length;
  }
  // current: READ COMMITTED (only a per-worker limit is set); the version lookup opens the transaction.
  const app = APP_NAME;
  const claimHead = ["PENDING", state.executorId, 1000, w.appVersion, 1, nowMs, 1000, false, app];
  await conn.run("BEGIN");
  await conn.run(s.appVersionCurrent, [app, 1]);
  if (c.queuePartitions) {
    const heads = (await conn.run(s.partitionHeadsCurrent, [name, "ENQUEUED", app, 1, name, "PENDING", PARTITION_SCAN_LIMIT, w.appVersion, 1])).map(
      (r) => r[0] as string,
    );
    if (heads.length) {
      const locked = (await conn.unnamed(s.partitionLockCurrent(heads.length), [...heads, "ENQUEUED", name, w.appVersion, app])).rows.map(
        (r) => r[0] as string,
      );
      if (locked.length)
        ids = (await conn.unnamed(s.partitionClaimCurrent(locked.length), [...claimHead, ...locked, "ENQUEUED", name, w.appVersion, app])).rows.map(
          (r) => r[0] as string,
        );
    }
  } else {
    const free = c.workerConcurrency - state.running[q];
    if (free > 0) {
      const found = (await conn.run(s.dequeueCurrent, [name, "ENQUEUED", w.appVersion, app, free])).map((r) => r[0] as string);
      for (let i = 0; i < found.length; i += IN_CHUNK) {
        const chunk = found.slice(i, i + IN_CHUNK);
        const r = await conn.unnamed(s.claimCurrent(chunk.length), [...claimHead, ...chunk, "ENQUEUED", app]);
        ids.push(...r.rows.map((x) => x[0] as string));
      }
    }
  }
  await commitClaims(conn, state, q, ids);
  // The start: one read of the whole claimed batch, its own transaction (no start write since 2.30). The
  // claim is committed: its workflows go to the executors even if the read fails.
  if (ids.length)
    try {
      await conn.run("BEGIN");
      for (let i = 0; i < ids.length; i += IN_CHUNK) {
        const chunk = ids.slice(i, i + IN_CHUNK);
        await conn.unnamed(s.statusesCurrent(chunk.length), chunk);
      }
      await conn.run("COMMIT");
    } finally {
      hand(ids);
    }
  return ids.length;
}

/**
 * A claimed workflow's start and completion on an executor's connection, as the profile's library sends them.
 * Returns false when the current profile's completion (guarded by status PENDING) found no row to complete.
 * `at.doubt` names the write whose COMMIT is in flight. A workflow resumed after its start committed (`startDone`,
 * 2.17) goes on to its completion: its start is not written again.
 */
export async function startAndComplete(w: WorkerContext, conn: Conn, state: WorkerState, { id, queue, startDone }: Claimed, at: RunAt): Promise<boolean> {
  const s = w.sql;
  if (w.config.profile === "current") {
    await conn.run("BEGIN");
    const r = await conn.unnamed(s.completeCurrent, ["SUCCESS", VALUES.workflowOutput, null, 1000, null, id, "PENDING"]);
    at.doubt = "completion";
    await conn.run("COMMIT");
    at.doubt = null;
    return r.rowCount === 1;
  }
  if (!startDone) await start217(w, conn, state, id, queue, at);
  await conn.run("BEGIN");
  await conn.run(s.complete217, ["SUCCESS", VALUES.workflowOutput, null, 1000, null, id]);
  at.doubt = "completion";
  await conn.run("COMMIT");
  at.doubt = null;
  return true;
}

/** The 2.17 start of a claimed workflow: its row read, then written again. */
async function start217(w: WorkerContext, conn: Conn, state: WorkerState, id: string, queue: number, at: RunAt) {
  const s = w.sql;
  // The 2.17 start: read the row, then write it again (INSERT … ON CONFLICT: recovery_attempts + 1).
  await conn.run("BEGIN");
  await conn.run(s.status217, [id]);
  await conn.run("COMMIT");
  await conn.run("BEGIN");
  // The start writes the row again as the library does: status ENQUEUED in VALUES (the conflict keeps the
  // row's PENDING), no partition key, a new owner_xid; the conflict arm adds 1 to recovery_attempts.
  const start = insertColumns({
    workflow_uuid: id,
    status: "ENQUEUED",
    name: VALUES.workflowName,
    executor_id: state.executorId,
    application_version: w.appVersion,
    application_id: "",
    recovery_attempts: 0,
    queue_name: w.names[queue],
    inputs: VALUES.inputs,
    priority: 0,
    owner_xid: randomUUID(),
    serialization: VALUES.serialization,
  });
  await conn.run(s.insert217, [...start, ...onConflict217(1)]);
  at.doubt = "start";
  await conn.run("COMMIT");
  at.doubt = null;
}
