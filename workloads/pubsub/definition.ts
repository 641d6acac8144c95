// Pub/sub, as the product knows it (browser-safe): its params, field table, presets and description. The
// SQL and loops are in runner.ts beside this (server-only).
import type { z } from "zod";
import {
  amount,
  backoffField,
  brokerMetrics,
  byGroup,
  fmtBytes,
  paramsObject,
  plural,
  sharedFields,
  sharedParts,
  whenValid,
  writersField,
  throttlePacing,
  throttleKnob,
} from "../fields";
import { longRunPreset } from "../../lib/workloads/long-run";
import { defineWorkload } from "../types";

/** The writers (global indexes) a part runs: writer w writes partition (w mod P) + 1, owned by part (w mod P) mod N. */
export function pubsubWritersOf(c: { writers: number; partitions: number }, part?: { index: number; of: number }): number[] {
  return Array.from({ length: c.writers }, (_, w) => w).filter((w) => !part || (w % c.partitions) % part.of === part.index);
}

const FIELDS = byGroup([
  writersField,
  {
    name: "partitions",
    label: "Partitions",
    hint: "one table per partition; writer w writes to partition w mod P",
    control: "int",
    min: 1,
    max: 1000,
    default: 10,
    group: "load",
    cli: { flag: "partitions", help: "partition tables" },
    importFlag: "partitions",
    compareLabel: "Partitions",
  },
  {
    name: "consumerGroups",
    label: "Consumer groups",
    hint: "each group reads every message (fan-out)",
    control: "int",
    min: 1,
    max: 100,
    default: 1,
    group: "load",
    cli: { flag: "consumer-groups", help: "consumer groups (read fan-out)" },
    importFlag: "consumer-groups",
    compareLabel: "Consumer groups",
  },
  {
    // Readers per consumer group. The reference pins one reader per partition per group, so it must equal
    // partitions; left out, it is derived from partitions (the form never asks for it: asking would only let
    // the two disagree).
    name: "readers",
    label: "Readers per group",
    hint: "one per partition in each group, as the reference tool requires",
    control: "int",
    min: 1,
    max: 1000,
    group: "load",
    derivedFrom: "partitions",
    cli: { flag: "readers", help: "readers PER consumer group, must equal -partitions (left out, it follows them)" },
    importFlag: "readers",
    compareLabel: "Readers (pub/sub: per group)",
  },
  backoffField,
  ...sharedFields,
  {
    name: "writeBatch",
    label: "Write batch",
    unit: "msgs",
    hint: "messages per INSERT transaction",
    control: "int",
    min: 1,
    max: 100_000,
    default: 100,
    group: "batches",
    cli: { flag: "write-batch", help: "messages per INSERT transaction" },
    importFlag: "write-batch",
    compareLabel: "Write batch",
  },
  {
    name: "readBatch",
    label: "Read batch",
    unit: "msgs",
    hint: "most messages claimed per poll",
    control: "int",
    min: 1,
    max: 100_000,
    default: 100,
    group: "batches",
    cli: { flag: "read-batch", help: "most messages per claim" },
    importFlag: "read-batch",
    compareLabel: "Read batch",
  },
]);

const label = (name: string) => FIELDS.find((f) => f.name === name)!.label;

export const PubsubParams = paramsObject("pubsub", FIELDS)
  .superRefine(
    (p, ctx) => {
      if (p.readers !== undefined && p.readers !== p.partitions)
        ctx.addIssue({
          code: "custom",
          path: ["readers"],
          message: `${label("readers")} (${p.readers}) must equal ${label("partitions")} (${p.partitions}): each consumer group has exactly one reader per partition, as in the reference tool. Set readers to ${p.partitions}, or leave it out to follow partitions`,
        });
    },
    whenValid("readers", "partitions"),
  )
  .superRefine(
    (p, ctx) => {
      // The write limit must let a whole batch through (a queue writer sends one row at a time).
      if (p.throttleWritesPerSec > 0 && p.throttleWritesPerSec < p.writeBatch)
        ctx.addIssue({
          code: "custom",
          path: ["throttleWritesPerSec"],
          message: `${label("throttleWritesPerSec")} (${amount(p.throttleWritesPerSec, "msg/s")}) is below ${label("writeBatch")} (${amount(p.writeBatch, "msgs")}): a whole batch could never be sent (the reference tool's writers silently stop in this case). Raise the write limit or lower the write batch`,
        });
    },
    whenValid("throttleWritesPerSec", "writeBatch"),
  )
  .transform((p) => ({ ...p, readers: p.readers ?? p.partitions }));
export type PubsubConfig = z.output<typeof PubsubParams>;

/** The published scenarios' exact client configs (fixtures/kozlovski/published-results.json, scenarios[].config). */
const PUBLISHED = [
  [
    "pubsub-4vcpu-single-node",
    "pub/sub: 4 vCPU single node",
    { writers: 10, partitions: 4, consumerGroups: 5, writeBatch: 100, readBatch: 200, throttleWritesPerSec: 5000, durationSeconds: 120 },
  ],
  [
    "pubsub-4vcpu-three-node-sync-replicated",
    "pub/sub: 4 vCPU 3-node sync-replicated",
    { writers: 10, partitions: 4, consumerGroups: 5, writeBatch: 100, readBatch: 200, throttleWritesPerSec: 5000, durationSeconds: 300 },
  ],
  [
    "pubsub-96vcpu-single-node",
    "pub/sub: 96 vCPU single node",
    { writers: 100, partitions: 30, consumerGroups: 5, writeBatch: 200, readBatch: 200, throttleWritesPerSec: 250000, durationSeconds: 120 },
  ],
] as const;

export const pubsub = defineWorkload({
  kind: "pubsub",
  title: "pub/sub",
  purpose: "Kafka-style log: partitions, consumer groups with offsets; every group reads every message",
  description: "Kafka-style log: partition tables, consumer groups with offsets, every group reads every message.",
  params: PubsubParams,
  fields: FIELDS,
  commandOrder: [
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
  ],
  defaultPresetId: "pubsub-defaults",
  presets: [
    {
      id: "pubsub-defaults",
      label: "pub/sub: reference tool defaults",
      description:
        "4 writers, 10 partitions, 1 group of 10 readers, batches 100/100, 1 KiB, unthrottled, 30 s. (The tool's own default of 4 readers with 10 partitions is rejected by the tool itself; readers follow partitions here.)",
      config: { kind: "pubsub" },
    },
    // 200 msg/s: the log keeps every message, so an hour at this rate is ~0.7 GiB of payload on the target. Batches
    // of 20 written: 10 a second, a pace to judge (100 a batch would be 2 a second).
    longRunPreset("pubsub", "pub/sub", "4 writers, 10 partitions, 1 group of 10 readers, 1 KiB, write batches of 20, throttled to 200 msg/s", {
      throttleWritesPerSec: 200,
      writeBatch: 20,
    }),
    ...PUBLISHED.map(([id, title, c]) => ({
      id,
      label: `${title} (published)`,
      description: `${c.writers} writers, ${c.partitions} partitions, ${c.consumerGroups} groups of ${c.partitions} readers, batches ${c.writeBatch}/${c.readBatch}, 1 KiB, throttled to ${c.throttleWritesPerSec.toLocaleString("en-US")} msg/s, ${c.durationSeconds.toLocaleString("en-US")} s.`,
      referenceId: id,
      config: { kind: "pubsub" as const, ...c, readers: c.partitions, payloadBytes: 1024 },
    })),
  ],
  describe: (c) => [
    plural(c.writers, "writer"),
    plural(c.partitions, "partition"),
    `${plural(c.consumerGroups, "consumer group")} of ${plural(c.readers, "reader")}`,
    `write batch ${c.writeBatch}`,
    `read batch ${c.readBatch}`,
    ...sharedParts(c),
  ],
  shortName: (c) => `pub/sub ${c.writers}w ${c.consumerGroups}g×${c.readers}r`,
  clients: (c) => c.writers + c.readers * c.consumerGroups,
  clientsFormula: "writers + readers × groups",
  // What runner.ts holds: a writer builds its whole batch as the bytea[] hex text of its Bind message (2 bytes
  // a byte) from a buffer of random bytes (1), and each refill makes every payload's hex text once more as a
  // short-lived string (up to 1 more, collected in steps); a reader holds a poll's rows as hex text strings (2),
  // and node-postgres' receive buffer doubles until one whole row fits (up to 4 payloads). Measured with
  // scripts/bench-memory.ts --payload-run (1 MiB payloads, 1 writer, 1 reader): write batch 40 and 80 added 3.5
  // payloads a message to the peak, read batch 20 and 40 2 a row, besides lib/workloads/memory.ts's fixed garbage allowance.
  // At scale this agrees with the report that asked for the budget: 1 writer × batch 50 × 10 MiB peaked at
  // 1.81 GB; 3.5 × 50 × 10 MiB + 64 MiB is 1,814 MiB, within 5% of it (the factor 4 rounds up: about 2 GiB).
  clientMemory: (c) => [
    {
      bytes: c.writers * c.writeBatch * c.payloadBytes * 4,
      words: `${plural(c.writers, "writer")} × write batch ${c.writeBatch.toLocaleString("en-US")} × ${fmtBytes(c.payloadBytes)} payload × 4 (the batch as hex text, 2 bytes a byte, its random bytes, and each payload's hex text while it is built)`,
      fields: ["payloadBytes", "writeBatch", "writers"],
    },
    {
      bytes: c.readers * c.consumerGroups * (c.readBatch * 2 + 4) * c.payloadBytes,
      words: `${plural(c.readers * c.consumerGroups, "reader")} × (read batch ${c.readBatch.toLocaleString("en-US")} × 2 + 4) × ${fmtBytes(c.payloadBytes)} payload (a poll's rows as hex text, and the driver's receive buffer)`,
      fields: ["payloadBytes", "readBatch", "partitions", "consumerGroups"],
    },
  ],
  clientMemoryFormula: "writers × write batch × payload × 4 + readers × groups × (read batch × 2 + 4) × payload",
  writeBatch: (c) => c.writeBatch,
  rateKnob: throttleKnob(),
  payloadBytes: (c) => c.payloadBytes,
  backoff: (c) => c.backoff,
  pacing: (c) => throttlePacing(c, "msg"),
  // Over N processes, part i owns partitions p with (p − 1) mod N = i: their writers and every group's reader of them.
  parts: {
    unit: "partition",
    field: "partitions",
    max: (c) => c.partitions,
    share: (c, part) => pubsubWritersOf(c, part).length / c.writers,
  },
  verifiedUnit: "message",
  pausable: "the readers",
  reconnects: "its writers and readers reconnect; a batch or a claim whose commit reply was lost is settled at verification",
  metrics: brokerMetrics({
    writeSample: "per batch",
    readSample: "per poll",
    readsPerGroup: true,
    backlogPlace: "per consumer group",
    readIncludesClaim: false,
    batchFlag: "read-batch",
  }),
  compareExtras: [
    {
      key: "readersTotal",
      label: "Readers in total",
      after: "readers",
      value: (c) => (typeof c.readers === "number" && typeof c.consumerGroups === "number" ? c.readers * c.consumerGroups : null),
    },
  ],
  referenceMode: "pubsub",
});
