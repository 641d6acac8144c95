// The queue's hooks for the conformance suite (workloads/exercise/): a consumed message deleted from the archive is
// lost, one archived twice is a duplicate.
import { rowCopied, rowDeleted, type WorkloadHooks } from "../hooks";

export const hooks: WorkloadHooks = {
  faults: {
    loss: rowDeleted("queue_archive", /messages? lost/),
    duplicate: rowCopied("queue_archive", /more than once/),
  },
  splits: [{ writers: 4, readers: 4 }],
};
