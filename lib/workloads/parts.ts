// A run carried by several runner processes ("parts", issue #23): what each part owns of the load, browser-safe.
// Every item that has an identity (a writer, a reader, a partition, a virtual user) is owned by exactly one part,
// by its global index: item i belongs to part i mod N. A part keeps the global index of what it owns, so the ids
// it writes (a writer's sequence, a workflow's UUID) never collide with another part's, and the parts' ledgers
// add up to the whole run's (workloads/runtime.ts WorkloadRun.ledger).
import type { WorkloadConfig } from "./config";
import { definitionOf } from "../../workloads";
import { longRunPartsProblem } from "./long-run";
import type { Pacing } from "../../workloads/types";

/** Part `index` of `of` (0 ≤ index < of). A run of one process has no part: it owns everything. */
export interface PartOfRun {
  index: number;
  of: number;
}

/** The global indexes (0 … n − 1) part `part` owns: i with i mod of = index; all of them when there is no part. */
export function owned(n: number, part?: PartOfRun): number[] {
  const out: number[] = [];
  for (let i = part?.index ?? 0; i < n; i += part?.of ?? 1) out.push(i);
  return out;
}

/** Whether part `part` owns global index i (every index when there is no part). */
export const owns = (i: number, part?: PartOfRun): boolean => !part || i % part.of === part.index;

/**
 * The pacing part `part` runs: the run's declared pacing with its share of the rate (the workload's `parts.share`)
 * and of the virtual users (owned by index). The shares of all parts add up to the run's rate and users exactly.
 */
export function partPacing(config: WorkloadConfig, part?: PartOfRun): Pacing {
  const def = definitionOf(config);
  const whole = def.pacing(config);
  if (!part || part.of === 1) return whole;
  if (!def.parts) throw new Error(`a ${def.title} run cannot be split over processes`);
  const share = def.parts.share(config as never, part);
  return {
    ...whole,
    ...(whole.targetPerSecond !== undefined ? { targetPerSecond: whole.targetPerSecond * share } : {}),
    ...(whole.virtualUsers !== undefined ? { virtualUsers: owned(whole.virtualUsers, part).length } : {}),
  };
}

/**
 * Why this config cannot run over its `processes`, in words that say what to change; null when it can. Each part
 * must own a whole piece of the load (a partition, a writer or reader, a virtual user): the workload declares how
 * many pieces its config has.
 */
export function partsProblem(config: WorkloadConfig): string | null {
  const n = config.processes ?? 1;
  if (n <= 1) return null;
  const long = longRunPartsProblem(config);
  if (long) return long;
  const def = definitionOf(config);
  if (!def.parts) return `a ${def.title} run cannot be split over processes yet: set processes to 1`;
  const max = def.parts.max(config as never);
  const { unit: u, field: f } = def.parts;
  const unit = typeof u === "function" ? u(config as never) : u;
  const field = typeof f === "function" ? f(config as never) : f;
  if (n > max)
    return `${n} runner processes need at least ${n} ${unit}s to own one each, and this ${def.title} run has ${max}: lower processes to ${max} or raise ${field}`;
  return null;
}
