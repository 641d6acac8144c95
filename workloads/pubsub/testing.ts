// Pub/sub's hooks for the conformance suite (workloads/exercise/). Its readers count what they lose, read twice or
// out of order as they read (pubsub/ledger.test.ts provokes those during a run); after a run, verify() promises
// that every offset handed out is a row of its partition.
import { rowDeleted, type WorkloadHooks } from "../hooks";

export const hooks: WorkloadHooks = {
  faults: { loss: rowDeleted("topicpartition1", /^partition 1: offsets 1\.\.\d+ were handed out but the table holds \d+ rows/) },
  splits: [{ partitions: 4, readers: 4 }],
};
