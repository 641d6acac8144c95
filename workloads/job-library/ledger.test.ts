// What a queue-library run's verification makes of its jobs (./ledger.ts JobLedger.check): each ran once, or is lost,
// run twice, still waiting in the library's queue, or ran and was still there when the workers stopped.
import assert from "node:assert/strict";
import { test } from "node:test";
import { JobLedger } from "./ledger";

function ledgerOf(runs: number[]): JobLedger {
  const l = new JobLedger();
  runs.forEach((n, seq) => {
    l.next();
    for (let k = 0; k < n; k++) l.ran(seq);
  });
  return l;
}

test("a job in the queue that never ran is waiting; one that ran and is still there is its own count, never lost nor waiting", () => {
  // Jobs 0–4: 0 ran once and is gone; 1 ran once and is still queued (completion not recorded); 2 never ran and is
  // queued (waiting); 3 never ran and is gone (lost); 4 ran twice.
  const r = ledgerOf([1, 1, 0, 0, 2]).check([1, 2], "the jobs table");
  assert.deepEqual(
    { ranOnce: r.ranOnce, ranStillQueued: r.ranStillQueued, lost: r.lost, duplicated: r.duplicated },
    { ranOnce: 2, ranStillQueued: 1, lost: 1, duplicated: 1 },
  );
  assert.deepEqual(r.problems, ["1 job enqueued never ran and is not in the jobs table (lost; the first is job 3)", "1 job ran more than once"]);
});

test("every job ran once and left the queue: nothing waiting, nothing still queued", () => {
  const r = ledgerOf([1, 1, 1]).check([], "the jobs table");
  assert.deepEqual([r.ranOnce, r.ranStillQueued, r.problems.length], [3, 0, 0]);
});
