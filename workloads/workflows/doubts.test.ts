// A workflow write in doubt, settled from what the target holds: each kind by its own evidence, and the workflow's
// progress brought up to date whether or not anything was in doubt.
import assert from "node:assert/strict";
import { test } from "node:test";
import { doubtNote, emptyTally, settle } from "./doubts";

test("a start took effect when the row is there, a completion when it is SUCCESS, a checkpoint when its row is", () => {
  const t = emptyTally();
  const none = { started: false, completed: false };
  assert.deepEqual(settle("start", { status: null, checkpoint: false }, none, t), none);
  assert.deepEqual(settle("start", { status: "PENDING", checkpoint: false }, none, t), { started: true, completed: false });
  const started = { started: true, completed: false };
  assert.deepEqual(settle("completion", { status: "PENDING", checkpoint: true }, started, t), started);
  assert.deepEqual(settle("completion", { status: "SUCCESS", checkpoint: true }, started, t), { started: true, completed: true });
  assert.deepEqual(settle("checkpoint", { status: "PENDING", checkpoint: true }, started, t), started);
  assert.deepEqual(settle("checkpoint", { status: "PENDING", checkpoint: false }, started, t), started);
  // Nothing in doubt (the connection went mid-transaction): nothing tallied, the progress is the row's.
  assert.deepEqual(settle(null, { status: "SUCCESS", checkpoint: false }, none, t), { started: true, completed: true });
  assert.deepEqual(t, { start: [1, 1], checkpoint: [1, 1], completion: [1, 1], resumed: 0 });
  t.resumed = 2;
  assert.equal(
    doubtNote(t),
    "6 operations in doubt (a connection lost before the reply), settled from workflow_status and operation_outputs: 2 starts (1 committed, 1 not); 2 step checkpoints (1 committed, 1 not); 2 completions (1 committed, 1 not); 2 workflows resumed on a new connection, as DBOS's recovery resumes one (its checkpointed steps skipped)",
  );
  assert.equal(doubtNote(emptyTally()), null);
});
