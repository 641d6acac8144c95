// The runner registry (server-only). A built-in workload's server half lives in its folder, under the kind its
// definition registers in workloads/index.ts: workloads/<kind>/runner.ts exports its WorkloadModule (setup, loops,
// verification) and workloads/<kind>/testing.ts the hooks its tests provoke faults with (loaded by tests only).
// So adding a workload is its folder and one line in workloads/index.ts; workloads/registry.test.ts names what a
// folder lacks. Tests add workloads of their own with registerWorkloadEntry (fixtures/workloads/).
import type { WorkloadConfig } from "../lib/workloads/config";
import type { WorkloadHooks } from "./hooks";
import { builtInKinds, registerWorkload } from "./index";
import { queuesCliSweep } from "./queued-workflows/sweep";
import type { CliSweep, WorkloadModule } from "./runtime";
import type { WorkloadDefinition } from "./types";

/** A workload's server half: its runner, and its test hooks (loaded when a test asks). */
export interface WorkloadEntry<C extends WorkloadConfig = WorkloadConfig> {
  runner: WorkloadModule<C>;
  testing: () => Promise<{ hooks: WorkloadHooks }>;
}

/** The built-in workloads' entries, each loaded from its folder once, when a run or a test first asks for it. */
const builtIn = new Map<string, Promise<WorkloadEntry>>();

/**
 * A built-in workload's entry, from its folder. Only a kind workloads/index.ts lists is looked up, so a kind is
 * never a path. The template's folder and file names are literal, which lets the part's bundle (runner/parts/
 * part-entry.ts: esbuild) carry every workload's runner.
 */
function builtInEntry(kind: string): Promise<WorkloadEntry> | undefined {
  if (!builtInKinds().includes(kind)) return undefined;
  let entry = builtIn.get(kind);
  if (!entry) {
    entry = import(`./${kind}/runner.ts`).then((mod: Record<string, unknown>) => {
      const runner = Object.values(mod).find((v): v is WorkloadModule => isModuleOf(kind, v));
      if (!runner) throw new Error(`workloads/${kind}/runner.ts exports no workload module of kind "${kind}" ({ kind, writerCount, create })`);
      return { runner, testing: () => import(`./${kind}/testing.ts`) };
    });
    builtIn.set(kind, entry);
  }
  return entry;
}

const isModuleOf = (kind: string, v: unknown): boolean =>
  typeof v === "object" && v !== null && (v as WorkloadModule).kind === kind && typeof (v as WorkloadModule).create === "function";

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

/** The server half of a registered workload, built in (from its folder) or added; undefined when none is. */
export async function workloadEntry(kind: string): Promise<WorkloadEntry | undefined> {
  return added.get(kind) ?? (await builtInEntry(kind));
}

/** The runner of a parsed config's workload (a config is only ever parsed by a registered schema). */
export async function runnerOf<C extends WorkloadConfig>(config: C): Promise<WorkloadModule<C>> {
  const entry = await workloadEntry(config.kind);
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
