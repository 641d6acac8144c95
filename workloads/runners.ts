// The runner registry (server-only): each workload's setup, loops and verification (workloads/<kind>/runner.ts)
// and the hooks its tests provoke faults with (workloads/<kind>/testing.ts, loaded by tests only). Adding a
// workload: its folder, one line here and one in workloads/index.ts (the browser-safe list of definitions);
// workloads/registry.test.ts names what a workload folder lacks. Tests add workloads of their own with
// registerWorkloadEntry (fixtures/workloads/).
import type { WorkloadConfig, WorkloadKind } from "../lib/workloads/config";
import type { WorkloadHooks } from "./hooks";
import { registerWorkload } from "./index";
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
import type { WorkloadDefinition } from "./types";
import { workflows } from "./workflows/runner";

/** A workload's server half: its runner, and its test hooks (a module exporting `hooks`), loaded when a test asks. */
export interface WorkloadEntry<C extends WorkloadConfig = WorkloadConfig> {
  runner: WorkloadModule<C>;
  testing: () => Promise<{ hooks: WorkloadHooks }>;
}

type Entries = { [K in WorkloadKind]: WorkloadEntry<Extract<WorkloadConfig, { kind: K }>> };

export const WORKLOADS: Entries = {
  pubsub: { runner: pubsub, testing: () => import("./pubsub/testing") },
  queue: { runner: queue, testing: () => import("./queue/testing") },
  cache: { runner: cache, testing: () => import("./cache/testing") },
  jobqueue: { runner: jobqueue, testing: () => import("./jobqueue/testing") },
  search: { runner: search, testing: () => import("./search/testing") },
  notify: { runner: notify, testing: () => import("./notify/testing") },
  mixed: { runner: mixed, testing: () => import("./mixed/testing") },
  inserts: { runner: inserts, testing: () => import("./inserts/testing") },
  workflows: { runner: workflows, testing: () => import("./workflows/testing") },
  "queued-workflows": { runner: queuedWorkflows, testing: () => import("./queued-workflows/testing") },
};

/** A whole workload in one registration: its definition, its runner and its test hooks (a fixture's folder). */
export interface WorkloadRegistration {
  definition: WorkloadDefinition;
  // biome-ignore lint/suspicious/noExplicitAny: a registration's config type is its own workload's.
  runner: WorkloadModule<any>;
  hooks: WorkloadHooks;
}

/** Workloads registered at run time (tests only), by kind. */
const added = new Map<string, WorkloadEntry>();

/** Adds a whole workload, definition and runner, to both registries; returns the function that removes it. */
export function registerWorkloadEntry(r: WorkloadRegistration): () => void {
  const unregister = registerWorkload(r.definition);
  added.set(r.definition.kind, { runner: r.runner, testing: async () => ({ hooks: r.hooks }) });
  return () => {
    unregister();
    added.delete(r.definition.kind);
  };
}

/** The server half of a registered workload, built in or added. */
export function workloadEntry(kind: string): WorkloadEntry | undefined {
  return (WORKLOADS as Record<string, WorkloadEntry>)[kind] ?? added.get(kind);
}

export function workloadFor<C extends WorkloadConfig>(config: C): WorkloadModule<C> {
  const entry = workloadEntry(config.kind);
  if (!entry) throw new Error(`no runner for a "${config.kind}" workload is registered`);
  return entry.runner as unknown as WorkloadModule<C>;
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
