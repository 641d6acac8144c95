// The queue, as the product knows it (browser-safe): its params, field table, presets and description. The
// SQL and loops are in runner.ts beside this (server-only).
import type { z } from "zod";
import {
  backoffField,
  brokerMetrics,
  byGroup,
  fmtBytes,
  paramsObject,
  plural,
  sharedFields,
  sharedParts,
  throttlePacing,
  throttleKnob,
  writersField,
} from "../fields";
import { longRunPreset } from "../../lib/workloads/long-run";
import { defineWorkload, ownedCount } from "../types";

const FIELDS = byGroup([
  writersField,
  {
    name: "readers",
    label: "Readers",
    hint: "clients dequeuing with SKIP LOCKED, one connection each",
    control: "int",
    min: 1,
    max: 1000,
    default: 4,
    group: "load",
    cli: { flag: "readers", help: "reader connections" },
    importFlag: "readers",
    compareLabel: "Readers",
  },
  backoffField,
  ...sharedFields,
  {
    // ALTER TABLE queue SET (autovacuum_vacuum_scale_factor = 0.01, …, fillfactor = 90), as the reference's flag.
    name: "tuneTableVacuum",
    label: "Tune table vacuum",
    hint: "autovacuum settings on the queue table, as the reference’s -tune-table-vacuum",
    control: "bool",
    default: false,
    group: "batches",
    cli: { flag: "tune-table-vacuum", help: "the reference's per-table autovacuum/fillfactor settings" },
    importFlag: "tune-table-vacuum",
    compareLabel: "Tuned table vacuum",
  },
]);

export const QueueParams = paramsObject("queue", FIELDS);
export type QueueConfig = z.output<typeof QueueParams>;

/** The published scenarios' exact client configs (fixtures/kozlovski/published-results.json, scenarios[].config). */
const PUBLISHED = [
  [
    "queue-4vcpu-single-node",
    "queue: 4 vCPU single node",
    { writers: 10, readers: 15, throttleWritesPerSec: 2900, durationSeconds: 1800, tuneTableVacuum: false },
  ],
  [
    "queue-4vcpu-three-node-sync-replicated",
    "queue: 4 vCPU 3-node sync-replicated",
    { writers: 10, readers: 15, throttleWritesPerSec: 2400, durationSeconds: 600, tuneTableVacuum: false },
  ],
  [
    "queue-96vcpu-single-node",
    "queue: 96 vCPU single node",
    { writers: 100, readers: 200, throttleWritesPerSec: 20000, durationSeconds: 120, tuneTableVacuum: true },
  ],
] as const;

export const queue = defineWorkload({
  kind: "queue",
  title: "queue",
  purpose: "Work queue: writers insert, readers claim with FOR UPDATE SKIP LOCKED and delete",
  description: "A work queue: readers take rows with SELECT … FOR UPDATE SKIP LOCKED and delete them.",
  params: QueueParams,
  fields: FIELDS,
  commandOrder: ["writers", "readers", "payloadBytes", "durationSeconds", "throttleWritesPerSec", "reportIntervalSeconds", "tuneTableVacuum"],
  defaultPresetId: "queue-defaults",
  presets: [
    {
      id: "queue-defaults",
      label: "queue: reference tool defaults",
      description: "4 writers, 4 readers, 1 KiB, unthrottled, 30 s.",
      config: { kind: "queue" },
    },
    longRunPreset("queue", "queue", "4 writers, 4 readers, 1 KiB, throttled to 1,000 msg/s", { throttleWritesPerSec: 1000 }),
    ...PUBLISHED.map(([id, title, c]) => ({
      id,
      label: `${title} (published)`,
      description: `${c.writers} writers, ${c.readers} readers, 1 KiB, throttled to ${c.throttleWritesPerSec.toLocaleString("en-US")} msg/s, ${c.durationSeconds.toLocaleString("en-US")} s${c.tuneTableVacuum ? ", tune-table-vacuum" : ""}.`,
      referenceId: id,
      config: { kind: "queue" as const, ...c, payloadBytes: 1024 },
    })),
  ],
  describe: (c) => [plural(c.writers, "writer"), plural(c.readers, "reader"), ...sharedParts(c), ...(c.tuneTableVacuum ? ["tuned table vacuum"] : [])],
  shortName: (c) => `queue ${c.writers}w/${c.readers}r`,
  clients: (c) => c.writers + c.readers,
  clientsFormula: "writers + readers",
  // What runner.ts holds: a writer keeps its payload (1 byte a byte), its hex text and the Bind message built
  // from it (2 + 2); a reader holds one row as hex text (2), node-postgres' receive buffer that doubles until
  // the row fits (up to 4) and the archive INSERT's serialised parameter (2). Measured with
  // scripts/bench-memory.ts --payload-run (1 MiB payloads): 4, 8 writers × 1 reader and 1 writer × 4, 8 readers
  // all peaked at 69-89 MiB above the start, i.e. within lib/workloads/memory.ts's fixed garbage allowance plus these
  // factors; a queue's peak is mostly that garbage (one row at a time), so the factors are the live set's.
  clientMemory: (c) => [
    {
      bytes: c.writers * c.payloadBytes * 5,
      words: `${plural(c.writers, "writer")} × ${fmtBytes(c.payloadBytes)} payload × 5 (the payload, its hex text and the message built from it)`,
      fields: ["payloadBytes", "writers"],
    },
    {
      bytes: c.readers * c.payloadBytes * 8,
      words: `${plural(c.readers, "reader")} × ${fmtBytes(c.payloadBytes)} payload × 8 (the row as hex text, the driver's receive buffer, the archive INSERT's parameter)`,
      fields: ["payloadBytes", "readers"],
    },
  ],
  clientMemoryFormula: "writers × payload × 5 + readers × payload × 8",
  // A queue writer inserts one row per transaction.
  rateKnob: throttleKnob(),
  payloadBytes: (c) => c.payloadBytes,
  backoff: (c) => c.backoff,
  pacing: (c) => throttlePacing(c, "msg"),
  // Over N processes, part i runs writers and readers i, i + N, …: a readers-only part carries no rate.
  parts: {
    unit: "writer or reader",
    field: "writers or readers",
    max: (c) => Math.max(c.writers, c.readers),
    share: (c, part) => ownedCount(c.writers, part) / c.writers,
  },
  verifiedUnit: "message",
  pausable: "the readers",
  reconnects: "its writers and readers reconnect; an insert or a dequeue whose reply was lost is settled at verification",
  metrics: brokerMetrics({ writeSample: "per insert", readSample: "per dequeue", readsPerGroup: false, backlogPlace: "in the queue", readIncludesClaim: true }),
  compareExtras: [{ key: "readersTotal", label: "Readers in total", after: "readers", value: (c) => (typeof c.readers === "number" ? c.readers : null) }],
  referenceMode: "queue",
});
