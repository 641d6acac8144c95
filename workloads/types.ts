// What a workload declares about itself, browser-safe (no node: or pg imports): the form, the API, the CLI,
// the reproducing command, compare and the importer all read a workload from this, so adding one is one
// folder (workloads/<kind>/: definition.ts, runner.ts, testing.ts) and its entry in workloads/index.ts.
import type { z } from "zod";
import type { Pacing } from "../runner/core";
import type { BackoffMode } from "../lib/backoff";

/** How a run is paced: the engine core's declaration (runner/core/pacing.ts), which a definition returns. */
export type { Pacing };

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
  /** int: a whole number typed as text; bool: a checkbox (false when absent); select: one of `options`;
   *  text: a line of text (the workload's schema checks its form, e.g. a comma-separated list of words). */
  control: "int" | "bool" | "select" | "text";
  min?: number;
  max?: number;
  /** A text field's own check of its value (e.g. a run's phases line): a message naming what is wrong, or null. */
  check?: (value: string) => string | null;
  /** A text field's value as stored once it passed its check (its canonical spelling), when that differs from the typed. */
  canonical?: (value: string) => string;
  /** The values a select field takes, with what the form shows for each. */
  options?: readonly { value: string; label: string; description: string }[];
  /** Taken when the field is left out. Undefined: the field is optional (see derivedFrom). */
  default?: number | boolean | string;
  group: FieldGroup;
  /** Shown as text, never asked: the schema derives it from this other field. */
  derivedFrom?: string;
  /** The command-line flag (`-flag`). `ours`: not the reference tool's, written `--flag` in commands.
   *  `duration`: takes 30s, 2m, 1m30s (the field in whole seconds); "ms": takes 100ms, 1s, 0 (the field in
   *  whole milliseconds). `help` is the --help text. `omitDefault`: a reproducing command names it only when it is
   *  not the default (a knob most runs leave alone, e.g. runner processes). `repeatable`: a text field's flag given once
   *  per item (`--phase A --phase B`), the items joined by ", " in the field. `implies`: giving the flag sets another
   *  field to a value unless that field's own flag is given too (`--drain N` means drain mode). Absent: no flag. */
  cli?: {
    flag: string;
    ours?: boolean;
    duration?: boolean | "ms";
    help: string;
    omitDefault?: boolean;
    repeatable?: boolean;
    implies?: { field: string; value: string };
  };
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
  /** The published scenario this preset reproduces (lib/references/references.ts), if any. */
  referenceId?: string;
  config: Input;
}

export interface WorkloadDefinition<S extends z.ZodType = z.ZodType, K extends string = string> {
  kind: K;
  /** The form's segment label ("pub/sub"). */
  title: string;
  /** One line under the form's workload picker. */
  description: string;
  /** What it is for, in a few words, shown beside its name in the form's workload picker ("Kafka-style log:
   *  partitions, consumer groups, offsets"). One short line; every built-in workload has one. */
  purpose?: string;
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
   *  part; lib/workloads/memory.ts sums it and refuses a run over the runner's memory budget. */
  clientMemory(config: z.output<S>): MemoryPart[];
  clientMemoryFormula: string;
  /** Paced writes sent on one scheduled time (a transaction's batch, or DBOS's batch of inserts): the pacer admits
   *  them at once, so counts move by this much (the conformance suite, workloads/exercise/runs.ts, checks it against
   *  what is sent). Absent: one (writeBatchOf reads it). */
  writeBatch?(config: z.output<S>): number;
  /** How a run with this config is paced and at what rate: the engine reads this, never the config's fields. */
  pacing(config: z.output<S>): Pacing;
  /** The knob that sets the rate its pacing aims at, if it has one (a ceiling search raises it; see RateKnob). */
  rateKnob?: RateKnob;
  /** Bytes of one counted item's payload (a message's), when its items carry one: rates then also read in
   *  MiB/s. Absent: its items have no payload size (rows, requests, workflows), and no MiB/s is shown. */
  payloadBytes?(config: z.output<S>): number;
  /** The readers' back-off after an empty poll (pub/sub, queue), recorded in the manifest so compare can tell
   *  runs apart. Absent: the workload does not poll. */
  backoff?(config: z.output<S>): BackoffMode;
  /** Derived rows of compare's config table. */
  compareExtras?: CompareExtra[];
  /** Whether the reference tool (pg_msg_bench) has this workload: its `-mode` value, for the importer. */
  referenceMode?: string;
  /** What it measures: its named operations, its delivery latency and its backlogs (see MetricModel). */
  metrics: MetricModel;
  /** What its verification counts, one item, singular ("message", "row", "workflow", "request", "job"): every
   *  surface says "35,080 rows checked" in it (lib/measurement/verification.ts). */
  verifiedUnit: string;
  /** Figures other studies published for this workload (see PublishedResult). */
  published?: PublishedResult[];
  /** How a run of it splits over several runner processes (lib/workloads/parts.ts); absent: it cannot be. */
  parts?: PartsDef<z.output<S>>;
  /** What a pause-workers phase stops, as the summary names it ("the readers", "the workers"): the consumers its run
   *  can pause and resume (WorkloadRun.workers). Absent: it has none a phase can pause. */
  pausable?: string;
  /**
   * What the workload's loops do when a kill-backend phase (runner/phases/) takes a connection from under them, in
   * words ("its writers and readers reconnect; a write or dequeue in flight is settled at verification"): they
   * reconnect, and its verification accepts either outcome of an operation in flight then (counted as in doubt).
   * Absent: a lost connection fails its run, and such a phase is refused before launch.
   */
  reconnects?: string;
  /**
   * Why a restart-target phase (every connection of the run lost at once, the target down for a while) is refused
   * although the workload reconnects after a killed backend, in words naming what breaks; absent: a restart is
   * survived as a killed backend is (its `reconnects`).
   */
  restartRefused?: string;
}

/**
 * How a workload's load splits over runner processes: each part owns whole pieces of it by global index (piece i
 * belongs to part i mod N), so each latency is measured in one process and the parts' ids never collide.
 */
export interface PartsDef<C = never> {
  /** The piece each part owns at least one of, singular ("partition", "writer or reader", "virtual user"); a
   *  function when which piece limits the split depends on the config. */
  unit: string | ((config: C) => string);
  /** The field that sets how many pieces there are, as the message asks to raise it ("partitions"); a function
   *  when which field limits the split depends on the config (a closed loop's virtual users or its pool). */
  field: string | ((config: C) => string);
  /** The most parts this config splits into: each part owns at least one piece. */
  max(config: C): number;
  /** The share (0 … 1) of the paced rate part `part` carries; the shares of all parts add up to 1. */
  share(config: C, part: { index: number; of: number }): number;
}

/**
 * One operation a workload times and counts ("write", "read", "claim"; a cache would declare "get" and "set").
 * `name` is its key everywhere it is stored: latencyMs[name] and histograms[name] of samples and summaries,
 * the CSV's `<name>_p50_ms` columns; lib/measurement/operations.ts reads its numbers by that name.
 */
export interface OperationDef {
  name: string;
  /** Lower case, as tables and legends name it ("write"). */
  label: string;
  /** What one counted item is ("msg"): rates are `${unit}/s`. */
  unit: string;
  /** Whether it is counted and drawn as a rate (msg/s, MiB/s), with an error count. */
  rate: boolean;
  /** Whether it has a latency histogram. */
  latency: boolean;
  /** Whether its failures are counted (shown beside its rate). */
  errors: boolean;
  /** What one latency sample times ("per batch", "per poll"): the CLI's and the run page's wording. */
  latencySample: string;
  /** A chart of its latency per second on the run page, when drawn: the chart's title and hint. */
  chart?: { title: string; hint: string };
  /** Also timed from each operation's scheduled start under a throttle (coordinated omission corrected):
   *  the histogram's name and label ("writeScheduled", "write from schedule"). `writerLag`: how far each
   *  writer fell behind its own share of the schedule (runner/core/timing.ts Throttle.writerLagMs), a histogram too. */
  scheduled?: { name: string; label: string; writerLag?: { name: string; label: string } };
  /** Further counts kept with its rate (a read's empty polls): the stored key, the CSV column, the label. */
  counters?: { key: string; column: string; label: string }[];
  /** Its rate sums consumer groups (pub/sub fan-out: each message is read once per group). */
  perGroup?: boolean;
}

/** A latency the workload measures per delivered item, from one operation to another (end-to-end). */
export interface DeliveryDef {
  name: string;
  label: string;
  /** What one sample times ("per message") and which clock (the summary's manifest names it too). */
  latencySample: string;
  chart?: { title: string; hint: string };
  /** Also timed from each item's scheduled write under a throttle (coordinated omission corrected): the
   *  histogram's name and label ("e2eScheduled", "e2e from schedule"). */
  scheduled?: { name: string; label: string };
}

/** What a workload measures. Samples, summaries, charts, the run page, the runs list, compare, the CSV and the
 *  CLI render what is declared here, in this order. */
export interface MetricModel {
  operations: OperationDef[];
  delivery?: DeliveryDef;
  /** Items waiting (written, not yet consumed), sampled every second: per group (pub/sub) or one (queue). */
  backlog?: { label: string; unit: string; what: string; place: string };
  /** How a consumer polls, for the verdict's round-trip rule (lib/telemetry/pace-rules.ts consumerRoundTrips). */
  consumer?: ConsumerDef;
}

/**
 * A consumer's poll as its latencies time it: the claim's latency (one a poll, empty or not) and the read's (one a
 * non-empty poll), whether the read's time already includes the claim's, and the flag that sets the most items a
 * claim takes (none: one item a claim, no batch to raise).
 */
export interface ConsumerDef {
  claim: string;
  read: string;
  readIncludesClaim: boolean;
  batchFlag?: string;
}

/** How a config's paced rate is set: the fields set, and the config with the rate set to `perSecond` (and
 *  whatever else makes its load paced at that rate: a load model switched to open loop). What the rate paces is
 *  the operation its pacing() names for the config returned. */
export interface RateKnob {
  fields: string[];
  set<C extends object>(config: C, perSecond: number): C;
}

/** One share of a run's client memory: what holds it, in words with the config's numbers, and the fields that scale it. */
export interface MemoryPart {
  bytes: number;
  /** "1 writer × write batch 50 × 10 MiB payload × 3 (hex text + random bytes)". */
  words: string;
  /** Config fields that scale this part, the most direct lever first. */
  fields: string[];
}

/** How many of items 0 … n − 1 part `part` owns (i with i mod of = index), as lib/workloads/parts.ts owned(). */
export const ownedCount = (n: number, part: { index: number; of: number }): number => (part.index < n ? Math.floor((n - 1 - part.index) / part.of) + 1 : 0);

/** A definition's write batch (WorkloadDefinition.writeBatch): one unless it declares more. */
export const writeBatchOf = <C>(def: { writeBatch?(config: C): number }, config: C): number => def.writeBatch?.(config) ?? 1;

/** Keeps the schema's type, so the registry's union of configs is exact. */
export const defineWorkload = <S extends z.ZodType, K extends string>(d: WorkloadDefinition<S, K>) => d;

/**
 * A figure another study published for a workload (Yong's cache, DBOS's inserts, …), kept as data beside the
 * workload that reproduces it and always labelled published: never mixed up with a measured run. The
 * Kozlovski study's results have a richer shape of their own (lib/references/references.ts); every other study's
 * published figures take this one, which /references, "Run this here" and compare read from the registry.
 */
export interface PublishedResult {
  /** Unique across studies, URL-safe: "yong-cache-200vu-modded". */
  id: string;
  /** The study's key in STUDIES below. */
  study: StudyId;
  /** "Cache, 200 VUs, modded (UNLOGGED table)". */
  title: string;
  /** The article's words or table this comes from (a URL with an anchor or "table 2.1"). */
  source: string;
  /** The config that reproduces it as far as the study says (parsed by the workload's schema; gaps filled
   *  with the defaults the README names). `kind` is the workload's. */
  config: Record<string, unknown> & { kind: string };
  /** Measured window, when published or derivable (say which in `derived`). */
  durationSeconds?: number;
  /** Per declared operation name (or "total" for an aggregate over all of them): rate in unit/s. */
  rates?: Record<string, number>;
  /** Per declared latency name (or "total"): whichever of these the study printed, in ms. */
  latencyMs?: Record<string, Partial<Record<"p50" | "p95" | "p99" | "avg" | "max", number>>>;
  /** Per operation name (or "total"): the count the study printed. */
  totals?: Record<string, number>;
  /** How its latencies were timed when not as ours, shown beside every compared latency
   *  ("HTTP round trip: k6 → Express API → pg pool of 10 → Postgres"). */
  measuredThrough?: string;
  /** The load model it ran under, in words ("200 k6 VUs with think time"). */
  loadModel: string;
  /** The server it ran on, in words ("Docker container, 2 CPUs, 2 GB, PostgreSQL 17, shared postgresql.conf"). */
  server: string;
  /** The bottleneck the study reported, when it did. */
  bottleneck?: string;
  /** Facts we derived by arithmetic from the published ones, each labelled as ours. */
  derived?: string[];
  caveats: { by: "author" | "found"; text: string }[];
}

/** The studies whose published figures the product carries (besides Kozlovski's, lib/references/references.ts). */
export const STUDIES = {
  yong: {
    title: 'Aaron Yong, "PostgreSQL as a Cache, Queue, and Search Engine"',
    short: "Yong",
  },
  dbos: {
    title: 'DBOS, "Does Postgres Scale?"',
    short: "DBOS",
  },
  vendors: {
    title: "The queue libraries' own benchmarks (each library's documentation)",
    short: "vendor",
  },
  hardbyte: {
    title: "hardbyte/postgresql-job-queue-benchmarking (an independent harness, May 2026)",
    short: "hardbyte",
  },
} as const;
export type StudyId = keyof typeof STUDIES;
