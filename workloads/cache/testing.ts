// The cache's hooks for the conformance suite (workloads/exercise/): every key is prefilled and sets only overwrite,
// so a key deleted from the table is lost.
import assert from "node:assert/strict";
import { factOf } from "../exercise/facts";
import { rowDeleted, type WorkloadHooks } from "../hooks";

export const hooks: WorkloadHooks = {
  faults: { loss: rowDeleted("cache_entries", /^1 key missing from cache_entries/) },
  // Every get and set of every part checked.
  checked: (s) => (s.totals?.operations.get ?? 0) + (s.totals?.operations.set ?? 0),
  // Keys both processes set hold one of their last sets.
  overTwoProcesses: (s) => assert.equal(factOf(s, "the table holds every key"), true),
  splits: [
    { vus: 10, pool: 6 },
    { vus: 3, pool: 10 },
    { load: "rate", rate: 700, pool: 5 },
  ],
};
