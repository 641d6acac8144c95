// The queue libraries' hooks for the conformance suite (workloads/exercise/), shared by graphile-worker and pg-boss:
// a job the ledger says ran, taken out of it, is lost (it is not waiting in the library's queue either); one taken
// twice is a duplicate.
import type { WorkloadHooks } from "../hooks";

type JobLedgerJson = { assigned: number; failed: number[]; ran: number[] };

const doctored = (ledgers: Record<string, unknown>[], change: (ran: number[]) => number[]) =>
  ledgers.map((l, i) => (i > 0 ? l : { ...l, ran: change([...(l as JobLedgerJson).ran]) }));

/** The job the loss took out of the ledger (the faults are provoked in turn on one run, the loss first): the duplicate
 *  runs it twice when no other job is left to run again (a short run on a loaded machine ran one job only, in a
 *  clean-clone CI run). */
let takenOut: number | undefined;

export const jobLibraryHooks: WorkloadHooks = {
  faults: {
    loss: {
      provoke: async ({ ledgers }) =>
        doctored(ledgers, (ran) => {
          takenOut = ran[0];
          return ran.slice(1);
        }),
      problem: /^1 job enqueued never ran and is not in /i,
    },
    duplicate: {
      provoke: async ({ ledgers }) =>
        doctored(ledgers, (ran) => (ran.length ? [...ran, ran[ran.length - 1]] : takenOut !== undefined ? [takenOut, takenOut] : ran)),
      problem: /^1 job ran more than once/,
    },
  },
  // A short run offers a few hundred jobs, with a few workers.
  small: (input) => ({ ...input, rate: 200, enqueuers: 2 }),
};
