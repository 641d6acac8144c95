// What a run's load step leaves for its verify step, in a file of its own: the load is this process's own
// (./local-load.ts loadHere) or carried by parts (./parts/coordinator.ts coordinate), and the lifecycle's verify
// step (./run-steps.ts) reads either, so neither side imports the other.
import type { RunSummary } from "../lib/measurement/summary";
import type { Verification } from "../lib/measurement/verification";
import type { Ledger } from "../workloads/runtime";

/** What a load leaves for the verify step. */
export interface LoadOutcome {
  /** The parts' ledgers, for the run's own instance to absorb before it verifies (absent: the load ran here). */
  ledgers?: Ledger[];
  /** The run's summary, once verified (unreadAtEnd: what the verification found left unread). */
  summarize(verification: Verification, unreadAtEnd: number): Promise<RunSummary>;
}
