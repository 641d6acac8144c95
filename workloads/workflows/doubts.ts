// A workflows run whose loops reconnect (a kill-backend phase): a workflow whose connection went mid-way is resumed on
// the new connection as DBOS's recovery resumes a PENDING workflow (its start written again, each step's checkpoint
// read and the step skipped when it is there, then its completion), and the transaction whose COMMIT was in flight
// when the connection went is in doubt: settled from workflow_status and operation_outputs before the resume, so that
// the run counts each start and completion exactly once, whichever way it went.
import type pg from "pg";
import { countWords } from "../../lib/words";

/** The write of a workflow whose COMMIT can be in doubt. */
export type DoubtKind = "start" | "checkpoint" | "completion";

/** What a workflow is known to have committed, as the run counts it. */
export interface Progress {
  started: boolean;
  completed: boolean;
}

/** How the run's in-doubt writes settled (a part's ledger carries it too). */
export interface DoubtTally {
  /** Per kind: [committed, not]. */
  start: [number, number];
  checkpoint: [number, number];
  completion: [number, number];
  /** Workflows resumed on a new connection after theirs was lost. */
  resumed: number;
}

export const emptyTally = (): DoubtTally => ({ start: [0, 0], checkpoint: [0, 0], completion: [0, 0], resumed: 0 });

export function addTally(to: DoubtTally, from: DoubtTally) {
  for (const k of ["start", "checkpoint", "completion"] as const) {
    to[k][0] += from[k][0];
    to[k][1] += from[k][1];
  }
  to.resumed += from.resumed;
}

export const doubtCount = (t: DoubtTally) => t.start[0] + t.start[1] + t.checkpoint[0] + t.checkpoint[1] + t.completion[0] + t.completion[1];

/** The workflow's row and step `step`'s checkpoint, as the target holds them now (the settling read). */
export interface Found {
  status: string | null;
  checkpoint: boolean;
}

export async function readBack(client: pg.Client, schema: string, id: string, step: number): Promise<Found> {
  const { rows } = await client.query<{ status: string | null; checkpoint: boolean }>(
    `SELECT (SELECT status FROM ${schema}.workflow_status WHERE workflow_uuid = $1) AS status,
            EXISTS (SELECT 1 FROM ${schema}.operation_outputs WHERE workflow_uuid = $1 AND function_id = $2) AS checkpoint`,
    [id, step],
  );
  return rows[0];
}

/**
 * Settles the write in doubt (`kind`, of step `step` for a checkpoint) from what the target holds now, in `tally`, and
 * brings `p` up to date: a start took effect when the row is there, a completion when it is SUCCESS, a checkpoint
 * when its row is. Without a write in doubt, only `p` is brought up to date (the row is what it is). Returns the
 * workflow's progress after it; `p.completed` means nothing is left to resume.
 */
export function settle(kind: DoubtKind | null, found: Found, p: Progress, tally: DoubtTally): Progress {
  if (kind) {
    const took = kind === "start" ? found.status !== null : kind === "completion" ? found.status === "SUCCESS" : found.checkpoint;
    tally[kind][took ? 0 : 1]++;
  }
  return { started: p.started || found.status !== null, completed: p.completed || found.status === "SUCCESS" };
}

/** The summary's note on the run's in-doubt writes and resumed workflows (none when nothing was lost). */
export function doubtNote(t: DoubtTally): string | null {
  const n = doubtCount(t);
  if (!n && !t.resumed) return null;
  const part = (k: DoubtKind, unit: string) => `${countWords(t[k][0] + t[k][1], unit)} (${t[k][0]} committed, ${t[k][1]} not)`;
  return (
    `${countWords(n, "operation")} in doubt (a connection lost before the reply), settled from workflow_status and operation_outputs: ` +
    `${part("start", "start")}; ${part("checkpoint", "step checkpoint")}; ${part("completion", "completion")}; ` +
    `${countWords(t.resumed, "workflow")} resumed on a new connection, as DBOS's recovery resumes one (its checkpointed steps skipped)`
  );
}
