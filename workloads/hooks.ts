// What a workload declares for its tests (workloads/<kind>/testing.ts, found in the folder of its kind by
// workloads/runners.ts), read by the conformance suite every workload passes (workloads/exercise/exercise.ts).
import type pg from "pg";
import type { RunSummary } from "../lib/measurement/summary";
import type { RunStats } from "../runner/core";
import type { Ledger } from "./runtime";

/** What a verification can promise to catch: an item lost, an item there twice, items out of order. */
export type Fault = "loss" | "duplicate" | "reorder";
export const FAULTS: readonly Fault[] = ["loss", "duplicate", "reorder"];

/** A finished run's target and the parts' ledgers, before its verify() runs again. */
export interface FaultTarget {
  admin: pg.Client;
  /** The run's schema, quoted. */
  schema: string;
  ledgers: Ledger[];
}

/** How a fault is made on a finished run (an item deleted or re-inserted on the target, or the ledgers its
 *  verifier reads doctored: return them), and the problem verify() then reports for it. */
export interface FaultHook {
  provoke(t: FaultTarget): Promise<Ledger[] | undefined>;
  problem: RegExp;
}

export interface WorkloadHooks {
  /** The faults its verify() promises to catch (the others it does not promise), each with its provocation. */
  faults: Partial<Record<Fault, FaultHook>>;
  /** What the run driven for the fault checks must have done before it is stopped, past its one second (a library
   *  whose workers take a while to start on a busy machine may run no job in it). Absent: the second is enough. */
  driven?(stats: RunStats): boolean;
  /** The default preset's input made small for a run of 1-2 s on a busy machine (a smaller corpus, fewer users);
   *  absent: the default preset as it is. The suite sets the timing itself. */
  small?(input: Record<string, unknown>): Record<string, unknown>;
  /** Configs (inputs without kind) with room to split over 3 or more parts, beside its presets: the suite splits
   *  each into 1 … 4 parts and checks they add up to the whole run. */
  splits?: Record<string, unknown>[];
  /** How many items a run's verify() checked, read from its summary's whole-run totals (a run over 2 processes:
   *  every part's): the suite checks each run verified every item it counted. Absent: only that it checked some. */
  checked?(summary: RunSummary): number;
  /** What else a verified run over 2 processes must show in its facts and notes (asserts; throws when not). */
  overTwoProcesses?(summary: RunSummary): void;
}

/** A loss on the target: one row of `table` (in the run's schema) deleted, the first `where` picks (`$table` in it
 *  is the table, qualified). */
export const rowDeleted = (table: string, problem: RegExp, where = "true"): FaultHook => ({
  provoke: async ({ admin, schema }) => {
    const t = `${schema}.${table}`;
    await admin.query(`DELETE FROM ${t} WHERE ctid = (SELECT ctid FROM ${t} WHERE ${where.replaceAll("$table", t)} LIMIT 1)`);
    return undefined;
  },
  problem,
});

/** A duplicate on the target: one row of `table` inserted again as it is (a table without a unique key on it). */
export const rowCopied = (table: string, problem: RegExp): FaultHook => ({
  provoke: async ({ admin, schema }) => void (await admin.query(`INSERT INTO ${schema}.${table} SELECT * FROM ${schema}.${table} LIMIT 1`)),
  problem,
});
