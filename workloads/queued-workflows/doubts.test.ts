// Queued workflows' operations in doubt, settled from their rows: a claim by its row's status and executor, a
// claimed workflow by its status (and, in 2.17, whether its start was written), an enqueue by a worker's completion.
import assert from "node:assert/strict";
import { test } from "node:test";
import { emptyDoubts, qwDoubtNote, type Row, settleClaims, settleRun } from "./doubts";
import { QwRecord } from "./ledger";

const row = (status: string, executorId: string | null, recoveryAttempts: number): Row => ({ status, executorId, recoveryAttempts });

test("a claim in doubt committed only when its row is PENDING under the worker's own executor id", () => {
  const d = emptyDoubts();
  const rows = new Map([
    ["a", row("PENDING", "me", 0)],
    ["b", row("ENQUEUED", null, 0)],
    ["c", row("PENDING", "another worker", 0)],
  ]);
  const claims = ["a", "b", "c", "gone"].map((id) => ({ id, queue: 1 }));
  assert.deepEqual(settleClaims(claims, rows, "me", d), [{ id: "a", queue: 1 }]);
  assert.deepEqual(d.claim, [1, 3]);
});

test("a claimed workflow whose connection went: completed when SUCCESS, else run again, its 2.17 start skipped once written", () => {
  const d = emptyDoubts();
  assert.equal(settleRun("completion", row("SUCCESS", "me", 1), "2.17", d), "completed");
  assert.deepEqual(settleRun("completion", row("PENDING", "me", 1), "2.17", d), { startDone: true });
  // The start's COMMIT in doubt: written when recovery_attempts went from the enqueue's 0 to 1.
  assert.deepEqual(settleRun("start", row("PENDING", "me", 1), "2.17", d), { startDone: true });
  assert.deepEqual(settleRun("start", row("PENDING", "me", 0), "2.17", d), { startDone: false });
  // Nothing in doubt (lost mid-transaction): nothing tallied; the current profile has no start to skip.
  assert.deepEqual(settleRun(null, row("PENDING", "me", 1), "current", d), { startDone: false });
  assert.equal(settleRun(null, undefined, "current", d), "gone");
  assert.deepEqual(d, { ...emptyDoubts(), start: [1, 1], completion: [1, 1] });
});

test("an enqueue in doubt that a worker completes was stored: counted enqueued and completed once", () => {
  const r = new QwRecord(2, 1);
  r.doubtEnqueues.set("00000000-0000-4000-8000-000000000001", 1);
  assert.deepEqual(r.completed("00000000-0000-4000-8000-000000000001"), { t: Number.NaN, queue: 1 });
  assert.equal(r.doubtEnqueues.size, 0);
  assert.deepEqual([r.enqueuedIds.count, r.completedIds.count, r.enqueuedPerQueue[1], r.completedPerQueue[1]], [1, 1, 1, 1]);
  assert.deepEqual(r.doubts.enqueue, [1, 0]);
  // One nobody had in flight nor in doubt is not this instance's to count.
  assert.equal(r.completed("00000000-0000-4000-8000-000000000002"), null);
  assert.match(qwDoubtNote(r.doubts) ?? "", /^1 operation in doubt .*: 1 enqueue \(1 stored, 0 not\); 0 claimed workflows \(0 committed, 0 not\);/);
  assert.equal(qwDoubtNote(emptyDoubts()), null);
});
