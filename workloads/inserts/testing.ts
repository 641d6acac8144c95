// Inserts' hooks for the conformance suite (workloads/exercise/): a row deleted from bench_inserts is lost (ids are
// its primary key, so the target cannot hold one twice).
import { rowDeleted, type WorkloadHooks } from "../hooks";

export const hooks: WorkloadHooks = {
  faults: { loss: rowDeleted("bench_inserts", /^bench_inserts holds [\d,]+ rows but [\d,]+ inserts were counted as committed/) },
  small: (input) => ({ ...input, connections: 4 }),
  checked: (s) => s.totals?.operations.write ?? 0,
  splits: [{ rate: 1000, connections: 5 }],
};
