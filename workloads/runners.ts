// The runner registry (server-only): each workload's setup, loops and verification
// (workloads/<kind>/runner.ts). Adding a workload: its folder, one line here and one in workloads/index.ts.
import type { WorkloadConfig, WorkloadKind } from "../lib/workloads/config";
import { cache } from "./cache/runner";
import { jobqueue } from "./jobqueue/runner";
import { inserts } from "./inserts/runner";
import { pubsub } from "./pubsub/runner";
import { mixed } from "./mixed/runner";
import { notify } from "./notify/runner";
import { queue } from "./queue/runner";
import { search } from "./search/runner";
import { queuedWorkflows } from "./queued-workflows/runner";
import { queuesCliSweep } from "./queued-workflows/sweep";
import type { CliSweep, WorkloadModule } from "./runtime";
import { workflows } from "./workflows/runner";

export const WORKLOADS: { [K in WorkloadKind]: WorkloadModule<Extract<WorkloadConfig, { kind: K }>> } = {
  pubsub,
  queue,
  cache,
  jobqueue,
  search,
  notify,
  mixed,
  inserts,
  workflows,
  "queued-workflows": queuedWorkflows,
};

export function workloadFor<C extends WorkloadConfig>(config: C): WorkloadModule<C> {
  return WORKLOADS[config.kind] as unknown as WorkloadModule<C>;
}

/** The CLI's sweeps (one run per value of a list-valued flag), by workload: runner/cli.ts tries each in turn. */
export const CLI_SWEEPS: readonly CliSweep[] = [queuesCliSweep];

/** The sweep a command line asks for, if any (the first registered sweep that recognises it). */
export function cliSweepFor(argv: string[]): { sweep: CliSweep; plan: Exclude<ReturnType<CliSweep["plan"]>, { kind: "none" }> } | null {
  for (const sweep of CLI_SWEEPS) {
    const plan = sweep.plan(argv);
    if (plan.kind !== "none") return { sweep, plan };
  }
  return null;
}
