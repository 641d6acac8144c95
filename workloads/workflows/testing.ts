// Workflows' hooks for the conformance suite (workloads/exercise/): a workflow deleted from workflow_status (its
// steps' checkpoints with it) is lost.
import assert from "node:assert/strict";
import { rowDeleted, type WorkloadHooks } from "../hooks";
import { factOf } from "../exercise/facts";

export const hooks: WorkloadHooks = {
  faults: { loss: rowDeleted("workflow_status", /^workflow_status holds [\d,]+ workflows but [\d,]+ starts were counted as committed/) },
  small: (input) => ({ ...input, connections: 4 }),
  splits: [{ rate: 300, connections: 7 }],
  // Every workflow both processes started is in workflow_status, every completion SUCCESS.
  overTwoProcesses(s) {
    assert.equal(factOf(s, "completions committed"), s.totals?.operations.workflow, "completions = the parts' workflows");
    assert.equal(factOf(s, "workflows in workflow_status"), factOf(s, "starts committed"));
  },
};
