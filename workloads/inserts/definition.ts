// DBOS's raw point inserts (browser-safe): one row per transaction into a three-column table with a UUIDv7
// key, on a fixed timetable, as benchmarks/postgres_insert.py: the upper bound on single-table commits.
import type { z } from "zod";
import { DBOS_INSERTS_144K } from "../dbos/published";
import { connectionParts, connectionsField, openLoopPacing, openLoopKnob, rateField, timingFields, timingParts } from "../dbos/fields";
import { paramsObject, plural, fieldTable } from "../fields";
import { defineWorkload } from "../types";

const FIELDS = fieldTable([
  rateField("inserts", "inserts started"),
  connectionsField,
  {
    name: "batchSize",
    label: "Batch",
    unit: "inserts",
    hint: "sequential inserts per scheduled batch, one connection; its latency is the study's",
    control: "int",
    min: 1,
    max: 1000,
    default: 10,
    group: "batches",
    cli: { flag: "batch-size", ours: true, help: "sequential inserts per scheduled batch (the study's --batch-size, 10)" },
    compareLabel: "Inserts per batch",
  },
  ...timingFields,
]);

export const InsertsParams = paramsObject("inserts", FIELDS);
export type InsertsConfig = z.output<typeof InsertsParams>;

export const inserts = defineWorkload({
  kind: "inserts",
  title: "inserts",
  purpose: "Point inserts, one row per transaction on a fixed timetable: the commit ceiling",
  description: "DBOS's raw point inserts: one row per transaction, UUIDv7 keys, on a fixed timetable; drain time > 0 means the database could not keep up.",
  params: InsertsParams,
  fields: FIELDS,
  defaultPresetId: "inserts-defaults",
  presets: [
    {
      id: "inserts-defaults",
      label: "inserts: the study's README example",
      description: "1,000 inserts/s in batches of 10, 32 connections, 30 s.",
      config: { kind: "inserts" },
    },
    {
      id: "inserts-144k",
      label: "inserts: 144K/s (published)",
      description: "The published rate, 144,000 inserts/s, over 512 connections (16 processes × 32): far beyond a small machine; the drain time says how far.",
      referenceId: DBOS_INSERTS_144K.id,
      config: { kind: "inserts", rate: 144_000, connections: 512 },
    },
  ],
  describe: (c) => [`${c.rate.toLocaleString("en-US")} inserts/s`, plural(c.connections, "connection"), `batches of ${c.batchSize}`, ...timingParts(c)],
  shortName: (c) => `inserts ${c.rate.toLocaleString("en-US")}/s`,
  clients: (c) => c.connections,
  clientsFormula: "connections",
  // One ~46-byte row's values per connection in flight: the schedule itself is arithmetic (nothing queued).
  clientMemory: (c) => [{ bytes: c.connections * 256, words: `${plural(c.connections, "connection")} × one insert's values`, fields: ["connections"] }],
  clientMemoryFormula: "connections × 256 bytes",
  // A whole batch of inserts is due at one scheduled time, so window counts move by a batch (the ceiling's tolerance).
  writeBatch: (c) => c.batchSize,
  rateKnob: openLoopKnob(),
  parts: connectionParts(),
  pacing: (c) => openLoopPacing(c, "row", "write"),
  verifiedUnit: "row",
  reconnects: "its connections reconnect; an insert whose reply was lost is settled at verification by its id",
  metrics: {
    operations: [
      {
        name: "write",
        label: "insert",
        unit: "row",
        rate: true,
        latency: true,
        errors: true,
        latencySample: "per insert, from its send",
        chart: { title: "Insert latency", hint: "per insert (one transaction), from its send" },
        scheduled: { name: "writeScheduled", label: "insert from schedule" },
      },
      {
        name: "batch",
        label: "batch",
        unit: "batch",
        rate: false,
        latency: true,
        errors: true,
        latencySample: "per batch of sequential inserts, from its scheduled time (the study's latency)",
      },
    ],
  },
  published: [DBOS_INSERTS_144K],
});
