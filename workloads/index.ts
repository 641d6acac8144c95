// The workload registry, browser-safe: every workload's definition (workloads/<kind>/definition.ts). The
// form, the API, the CLI, the reproducing command, compare and the importer list workloads from here only.
// Adding a workload: its folder (definition.ts, runner.ts, testing.ts) and its entry here, nothing else: the
// server finds its runner in the folder of its kind (workloads/runners.ts).
import type { z } from "zod";
import { cache } from "./cache/definition";
import { graphileWorker } from "./graphile-worker/definition";
import { jobqueue } from "./jobqueue/definition";
import { pgBoss } from "./pg-boss/definition";
import { pubsub } from "./pubsub/definition";
import { mixed } from "./mixed/definition";
import { notify } from "./notify/definition";
import { inserts } from "./inserts/definition";
import { queue } from "./queue/definition";
import { queuedWorkflows } from "./queued-workflows/definition";
import { search } from "./search/definition";
import type { WorkloadDefinition } from "./types";
import { workflows } from "./workflows/definition";

const BUILT_IN = [pubsub, queue, cache, jobqueue, search, notify, mixed, inserts, workflows, queuedWorkflows, graphileWorker, pgBoss] as const;

/** A parsed config of any built-in workload, discriminated on `kind`. */
export type WorkloadConfig = z.output<(typeof BUILT_IN)[number]["params"]>;
export type WorkloadInput = z.input<(typeof BUILT_IN)[number]["params"]>;
export type WorkloadKind = WorkloadConfig["kind"];

/** The built-in workloads' kinds: each is also its folder's name (workloads/<kind>/, where workloads/runners.ts
 *  finds its runner). */
export const builtInKinds = (): readonly string[] => BUILT_IN.map((d) => d.kind);

let definitions: readonly WorkloadDefinition[] = BUILT_IN as unknown as readonly WorkloadDefinition[];

/** Every registered workload, in the order the form and the CLI list them. A new array after each
 *  registration, so callers may cache what they derive per array. */
export function workloadDefinitions(): readonly WorkloadDefinition[] {
  return definitions;
}

export function workloadDefinition(kind: string): WorkloadDefinition | undefined {
  return definitions.find((d) => d.kind === kind);
}

/** The definition of a parsed config's workload (a config is only ever parsed by a registered schema). */
export function definitionOf(config: { kind: string }): WorkloadDefinition {
  const d = workloadDefinition(config.kind);
  if (!d) throw new Error(`no workload "${config.kind}" is registered`);
  return d;
}

/**
 * Adds a workload at run time; returns the function that removes it again. For tests only: the product's
 * workloads are listed in BUILT_IN above, so their configs are part of the WorkloadConfig type.
 */
export function registerWorkload(def: WorkloadDefinition): () => void {
  if (workloadDefinition(def.kind)) throw new Error(`a workload "${def.kind}" is registered already`);
  definitions = [...definitions, def];
  return () => {
    definitions = definitions.filter((d) => d !== def);
  };
}
