// The queue libraries' hooks for the conformance suite (workloads/exercise/), shared by graphile-worker and pg-boss:
// a job the ledger says ran, taken out of it, is lost (it is not waiting in the library's queue either); one taken
// twice is a duplicate.
import type { WorkloadHooks } from "../hooks";

type JobLedgerJson = { assigned: number; failed: number[]; ran: number[] };

const doctored = (ledgers: Record<string, unknown>[], change: (ran: number[]) => number[]) =>
  ledgers.map((l, i) => (i > 0 ? l : { ...l, ran: change([...(l as JobLedgerJson).ran]) }));

export const jobLibraryHooks: WorkloadHooks = {
  faults: {
    loss: {
      provoke: async ({ ledgers }) => doctored(ledgers, (ran) => ran.slice(1)),
      problem: /^1 job enqueued never ran and is not in /i,
    },
    duplicate: {
      provoke: async ({ ledgers }) => doctored(ledgers, (ran) => [...ran, ran[ran.length - 1]]),
      problem: /^1 job ran more than once/,
    },
  },
  // Two jobs run at least: one for the loss to take out, one for the duplicate to run again. The workers of a library
  // may take more than the drive's second to start on a busy machine (a clean-clone CI run: none ran in it).
  driven: (stats) => stats.groups.every((g) => g.op("read").total.count >= 2),
  // A short run offers a few hundred jobs, with a few workers.
  small: (input) => ({ ...input, rate: 200, enqueuers: 2 }),
};
