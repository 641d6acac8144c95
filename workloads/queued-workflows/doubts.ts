// A queued-workflows run whose loops reconnect (a kill-backend phase): what was in flight when a connection went, and
// how it settles from workflow_status (server-only). An enqueue whose COMMIT reply was lost was stored if its row is
// there (a worker that completes it settles it sooner). A claim in doubt committed if its rows are PENDING under the
// worker's executor id: the worker then runs them, as DBOS's recovery runs its own PENDING workflows. A claimed
// workflow whose executor lost its connection is read back: SUCCESS is completed (its completion committed); PENDING
// runs again from where its row says it stands (2.17: a start already written, recovery_attempts 1, is not written
// again), so every workflow is started and completed once.
import type pg from "pg";
import { countWords } from "../../lib/words";

/** The write of a claimed workflow whose COMMIT was in flight when its executor's connection went, if any. */
export type DoubtWrite = "start" | "completion" | null;

/** Per kind of operation in doubt: [took effect, did not]. */
export interface QwDoubts {
  enqueue: [number, number];
  claim: [number, number];
  start: [number, number];
  completion: [number, number];
  /** Claimed workflows run again on a new connection after their executor's was lost. */
  resumed: number;
}

export const emptyDoubts = (): QwDoubts => ({ enqueue: [0, 0], claim: [0, 0], start: [0, 0], completion: [0, 0], resumed: 0 });

const KINDS = ["enqueue", "claim", "start", "completion"] as const;

export function addDoubts(to: QwDoubts, from: QwDoubts) {
  for (const k of KINDS) {
    to[k][0] += from[k][0];
    to[k][1] += from[k][1];
  }
  to.resumed += from.resumed;
}

export const doubtTotal = (d: QwDoubts) => KINDS.reduce((n, k) => n + d[k][0] + d[k][1], 0);

/** A workflow's row as the settling read finds it. */
export interface Row {
  status: string;
  executorId: string | null;
  recoveryAttempts: number;
}

/** The rows of `ids` in the run's workflow_status, by id (an id without a row is absent). */
export async function rowsOf(client: pg.Client, schema: string, ids: readonly string[]): Promise<Map<string, Row>> {
  if (!ids.length) return new Map();
  const { rows } = await client.query<{ id: string; status: string; executor_id: string | null; recovery_attempts: string | null }>(
    `SELECT workflow_uuid AS id, status, executor_id, recovery_attempts FROM ${schema}.workflow_status WHERE workflow_uuid = ANY($1::text[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, { status: r.status, executorId: r.executor_id, recoveryAttempts: Number(r.recovery_attempts ?? 0) }]));
}

/** A claim in doubt committed when its row is PENDING under the worker's executor id (a claim that did not commit
 *  left it ENQUEUED, for any worker to claim again). Returns the committed ones and tallies each. */
export function settleClaims<C extends { id: string }>(claims: readonly C[], rows: Map<string, Row>, executorId: string, d: QwDoubts): C[] {
  const mine = claims.filter((c) => {
    const r = rows.get(c.id);
    return r?.status === "PENDING" && r.executorId === executorId;
  });
  d.claim[0] += mine.length;
  d.claim[1] += claims.length - mine.length;
  return mine;
}

/**
 * A claimed workflow whose executor's connection was lost (`doubt`: the write whose COMMIT was in flight then, if
 * any), by its row now: "completed" when SUCCESS, else to run again, its start skipped when it had committed (2.17:
 * recovery_attempts 1, the enqueue having written 0). Tallies the write in doubt.
 */
export function settleRun(doubt: DoubtWrite, row: Row | undefined, profile: "2.17" | "current", d: QwDoubts): "completed" | { startDone: boolean } | "gone" {
  const completed = row?.status === "SUCCESS";
  const startDone = profile === "2.17" && (row?.recoveryAttempts ?? 0) >= 1;
  if (doubt) d[doubt][(doubt === "completion" ? completed : startDone || completed) ? 0 : 1]++;
  if (completed) return "completed";
  return row?.status === "PENDING" ? { startDone } : "gone";
}

/** The summary's note on the run's in-doubt operations and resumed workflows (none when nothing was lost). */
export function qwDoubtNote(d: QwDoubts): string | null {
  const n = doubtTotal(d);
  if (!n && !d.resumed) return null;
  const part = (k: (typeof KINDS)[number], unit: string, yes: string) => `${countWords(d[k][0] + d[k][1], unit)} (${d[k][0]} ${yes}, ${d[k][1]} not)`;
  return (
    `${countWords(n, "operation")} in doubt (a connection lost before the reply), settled from workflow_status: ` +
    `${part("enqueue", "enqueue", "stored")}; ${part("claim", "claimed workflow", "committed")}; ${part("start", "start", "committed")}; ` +
    `${part("completion", "completion", "committed")}; ${countWords(d.resumed, "claimed workflow")} run again on a new connection, as DBOS's recovery runs its own PENDING ones`
  );
}
