// Notify's hooks for the conformance suite (workloads/exercise/): a published message deleted from the table is
// lost (its publisher's count and sequence sum no longer match).
import assert from "node:assert/strict";
import { factOf } from "../exercise/facts";
import { rowDeleted, type WorkloadHooks } from "../hooks";

export const hooks: WorkloadHooks = {
  faults: { loss: rowDeleted("messages", /^publisher \d+: published .*, the table holds/) },
  small: (input) => ({ ...input, vus: 4, pool: 2, thinkMs: 0 }),
  // Every publish of both processes received once by part 0's subscriber.
  checked: (s) => s.totals?.operations.publish ?? 0,
  overTwoProcesses: (s) => assert.equal(factOf(s, "never received"), 0),
  splits: [
    { vus: 7, pool: 5 },
    { load: "rate", rate: 100, pool: 4 },
  ],
};
