// What a workload declares about itself, browser-safe (no node: or pg imports): the form, the API, the CLI,
// the reproducing command, compare and the importer all read a workload from this, so adding one is one
// folder (workloads/<kind>/definition.ts + runner.ts) and one line in each registry.
import type { z } from "zod";

/** The New run form's sections, in order. */
export const GROUP_LABEL = { load: "Load", batches: "Messages and batches", timing: "Timing" } as const;
export type FieldGroup = keyof typeof GROUP_LABEL;

/** One knob of a workload: everything the form, the CLI, the command, compare and the importer need. */
export interface FieldDef {
  /** The config key (WorkloadConfig[name]). */
  name: string;
  /** The form's label; the schema's messages start with it, so every surface uses the same words. */
  label: string;
  unit?: string;
  /** The form's hint under the input. */
  hint: string;
  /** int: a whole number typed as text; bool: a checkbox (false when absent); select: one of `options`. */
  control: "int" | "bool" | "select";
  min?: number;
  max?: number;
  /** The values a select field takes, with what the form shows for each. */
  options?: readonly { value: string; label: string; description: string }[];
  /** Taken when the field is left out. Undefined: the field is optional (see derivedFrom). */
  default?: number | boolean | string;
  group: FieldGroup;
  /** Shown as text, never asked: the schema derives it from this other field. */
  derivedFrom?: string;
  /** The command-line flag (`-flag`). `ours`: not the reference tool's, written `--flag` in commands.
   *  `duration`: takes 30s, 2m, 1m30s. `help` is the --help text. Absent: no flag. */
  cli?: { flag: string; ours?: boolean; duration?: boolean; help: string };
  /** The reference tool's flag the importer reads into this field (pg_msg_bench's Go-style name). */
  importFlag?: string;
  /** The compare view's row label; absent: the field has no row. The first workload to name a row names it. */
  compareLabel?: string;
}

/** A derived row of the compare view's config table (e.g. readers in total), placed after `after`. */
export interface CompareExtra {
  key: string;
  label: string;
  after: string;
  /** From a config whose fields may be unknown (an imported output without its command line): null then. */
  value: (c: Record<string, unknown>) => number | string | boolean | null;
}

export interface PresetDef<Input = Record<string, unknown>> {
  id: string;
  label: string;
  description: string;
  /** The published scenario this preset reproduces (lib/references.ts), if any. */
  referenceId?: string;
  config: Input;
}

export interface WorkloadDefinition<S extends z.ZodType = z.ZodType, K extends string = string> {
  kind: K;
  /** The form's segment label ("pub/sub"). */
  title: string;
  /** One line under the form's workload picker. */
  description: string;
  /** Its params, parsed by the form, the API, the CLI and the runner alike (kind is a literal in it). */
  params: S;
  /** In the form's order. */
  fields: FieldDef[];
  /** The order the reproducing command writes the flags in (the reference tool's usual order, so a command
   *  reads like one of its own); fields left out follow in table order. */
  commandOrder?: string[];
  presets: PresetDef<z.input<S>>[];
  /** The preset the form switches to when this workload is picked. */
  defaultPresetId: string;
  /** The config in words, one part per knob ("10 writers", "4 partitions", …): runs list and run page. */
  describe(config: z.output<S>): string[];
  /** A short name for compare's item headers ("queue 10w/15r"). */
  shortName(config: z.output<S>): string;
  /** Client connections a run opens (the engine adds one for setup/monitoring), and the formula in words. */
  clients(config: z.output<S>): number;
  clientsFormula: string;
  /** The message data a run holds in the runner at once (batches being built, sent and read back), part by
   *  part; lib/memory.ts sums it and refuses a run over the runner's memory budget. */
  clientMemory(config: z.output<S>): MemoryPart[];
  clientMemoryFormula: string;
  /** Writes per write transaction (the throttle admits a whole batch at once). */
  writeBatch(config: z.output<S>): number;
  /** Whether its reads are per consumer group, so the read rate sums the groups (pub/sub fan-out). */
  readsPerGroup: boolean;
  /** Where the backlog chart's messages wait ("per consumer group", "in the queue"). */
  backlogPlace: string;
  /** What one write and one read latency sample times, for the CLI's summary ("per batch", "per poll"). */
  latencyUnits: { write: string; read: string };
  /** Derived rows of compare's config table. */
  compareExtras?: CompareExtra[];
  /** Whether the reference tool (pg_msg_bench) has this workload: its `-mode` value, for the importer. */
  referenceMode?: string;
  // Operations: the metric model (what a workload measures: writes, reads, claims, e2e…) will be declared
  // here, so samples, summaries, charts and compare render what the workload names. Until then every
  // workload reports the broker-shaped samples of lib/sample.ts and lib/summary.ts.
}

/** One share of a run's client memory: what holds it, in words with the config's numbers, and the fields that scale it. */
export interface MemoryPart {
  bytes: number;
  /** "1 writer × write batch 50 × 10 MiB payload × 3 (hex text + random bytes)". */
  words: string;
  /** Config fields that scale this part, the most direct lever first. */
  fields: string[];
}

/** Keeps the schema's type, so the registry's union of configs is exact. */
export const defineWorkload = <S extends z.ZodType, K extends string>(d: WorkloadDefinition<S, K>) => d;
