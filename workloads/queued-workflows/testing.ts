// Queued workflows' hooks for the conformance suite (workloads/exercise/): a completed workflow deleted from
// workflow_status is a completion lost.
import assert from "node:assert/strict";
import { rowDeleted, type WorkloadHooks } from "../hooks";

export const hooks: WorkloadHooks = {
  faults: { loss: rowDeleted("workflow_status", /completions lost, or rows changed/, "status = 'SUCCESS'") },
  small: (input) => ({ ...input, enqueuers: 2, workers: 2, executors: 2, pollMs: 50 }),
  // Every workflow enqueued by both processes checked.
  checked: (s) => s.totals?.operations.write ?? 0,
  // Whichever process ran a workflow, it is accounted for: some were completed by the other process.
  overTwoProcesses: (s) => assert.match((s.notes ?? []).join("\n"), /over 2 runner processes: [\d,]+ workflows? (?:were|was) completed by another process/),
  splits: [
    { enqueuers: 5, workers: 4, executors: 2 },
    { enqueuers: 3, workers: 6, executors: 1 },
  ],
};
