// A run carried by several runner processes ("parts"): what each part stores per second so that the run's second
// is their EXACT merge, and that merge (mergeSamples). Latency histograms are added, never their percentiles
// averaged: the p99 of two parts is the p99 of all their values, which no mean of their p99s gives. Browser-safe.
// The summary's merge is in ./merge-summaries.ts; docs/measurement.md "Merging a run's parts" says the rules.
import { z } from "zod";
import { decodeHistogram, encodeHistogram, type Histogram, newHistogram, percentilesOf } from "./histogram";
import { LATENCY_KINDS, type GroupFigures, type OperationFigures, type OperationLatency, type Operations, Phase } from "./metrics";
import { worstPart, type SamplePart } from "./part-figures";
import { sampleClientBound, SampleRunnerLoad } from "./runner-load";
import type { SampleMetrics } from "./sample";

/** Encoded HDR histograms (µs, ./histogram.ts encodeHistogram) of one operation, by latency kind. */
export const EncodedLatency = z.partialRecord(z.enum(LATENCY_KINDS), z.string().min(1));
export type EncodedLatency = z.infer<typeof EncodedLatency>;

/** What one operation of one part did: counts (added across parts) and its histograms (added, then read). */
export const PartOperation = z.object({
  count: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative().optional(),
  batches: z.number().int().nonnegative().optional(),
  counters: z.record(z.string(), z.number()).optional(),
  histograms: EncodedLatency,
});
export type PartOperation = z.infer<typeof PartOperation>;

/**
 * How the parts' values of a measure make the run's: `sum` (a backlog: each part owns its own items, a queue's
 * writers' share or a pub/sub part's partitions, so the run's backlog is their sum), `max`, or `maxOverGroups`
 * (the run's value is the largest of the merged groups' values of the same name: pub/sub's backlog is its most
 * behind group's, and a group's is the sum over the parts of its partitions). A summed backlog is each part's own
 * contribution, not clamped at 0: a part of a queue's readers only, reading what other parts wrote, sends a
 * negative one, so the sum is what the run left waiting.
 */
export const MEASURE_RULES = ["sum", "max", "maxOverGroups"] as const;
export type MeasureRule = (typeof MEASURE_RULES)[number];
export const PartMeasure = z.object({ value: z.number(), combine: z.enum(MEASURE_RULES) });
export type PartMeasure = z.infer<typeof PartMeasure>;
const GroupMeasure = z.object({ value: z.number(), combine: z.enum(["sum", "max"]) });

export const PartGroup = z.object({
  group: z.string(),
  operations: z.record(z.string(), PartOperation),
  measures: z.record(z.string(), GroupMeasure).optional(),
});
export type PartGroup = z.infer<typeof PartGroup>;

/** One part's second: what it stores so that the run's second (SampleMetrics) is the exact merge of its parts'. */
export const PartSample = z.object({
  /** The run this part belongs to: parts of different runs are refused. */
  runId: z.string().min(1),
  /** Which part (0 … parts − 1), and how many parts carry the run. */
  part: z.number().int().nonnegative(),
  parts: z.number().int().positive(),
  phase: Phase,
  /** Seconds since the start barrier at this interval's end (the part's own skew included), and its real length. */
  elapsedSec: z.number(),
  intervalSec: z.number().positive(),
  operations: z.record(z.string(), PartOperation),
  groups: z.array(PartGroup).optional(),
  measures: z.record(z.string(), PartMeasure),
  errors: z.array(z.string()),
  runnerLoad: SampleRunnerLoad.optional(),
  startSkewMs: z.number(),
  clockOffsetMs: z.number(),
});
export type PartSample = z.infer<typeof PartSample>;

/** Parts whose seconds end further apart than this are refused as different seconds (s). */
export const SECOND_TOLERANCE_SEC = 0.25;

/** Parses every part with its schema, naming the part (by position) whose shape is wrong. */
export function parseParts<T>(schema: z.ZodType<T>, raw: readonly unknown[], what: string): T[] {
  if (raw.length === 0) throw new Error(`no parts to merge: give every part's ${what}`);
  return raw.map((r, i) => {
    const p = schema.safeParse(r);
    if (p.success) return p.data;
    const issue = p.error.issues[0];
    throw new Error(`part at position ${i}: its ${what} is not valid (${issue?.path.join(".") || "(root)"}: ${issue?.message}); fix what the part sent`);
  });
}

/** Refuses parts of different runs, duplicates, and a run with parts missing (never a silent partial merge). */
export function checkPartsOfOneRun(parts: readonly { runId: string; part: number; parts: number }[]): void {
  const first = parts[0];
  for (const p of parts) {
    if (p.runId !== first.runId)
      throw new Error(`part ${p.part} is of run ${p.runId}, part ${first.part} of run ${first.runId}: parts of different runs cannot be merged`);
    if (p.parts !== first.parts)
      throw new Error(`part ${p.part} says the run has ${p.parts} parts, part ${first.part} says ${first.parts}: they disagree on the run's split`);
    if (p.part >= p.parts) throw new Error(`part ${p.part} is out of range: the run has parts 0 to ${p.parts - 1}`);
  }
  const seen = new Set<number>();
  for (const p of parts) {
    if (seen.has(p.part)) throw new Error(`part ${p.part} is given twice: give each part once`);
    seen.add(p.part);
  }
  const missing = Array.from({ length: first.parts }, (_, i) => i).filter((i) => !seen.has(i));
  if (missing.length)
    throw new Error(`part(s) ${missing.join(", ")} of ${first.parts} missing: a run's figures are merged from every part, never from some of them`);
}

/** Adds optional counts: undefined stays undefined only when every part left it out. */
const addOpt = (a: number | undefined, b: number | undefined) => (a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0));

/** An operation's counts of every part added (its histograms are merged apart). */
function addCounts(a: PartOperation, b: PartOperation): PartOperation {
  const counters = a.counters || b.counters ? { ...a.counters } : undefined;
  if (counters) for (const [k, v] of Object.entries(b.counters ?? {})) counters[k] = (counters[k] ?? 0) + v;
  return {
    count: a.count + b.count,
    errors: a.errors + b.errors,
    ...(addOpt(a.bytes, b.bytes) !== undefined ? { bytes: addOpt(a.bytes, b.bytes) } : {}),
    ...(addOpt(a.batches, b.batches) !== undefined ? { batches: addOpt(a.batches, b.batches) } : {}),
    ...(counters ? { counters } : {}),
    histograms: {},
  };
}

/** Reads one part's encoded histogram, naming the part when it is not one. */
function decodeOf(part: number, name: string, kind: string, b64: string): Histogram {
  try {
    return decodeHistogram(b64);
  } catch (err) {
    throw new Error(`part ${part}'s ${name} ${kind} histogram: ${(err as Error).message}; the part must send encodeHistogram's output`);
  }
}

/** The merged operations, by name in first-seen order: counts added, histograms added per kind (re-encoded). */
export function mergePartOperations(list: readonly { part: number; operations: Record<string, PartOperation> }[]): Record<string, PartOperation> {
  const out: Record<string, PartOperation> = {};
  const added: Record<string, Partial<Record<(typeof LATENCY_KINDS)[number], Histogram>>> = {};
  for (const { part, operations } of list)
    for (const [name, o] of Object.entries(operations)) {
      out[name] = addCounts(out[name] ?? { count: 0, errors: 0, histograms: {} }, o);
      for (const kind of LATENCY_KINDS) {
        const b64 = o.histograms[kind];
        if (b64) ((added[name] ??= {})[kind] ??= newHistogram()).add(decodeOf(part, name, kind, b64));
      }
    }
  for (const [name, kinds] of Object.entries(added))
    for (const kind of LATENCY_KINDS) {
      const h = kinds[kind];
      if (h) out[name].histograms[kind] = encodeHistogram(h);
    }
  return out;
}

/** One merged operation as a sample or summary stores it: its rate over `sec`, percentiles of its merged histograms. */
export function figuresOf(o: PartOperation, sec: number): OperationFigures {
  const latency: OperationLatency = {};
  for (const kind of LATENCY_KINDS) {
    const h = o.histograms[kind];
    if (h) latency[kind] = percentilesOf(decodeHistogram(h));
  }
  const { histograms: _, ...counts } = o;
  return { ...counts, perSecond: sec > 0 ? o.count / sec : 0, latency };
}

export const operationsOf = (ops: Record<string, PartOperation>, sec: number): Operations =>
  Object.fromEntries(Object.entries(ops).map(([name, o]) => [name, figuresOf(o, sec)]));

/** A group merged over the parts: its operations and its measures' values. */
interface MergedGroup {
  group: string;
  operations: Record<string, PartOperation>;
  measures?: Record<string, number>;
}

/** Groups merged by name (first-seen order); their measures by their declared rule. */
function mergeGroups(parts: readonly PartSample[]): MergedGroup[] | undefined {
  if (!parts.some((p) => p.groups)) return undefined;
  const names = [...new Set(parts.flatMap((p) => (p.groups ?? []).map((g) => g.group)))];
  return names.map((group) => {
    const mine = parts.flatMap((p) => (p.groups ?? []).filter((g) => g.group === group).map((g) => ({ part: p.part, g })));
    const measures = combine(
      mine.map(({ part, g }) => ({ part, measures: g.measures ?? {} })),
      `group ${group}'s`,
    );
    return {
      group,
      operations: mergePartOperations(mine.map(({ part, g }) => ({ part, operations: g.operations }))),
      ...(Object.keys(measures).length ? { measures } : {}),
    };
  });
}

/** Measures combined by their declared rule; parts that declare different rules for one measure are refused.
 *  `maxOverGroups` measures are left out (they are read from the merged groups). */
function combine(list: readonly { part: number; measures: Record<string, PartMeasure> }[], whose: string): Record<string, number> {
  const rules = new Map<string, { rule: MeasureRule; part: number }>();
  const out: Record<string, number> = {};
  for (const { part, measures } of list)
    for (const [name, m] of Object.entries(measures)) {
      const seen = rules.get(name);
      if (seen && seen.rule !== m.combine)
        throw new Error(
          `part ${part} combines ${whose} measure "${name}" by ${m.combine}, part ${seen.part} by ${seen.rule}: every part must declare the same rule`,
        );
      rules.set(name, { rule: m.combine, part });
      if (m.combine === "sum") out[name] = (out[name] ?? 0) + m.value;
      else if (m.combine === "max") out[name] = Math.max(out[name] ?? -Infinity, m.value);
    }
  return out;
}

/** The run's measures: `sum` and `max` over the parts, `maxOverGroups` from the merged groups. */
function mergeMeasures(parts: readonly PartSample[], groups: MergedGroup[] | undefined): Record<string, number> {
  const out = combine(parts, "the run's");
  for (const p of parts)
    for (const [name, m] of Object.entries(p.measures)) {
      if (m.combine !== "maxOverGroups" || name in out) continue;
      const values = (groups ?? []).map((g) => g.measures?.[name]).filter((v): v is number => v !== undefined);
      if (!values.length) throw new Error(`part ${p.part} combines measure "${name}" over groups, but no group has a "${name}": give the groups' values`);
      out[name] = Math.max(...values);
    }
  return out;
}

/** The parts' error messages, each once, naming the parts it came from (at most 10, as a sample keeps). */
function mergeErrors(parts: readonly PartSample[]): string[] {
  const from = new Map<string, number[]>();
  for (const p of parts) for (const e of p.errors) from.set(e, [...(from.get(e) ?? []), p.part]);
  return [...from].slice(0, 10).map(([e, ps]) => `${e} (part${ps.length > 1 ? "s" : ""} ${ps.join(", ")})`);
}

/** Refuses parts of different phases, or whose seconds end further apart than the tolerance, naming them. */
function checkSameSecond(parts: readonly PartSample[], toleranceSec: number): void {
  const first = parts[0];
  const odd = parts.find((p) => p.phase !== first.phase);
  if (odd) throw new Error(`part ${odd.part}'s second is in ${odd.phase}, part ${first.part}'s in ${first.phase}: they are different seconds`);
  const byEnd = [...parts].sort((a, b) => a.elapsedSec - b.elapsedSec);
  const [early, late] = [byEnd[0], byEnd[byEnd.length - 1]];
  const gap = late.elapsedSec - early.elapsedSec;
  if (gap > toleranceSec)
    throw new Error(
      `part ${late.part}'s second ends at ${late.elapsedSec.toFixed(3)} s, part ${early.part}'s at ${early.elapsedSec.toFixed(3)} s (${gap.toFixed(3)} s apart, more than ${toleranceSec} s): they are different seconds; merge each part's sample of the same second`,
    );
}

/** Each part's own figures this second, and the worst-loaded part (judged by the client rule, then ranked). */
function partsOf(parts: readonly PartSample[], serviceMs: number | undefined): { list: SamplePart[]; worst: number | null } {
  const list = parts.map((p) => ({
    part: p.part,
    perSecond: Object.fromEntries(Object.entries(p.operations).map(([n, o]) => [n, o.count / p.intervalSec])),
    ...(p.runnerLoad ? { runnerLoad: p.runnerLoad } : {}),
    startSkewMs: p.startSkewMs,
    clockOffsetMs: p.clockOffsetMs,
  }));
  const ranks = parts.flatMap((p) =>
    p.runnerLoad
      ? [
          {
            part: p.part,
            bound: sampleClientBound(p.runnerLoad, p.intervalSec, serviceMs),
            runQueueWaitMsPerSec: p.runnerLoad.runQueueWaitMsPerSec,
            delayMs: p.runnerLoad.loopDelayMs.p99,
            cpuCores: p.runnerLoad.cpuCores,
          },
        ]
      : [],
  );
  return { list, worst: worstPart(ranks) };
}

export interface MergeSamplesOptions {
  /** Seconds further apart than this are refused (default SECOND_TOLERANCE_SEC). */
  toleranceSec?: number;
  /** The main operation's service time (its p50, ms), which the client rule judges each part's loop delay against. */
  serviceMs?: number;
}

/**
 * One second of a run from its parts' seconds. Counts, errors, bytes, batches and counters are added; the run's
 * second spans from the earliest part's interval start to the latest part's end, and each rate is the total count
 * over that span; latencies are the percentiles of the parts' histograms added (exact, never averaged); groups are
 * merged by name; measures by their declared rule; each part's rates, load and clock are kept in `processes`, and
 * `runnerLoad` is the worst-loaded part's. Throws, naming the part, on parts of different runs or seconds, a
 * missing or duplicated part, or a bad shape.
 */
export function mergeSamples(raw: readonly unknown[], opts: MergeSamplesOptions = {}): SampleMetrics {
  const parts = parseParts(PartSample, raw, "sample").sort((a, b) => a.part - b.part);
  checkPartsOfOneRun(parts);
  checkSameSecond(parts, opts.toleranceSec ?? SECOND_TOLERANCE_SEC);
  const end = Math.max(...parts.map((p) => p.elapsedSec));
  const start = Math.min(...parts.map((p) => p.elapsedSec - p.intervalSec));
  const intervalSec = end - start;
  const groups = mergeGroups(parts);
  const { list, worst } = partsOf(parts, opts.serviceMs);
  const worstLoad = parts.find((p) => p.part === worst)?.runnerLoad;
  return {
    elapsedSec: end,
    intervalSec,
    operations: operationsOf(mergePartOperations(parts), intervalSec),
    ...(groups
      ? {
          groups: groups.map(
            (g): GroupFigures => ({
              group: g.group,
              operations: operationsOf(g.operations, intervalSec),
              ...(g.measures ? { measures: g.measures } : {}),
            }),
          ),
        }
      : {}),
    measures: mergeMeasures(parts, groups),
    errors: mergeErrors(parts),
    ...(worstLoad ? { runnerLoad: worstLoad } : {}),
    processes: { parts: list, worst },
  };
}
