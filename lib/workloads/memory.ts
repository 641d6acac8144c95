// The runner's memory budget: how much message data a run of a config holds in the runner at once (each
// workload declares it, workloads/<kind>/definition.ts clientMemory), and the one refusal every surface shows
// when that exceeds RUNNER_MEMORY_BUDGET_MB. Launch (lib/targets/launch.ts), the CLI (runner/cli.ts) and the runner
// before it starts a queued run (runner/main.ts) all call memoryProblem, so they agree on numbers and words.
import type { MemoryPart } from "../../workloads/types";
import { definitionOf, type WorkloadConfig } from "./config";

const MiB = 1048576;

/**
 * Garbage on top of what a run holds: V8 collects Buffers' memory in steps, once external memory has grown
 * by its soft limit of 64 MB, so short-lived copies (hex text being built, rows already counted) pile up to
 * about that much before they go. scripts/bench-memory.ts --payload-run measured 60-70 MiB above the live
 * set for every config it tried, whatever the number of writers and readers.
 */
export const GARBAGE_ALLOWANCE_BYTES = 64 * MiB;

/** "2.4 GiB", "512 MiB": a size as the refusal shows it. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * MiB) return `${+(bytes / (1024 * MiB)).toFixed(1)} GiB`;
  return `${Math.max(1, Math.round(bytes / MiB))} MiB`;
}

/** The bytes of message data a run of `config` holds in the runner at once, by the workload's own formula. */
export function clientMemoryBytes(config: WorkloadConfig): number {
  return memoryParts(config).reduce((sum, p) => sum + p.bytes, 0);
}

/** The workload's parts (those above zero), then the garbage allowance. */
function memoryParts(config: WorkloadConfig): MemoryPart[] {
  return [
    ...definitionOf(config)
      .clientMemory(config as never)
      .filter((p) => p.bytes > 0),
    // Each runner process of the run (runner/parts/) collects its own garbage.
    (config.processes ?? 1) > 1
      ? { bytes: GARBAGE_ALLOWANCE_BYTES * config.processes, words: `64 MiB of garbage collected in steps × ${config.processes} processes`, fields: [] }
      : { bytes: GARBAGE_ALLOWANCE_BYTES, words: "64 MiB of garbage collected in steps", fields: [] },
  ];
}

export interface MemoryProblem {
  estimateBytes: number;
  budgetBytes: number;
  /** The config field to mark (the most direct lever of the largest part): the form shows the message beside it. */
  field: string;
  message: string;
}

/**
 * Why a run of `config` would hold more than `budgetMb` MiB of message data in the runner, or null.
 * `name` words a config field for the surface that asks: the form's label (default) or the CLI's flag.
 */
export function memoryProblem(config: WorkloadConfig, budgetMb: number, name?: (field: string) => string): MemoryProblem | null {
  const def = definitionOf(config);
  const parts = memoryParts(config);
  const estimateBytes = parts.reduce((sum, p) => sum + p.bytes, 0);
  const budgetBytes = budgetMb * MiB;
  if (estimateBytes <= budgetBytes) return null;
  const word = name ?? ((f: string) => def.fields.find((x) => x.name === f)?.label ?? f);
  // The levers of the parts that weigh most first, each named once; the payload scales every part.
  const largest = parts.filter((p) => p.fields.length).sort((a, b) => b.bytes - a.bytes);
  const levers = [...new Set(largest.flatMap((p) => p.fields))].map(word);
  const list = levers.length > 1 ? `${levers.slice(0, -1).join(", ")} or ${levers[levers.length - 1]}` : levers[0];
  return {
    estimateBytes,
    budgetBytes,
    field: largest[0]?.fields[0] ?? "payloadBytes",
    message:
      `this run would hold about ${sizeText(estimateBytes)} of message data in the runner (${parts.map((p) => p.words).join(" + ")}), ` +
      `over the runner's ${sizeText(budgetBytes)} memory budget: lower ${list}, or raise RUNNER_MEMORY_BUDGET_MB (now ${budgetMb})`,
  };
}
