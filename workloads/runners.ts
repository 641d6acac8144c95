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
import type { WorkloadModule } from "./runtime";
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
