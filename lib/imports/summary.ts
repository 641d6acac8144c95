// What an import of the reference tool's output is stored as (ImportedSummary, kept in the control store and
// compared like a run by lib/compare/build.ts), and the error an unreadable text is refused with.
import { z } from "zod";
import { ToolWorkload } from "../workloads/config";

/** A Go time.Duration as printed ("19.202047ms") and its value in milliseconds. */
export const ImportedDuration = z.object({ raw: z.string(), ms: z.number() });
export const ImportedLatency = z.object({ p50: ImportedDuration, p95: ImportedDuration, p99: ImportedDuration });
export type ImportedLatency = z.infer<typeof ImportedLatency>;

export const IMPORT_CONFIG_FIELDS = [
  "writers",
  "readers",
  "consumerGroups",
  "partitions",
  "writeBatch",
  "readBatch",
  "payloadBytes",
  "durationSeconds",
  "throttleWritesPerSec",
  "reportIntervalSeconds",
  "tuneTableVacuum",
] as const;
export type ImportConfigField = (typeof IMPORT_CONFIG_FIELDS)[number];
/** Where a config value came from: the command line, the output itself, inferred from the output, or the tool's default. */
export const ConfigSource = z.enum(["command", "output", "inferred", "default"]);
export type ConfigSource = z.infer<typeof ConfigSource>;

export const ImportedGroup = z.object({
  group: z.number().int(),
  reads: z.number().int(),
  readErrors: z.number().int(),
  updates: z.number().int(),
  claimErrors: z.number().int(),
  emptyClaims: z.number().int(),
  avgPollSize: z.number(),
  msgPerSec: z.number(),
  latencyMs: z.object({ read: ImportedLatency, e2e: ImportedLatency }),
});

export const ImportedInterval = z.object({
  /** "hh:mm:ss" as printed. */
  time: z.string(),
  /** Seconds since the start of the load: the report time minus the first report's, plus one report interval. */
  elapsedSec: z.number(),
  writeMsgPerSec: z.number(),
  readMsgPerSec: z.number(),
  /** queue: QDepth; pubsub: the largest group's QueueDepth. */
  backlog: z.number().int(),
});

export const ImportedSummary = z.object({
  schemaVersion: z.literal(1),
  tool: z.literal("pg-queue-pubsub-benchmark"),
  workload: ToolWorkload,
  /** Config as far as it is known; a missing field is unknown (never guessed). */
  config: z.object({
    writers: z.number().int().optional(),
    readers: z.number().int().optional(),
    consumerGroups: z.number().int().optional(),
    partitions: z.number().int().optional(),
    writeBatch: z.number().int().optional(),
    readBatch: z.number().int().optional(),
    payloadBytes: z.number().int().optional(),
    durationSeconds: z.number().optional(),
    throttleWritesPerSec: z.number().optional(),
    reportIntervalSeconds: z.number().optional(),
    tuneTableVacuum: z.boolean().optional(),
  }),
  configSources: z.record(z.string(), ConfigSource),
  /** The command line, if one was given or found in the text (password masked). */
  command: z.string().nullable(),
  totals: z.object({
    writes: z.number().int(),
    reads: z.number().int(),
    updates: z.number().int(),
    writeErrors: z.number().int(),
    readErrors: z.number().int(),
  }),
  /** As the tool printed them: total ÷ configured duration. */
  throughput: z.object({ writeMsgPerSec: z.number(), readMsgPerSec: z.number() }),
  latencyMs: z.object({ write: ImportedLatency, read: ImportedLatency.nullable(), e2e: ImportedLatency.nullable() }),
  groups: z.array(ImportedGroup),
  pubsub: z.object({ claimErrors: z.number().int(), emptyClaims: z.number().int(), avgPollSize: z.number(), deliverySemantics: z.string() }).nullable(),
  intervals: z.array(ImportedInterval),
  /** What the numbers mean (the tool's semantics), shown beside them. */
  notes: z.array(z.string()),
});
export type ImportedSummary = z.infer<typeof ImportedSummary>;

export class ImportError extends Error {
  constructor(
    message: string,
    public line?: number,
  ) {
    super(line ? `line ${line}: ${message}` : message);
  }
}
