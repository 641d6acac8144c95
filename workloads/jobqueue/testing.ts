// The job queue's hooks for the conformance suite (workloads/exercise/): a job deleted from job_queue is lost; a
// job its consumers' record says was taken twice (the ledger verify() reads, doctored) is a duplicate.
import { rowDeleted, type WorkloadHooks } from "../hooks";

export const hooks: WorkloadHooks = {
  faults: {
    loss: rowDeleted("job_queue", /^1 job the producers inserted is missing from job_queue/, "id = (SELECT max(id) FROM $table)"),
    duplicate: {
      // The Yong driver's ledger holds the workload's under `workload`: its first dequeue, taken once more.
      provoke: async ({ ledgers }) =>
        ledgers.map((l, i) => {
          if (i > 0) return l;
          const w = l.workload as { dequeued: number[] };
          return { ...l, workload: { ...w, dequeued: [...w.dequeued, w.dequeued[0]] } };
        }),
      problem: /^1 dequeue took a job that had been dequeued already/,
    },
  },
  splits: [
    { producers: 4, consumers: 3, pool: 10 },
    { load: "rate", rate: 300, pool: 7 },
  ],
};
