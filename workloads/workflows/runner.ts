// DBOS's durable workflows started directly (server-only): the library's statements (workloads/dbos/
// statements.ts) on its workflow_status and operation_outputs tables in the chosen profile, one workflow per
// slot of a fixed timetable (the core's open loop, runner/core/open-loop.ts). Each transaction is its own BEGIN … COMMIT, as
// the library sends it; a workflow's transactions run back to back on the connection that took it (the
// library checks a connection out of its pool per transaction: the same commits and round trips).
import { randomBytes, randomUUID } from "node:crypto";
import type pg from "pg";
import { owned } from "../../lib/workloads/parts";
import { drainNotes, isConnectionError, mergeOpenLoopResults, OpenLoop, type OpenLoopResult, type Slot, type TargetClient } from "../../runner/core";
import { dbosSchemaDdl, type DbosProfile, VALUES } from "../dbos/schema";
import * as S from "../dbos/statements";
import { uuid7 } from "../dbos/uuid7";
import { inDoubtFact, type Ledger, stepFailed, type WorkloadContext, type WorkloadModule, type WorkloadRun, type WorkloadVerification } from "../runtime";
import type { WorkflowsConfig } from "./definition";
import { addTally, type DoubtKind, type DoubtTally, doubtCount, doubtNote, emptyTally, type Progress, readBack, settle } from "./doubts";
import { agree, countWords } from "../../lib/words";

/** Each profile's statements and how it opens the transactions that differ (captured). */
function statementsOf(profile: DbosProfile, schema: string) {
  const q = (sql: string) => S.inSchema(sql, schema);
  const current = profile === "current";
  return {
    start: q(current ? S.START_CURRENT : S.START_217),
    complete: q(current ? S.COMPLETE_CURRENT : S.COMPLETE_217),
    stepStatus: q(S.STEP_STATUS),
    stepOutput: q(S.STEP_OUTPUT),
    stepExecutor: q(S.STEP_EXECUTOR),
    checkpoint: q(current ? S.STEP_CHECKPOINT_CURRENT : S.STEP_CHECKPOINT_217),
    // 2.32's direct-start path names READ COMMITTED on its read and completion transactions; 2.17 does not.
    beginRead: current ? S.BEGIN_READ_COMMITTED : S.BEGIN,
    beginComplete: current ? S.BEGIN_READ_COMMITTED : S.BEGIN,
  };
}

/** Who starts the run's workflows: one executor per run, as each benchmark process's DBOS launches with
 *  executor_id = uuid7(); the application version is a 32-hex hash of the code in the library. */
interface Starter {
  current: boolean;
  name: string;
  executorId: string;
  appVersion: string;
}

/** The start statement's values for workflow `id`, in the profile's column order. */
function startValues(id: string, { current, name, executorId, appVersion }: Starter): unknown[] {
  return [
    id,
    "PENDING",
    name,
    null, // authenticated_user
    null, // assumed_role
    null, // authenticated_roles
    null, // output
    null, // error
    executorId,
    appVersion,
    VALUES.applicationId,
    null, // class_name
    null, // config_name
    1, // recovery_attempts: a direct start counts as the first attempt
    null, // queue_name
    null, // workflow_timeout_ms
    null, // workflow_deadline_epoch_ms
    null, // deduplication_id
    VALUES.inputs,
    0, // priority
    null, // queue_partition_key
    randomUUID(), // owner_xid
    null, // parent_workflow_id
    VALUES.serialization,
    null, // delay_until_epoch_ms
    ...(current
      ? ["null", null, null, false, VALUES.applicationName, executorId, VALUES.msPerSecond] // attributes … application_name; ON CONFLICT arm
      : [executorId, VALUES.msPerSecond, "ENQUEUED", "DELAYED", 0]), // ON CONFLICT arm: executor, ms, the CASE's statuses and increment
  ];
}

/** Where a workflow's run stands: the step it is at (for the error's words) and the write whose COMMIT is in flight. */
interface Attempt {
  what: string;
  /** The step whose checkpoint was last written. */
  step: number;
  doubt: DoubtKind | null;
}

function create(ctx: WorkloadContext<WorkflowsConfig>): WorkloadRun {
  const { config: c, schema, stats } = ctx;
  const current = c.profile === "current";
  const sql = statementsOf(c.profile, schema);
  // Each transaction that writes is a write; a workflow's latency from its schedule is the pacer's (its slot).
  const writeOp = stats.op("write");
  const workflowOp = stats.op("workflow");
  const readOp = stats.op("stepRead");
  const starter: Starter = {
    current,
    name: c.steps > 0 ? VALUES.stepWorkflowName : VALUES.workflowName,
    executorId: uuid7(),
    appVersion: randomBytes(16).toString("hex"),
  };
  let started = 0;
  let completed = 0;
  const notes: string[] = [];

  /** How the run's in-doubt writes settled, and how many workflows resumed (a run whose loops reconnect). */
  const tally = emptyTally();

  /** One transaction: BEGIN, the statements, COMMIT (three round trips or more, as the library). From the COMMIT's
   *  send to its reply, `at.doubt` names the write, in doubt if the connection goes then. */
  const tx = async (client: pg.Client, begin: string, statements: { text: string; values: unknown[] }[], at?: Attempt, kind?: DoubtKind) => {
    await client.query(begin);
    for (const s of statements) await client.query(s);
    if (at && kind) at.doubt = kind;
    await client.query(S.COMMIT);
    if (at) at.doubt = null;
  };
  const write = async (client: pg.Client, begin: string, statements: { text: string; values: unknown[] }[], at: Attempt, kind: DoubtKind) => {
    const t0 = writeOp.send();
    await tx(client, begin, statements, at, kind);
    writeOp.answered(t0);
  };

  /**
   * Workflow `id` from where `p` says it stands, as the library runs it (and as its recovery resumes it): the start
   * written, then per step the read of its status and checkpoint, the step skipped when its checkpoint is there (only
   * after a resume), else run and checkpointed; then the completion. Counts each start and completion once.
   */
  const attempt = async (client: pg.Client, id: string, p: Progress, at: Attempt) => {
    at.what = "start";
    await write(client, S.BEGIN, [{ text: sql.start, values: startValues(id, starter) }], at, "start");
    if (!p.started) {
      p.started = true;
      started++;
    }
    for (let n = 1; n <= c.steps; n++) {
      at.what = `step ${n} read`;
      const r0 = readOp.send();
      await client.query(sql.beginRead);
      await client.query({ text: sql.stepStatus, values: [id] });
      const output = await client.query({ text: sql.stepOutput, values: [id, n] });
      await client.query(S.COMMIT);
      readOp.answered(r0);
      if (output.rowCount) continue; // checkpointed before the connection went: the library skips the step
      at.what = `step ${n} checkpoint`;
      at.step = n;
      const stepStart = Date.now(); // epoch ms columns: the wall clock, as the library
      const checkpoint = [id, n, VALUES.stepName, VALUES.stepOutput, null, stepStart, Date.now(), VALUES.serialization];
      await write(
        client,
        S.BEGIN,
        [
          { text: sql.stepExecutor, values: [id] },
          { text: sql.checkpoint, values: current ? [...checkpoint, VALUES.applicationName] : checkpoint },
        ],
        at,
        "checkpoint",
      );
    }
    at.what = "completion";
    const complete = ["SUCCESS", VALUES.workflowOutput, null, VALUES.msPerSecond, null, id];
    await write(client, sql.beginComplete, [{ text: sql.complete, values: current ? [...complete, "PENDING"] : complete }], at, "completion");
    p.completed = true;
    completed++;
  };

  const runWorkflow = async (tc: TargetClient, slot: Slot): Promise<boolean> => {
    const id = randomUUID(); // workflow ids are UUIDv4 text in the library
    const sent = workflowOp.send();
    const p: Progress = { started: false, completed: false };
    const at: Attempt = { what: "start", step: 0, doubt: null };
    /** The write in doubt since the connection went, settled by the read before the resume. */
    let doubt = null as { kind: DoubtKind; step: number } | null;
    let resumed = false;
    for (let resuming = false; ; resuming = true) {
      try {
        if (resuming) {
          at.what = "settling read";
          const found = await readBack(tc.client, schema, id, doubt?.step ?? 0);
          const now = settle(doubt?.kind ?? null, found, p, tally);
          doubt = null;
          if (now.started && !p.started) started++;
          if (now.completed && !p.completed) completed++;
          Object.assign(p, now);
          // Counted once, however many connections it took to finish.
          if (!resumed) tally.resumed++;
          resumed = true;
        }
        if (!p.completed) await attempt(tc.client, id, p, at);
        break;
      } catch (err) {
        const lost = isConnectionError(err, tc);
        const count = () => (/start|checkpoint|completion/.test(at.what) ? writeOp.failed(1) : readOp.failed());
        const committing = at.doubt;
        at.doubt = null;
        const inDoubt = () => {
          if (committing) doubt = { kind: committing, step: at.step };
        };
        const exit = await stepFailed(ctx, tc, err, { what: `workflow ${at.what}`, count, pause: null, inDoubt, stop: ctx.readersStop });
        // A lost connection, replaced: the workflow resumes on the new one. Else it ends here, failed (PENDING).
        if (!exit && lost && ctx.reconnect) continue;
        workflowOp.failed();
        return !exit;
      }
    }
    // From its send, and from its scheduled time (workflowScheduled) through its slot.
    workflowOp.answered(sent, 1, slot);
    return true;
  };

  const loop = new OpenLoop(ctx.pacer, ctx, 1, runWorkflow);
  /** On the coordinating instance of a run over several processes: the parts' open loops, merged (absorb). */
  let absorbed: OpenLoopResult | null = null;

  return {
    // A part opens the connections it owns, under their global names.
    roles: owned(c.connections, ctx.part).map((i) => `conn ${i + 1}`),
    notes,
    async setup(admin: pg.Client) {
      await admin.query(dbosSchemaDdl(schema, c.profile));
    },
    startWriters: (clients) => loop.start(clients),
    writersDone: () => loop.done(),
    ledger: (): Ledger => ({ started, completed, loop: loop.result(), doubts: tally }),
    absorb(ledgers) {
      started = ledgers.reduce((n, l) => n + Number(l.started), 0);
      completed = ledgers.reduce((n, l) => n + Number(l.completed), 0);
      for (const l of ledgers) if (l.doubts) addTally(tally, l.doubts as DoubtTally);
      absorbed = mergeOpenLoopResults(ledgers.map((l) => l.loop as OpenLoopResult));
    },
    verify: async (admin: pg.Client) => {
      notes.push(...drainNotes(absorbed ?? loop.result(), "workflow"));
      const note = doubtNote(tally);
      if (note) notes.push(note);
      const v = await verifyWorkflows(admin, schema, c.steps, { started, completed });
      // A run whose loops reconnect states how many writes were in doubt, 0 included: each settled before its
      // workflow resumed, so the counts the other facts check are exact.
      if (ctx.reconnect) v.facts.push(inDoubtFact(doubtCount(tally)));
      return v;
    },
  };
}

/** The table against what the run counted: every start and completion it counted as committed is there, every
 *  workflow is final, and each finished one has its step checkpoints. */
async function verifyWorkflows(
  admin: pg.Client,
  schema: string,
  steps: number,
  { started, completed }: { started: number; completed: number },
): Promise<WorkloadVerification> {
  const { rows } = await admin.query<{ n: string; success: string; not_final: string; outputs: string }>(
    `SELECT (SELECT count(*) FROM ${schema}.workflow_status) AS n,
                (SELECT count(*) FROM ${schema}.workflow_status WHERE status = 'SUCCESS') AS success,
                (SELECT count(*) FROM ${schema}.workflow_status WHERE status IS DISTINCT FROM 'SUCCESS') AS not_final,
                (SELECT count(*) FROM ${schema}.operation_outputs o JOIN ${schema}.workflow_status w USING (workflow_uuid)
                  WHERE w.status = 'SUCCESS') AS outputs`,
  );
  const n = Number(rows[0].n);
  const success = Number(rows[0].success);
  const notFinal = Number(rows[0].not_final);
  const outputs = Number(rows[0].outputs);
  const fmt = (x: number) => x.toLocaleString("en-US");
  const problems: string[] = [];
  if (n !== started) problems.push(`workflow_status holds ${fmt(n)} workflows but ${fmt(started)} starts were counted as committed`);
  if (success !== completed) problems.push(`${fmt(success)} workflows are SUCCESS but ${fmt(completed)} completions were counted as committed`);
  if (notFinal > 0) {
    const failed = started - completed;
    problems.push(
      `${countWords(notFinal, "workflow")} ${agree(notFinal, "are", "is")} not final (status other than SUCCESS)${failed > 0 ? `; ${fmt(failed)} failed after their start (errors counted)` : ""}`,
    );
  }
  if (outputs !== success * steps)
    problems.push(`the ${fmt(success)} finished workflows have ${fmt(outputs)} step checkpoints, not ${fmt(success * steps)} (${steps} each)`);
  return {
    ok: problems.length === 0,
    checked: n,
    problems,
    facts: [
      { name: "workflows in workflow_status", value: n, ok: n === started },
      { name: "starts committed", value: started, ok: n === started },
      { name: "SUCCESS", value: success, ok: success === completed },
      { name: "completions committed", value: completed, ok: success === completed },
      { name: "not final", value: notFinal, ok: notFinal === 0 },
      { name: "step checkpoints", value: outputs, ok: outputs === success * steps },
    ],
  };
}

export const workflows: WorkloadModule<WorkflowsConfig> = {
  kind: "workflows",
  writerCount: (c, part) => owned(c.connections, part).length,
  create,
};
