// The workload registry. Adding a workload: one new module beside these, one line here, and its params
// schema in lib/workloads.ts.
import type { WorkloadConfig, WorkloadKind } from "../../lib/workloads";
import { pubsub } from "./pubsub";
import { queue } from "./queue";
import type { WorkloadModule } from "./types";

export const WORKLOADS: { [K in WorkloadKind]: WorkloadModule<Extract<WorkloadConfig, { kind: K }>> } = { pubsub, queue };

export function workloadFor<C extends WorkloadConfig>(config: C): WorkloadModule<C> {
  return WORKLOADS[config.kind] as unknown as WorkloadModule<C>;
}
