// Workload params: one Zod discriminated union on `kind`, parsed by the form, the API, the CLI and the
// runner alike, so a bad field gets the same message everywhere. Defaults are the reference tool's
// defaults (pg-queue-pubsub-benchmark main.go).
import { z } from "zod";

/**
 * What the user sees for each field: the New run form's label and unit. The schema's messages, the API's
 * `fields` answer and the CLI's errors all use these words, so "Measured duration must be at least 1 s" reads
 * the same everywhere (the CLI adds its flag name). Plain data: the browser, the server and the CLI import it.
 */
export const FIELD_TEXT = {
  writers: { label: "Writers" },
  partitions: { label: "Partitions" },
  consumerGroups: { label: "Consumer groups" },
  readers: { label: "Readers" },
  throttleWritesPerSec: { label: "Write limit", unit: "msg/s" },
  payloadBytes: { label: "Payload", unit: "bytes" },
  writeBatch: { label: "Write batch", unit: "msgs" },
  readBatch: { label: "Read batch", unit: "msgs" },
  warmupSeconds: { label: "Warm-up", unit: "s" },
  durationSeconds: { label: "Measured duration", unit: "s" },
  reportIntervalSeconds: { label: "CLI report interval", unit: "s" },
  tuneTableVacuum: { label: "Tune table vacuum" },
} as const satisfies Record<string, { label: string; unit?: string }>;
export type FieldName = keyof typeof FIELD_TEXT;

/** A pub/sub run's readers are per consumer group; a queue's are all of them. */
export function fieldLabel(name: FieldName, kind: "pubsub" | "queue"): string {
  return name === "readers" && kind === "pubsub" ? "Readers per group" : FIELD_TEXT[name].label;
}

/** "1,800 s", "1 msg", "100 msgs": a number as a message shows it, with the field's unit. */
function amount(n: number, unit: string | undefined): string {
  const v = n.toLocaleString("en-US");
  if (!unit) return v;
  return `${v} ${n === 1 && (unit === "msgs" || unit === "bytes") ? unit.slice(0, -1) : unit}`;
}

/**
 * A whole-number field. Absent (undefined) takes the default where there is one; anything present must be
 * usable: a blank or non-numeric value is refused, never replaced by the default the user did not see.
 */
const int = (label: string, unit: string | undefined, min: number, max: number) =>
  z
    .number({
      error: (iss) =>
        iss.input === null || (typeof iss.input === "string" && iss.input.trim() === "")
          ? `${label} is required: enter a whole number`
          : typeof iss.input === "string"
            ? `${label} must be a whole number, not "${iss.input}"`
            : `${label} must be a whole number`,
    })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be at least ${amount(min, unit)}`)
    .max(max, `${label} must be at most ${amount(max, unit)}`);
const intField = (name: FieldName, min: number, max: number, kind?: "pubsub" | "queue") =>
  int(kind ? fieldLabel(name, kind) : FIELD_TEXT[name].label, (FIELD_TEXT[name] as { unit?: string }).unit, min, max);

/** Fields both workloads share. Durations are seconds. */
const common = {
  writers: intField("writers", 1, 1000).default(4),
  payloadBytes: intField("payloadBytes", 1, 10 * 1024 * 1024).default(1024),
  /** Length of the measured window. The summary covers exactly this window. */
  durationSeconds: intField("durationSeconds", 1, 24 * 3600).default(30),
  /** Load runs this long before the measured window starts; excluded from the summary. (Not in the reference.) */
  warmupSeconds: intField("warmupSeconds", 0, 3600).default(5),
  /** Global write limit in messages/s; 0 = unlimited. Unlike the reference, there is no start-up burst. */
  throttleWritesPerSec: intField("throttleWritesPerSec", 0, 10_000_000).default(0),
  /** Interval of the CLI's live line (samples are always taken every second). */
  reportIntervalSeconds: intField("reportIntervalSeconds", 1, 3600).default(5),
};

/**
 * A check across fields runs whenever those fields are valid on their own, even when others are not, so
 * every bad field is reported at once (Zod's default skips object checks once any field failed).
 */
const whenValid = (...fields: string[]) => ({
  when: (payload: { issues: readonly { path?: readonly PropertyKey[] }[] }) =>
    !payload.issues.some((i) => i.path?.length && fields.includes(String(i.path[0]))),
});

/** Unknown fields are refused (a misspelt "writer" must not launch the default writers unnoticed);
 *  fieldErrors puts the message under each unknown name. */
const strictError = (kind: "pubsub" | "queue") => (iss: { code?: string }) =>
  iss.code === "unrecognized_keys"
    ? `is not a field of a ${kind} workload (its fields: kind, ${Object.keys(kind === "pubsub" ? PUBSUB_SHAPE : QUEUE_SHAPE).filter((k) => k !== "kind").join(", ")})`
    : undefined;

const PUBSUB_SHAPE = {
  kind: z.literal("pubsub"),
  ...common,
  /** Readers per consumer group. The reference pins one reader per partition per group, so it must equal
   *  partitions; left out, it is derived from partitions (the form never asks for it). */
  readers: intField("readers", 1, 1000, "pubsub").optional(),
  consumerGroups: intField("consumerGroups", 1, 100).default(1),
  partitions: intField("partitions", 1, 1000).default(10),
  writeBatch: intField("writeBatch", 1, 100_000).default(100),
  readBatch: intField("readBatch", 1, 100_000).default(100),
};

const QUEUE_SHAPE = {
  kind: z.literal("queue"),
  ...common,
  readers: intField("readers", 1, 1000, "queue").default(4),
  /** ALTER TABLE queue SET (autovacuum_vacuum_scale_factor = 0.01, …, fillfactor = 90), as the reference's flag. */
  tuneTableVacuum: z.boolean({ error: `${FIELD_TEXT.tuneTableVacuum.label} must be true or false` }).default(false),
};

export const PubsubParams = z
  .strictObject(PUBSUB_SHAPE, { error: strictError("pubsub") })
  .superRefine((p, ctx) => {
    if (p.readers !== undefined && p.readers !== p.partitions)
      ctx.addIssue({
        code: "custom",
        path: ["readers"],
        message: `${fieldLabel("readers", "pubsub")} (${p.readers}) must equal ${FIELD_TEXT.partitions.label} (${p.partitions}): each consumer group has exactly one reader per partition, as in the reference tool. Set readers to ${p.partitions}, or leave it out to follow partitions`,
      });
  }, whenValid("readers", "partitions"))
  .superRefine((p, ctx) => {
    // The write limit must let a whole batch through (a queue writer sends one row at a time).
    if (p.throttleWritesPerSec > 0 && p.throttleWritesPerSec < p.writeBatch)
      ctx.addIssue({
        code: "custom",
        path: ["throttleWritesPerSec"],
        message: `${FIELD_TEXT.throttleWritesPerSec.label} (${amount(p.throttleWritesPerSec, "msg/s")}) is below ${FIELD_TEXT.writeBatch.label} (${amount(p.writeBatch, "msgs")}): a whole batch could never be sent (the reference tool's writers silently stop in this case). Raise the write limit or lower the write batch`,
      });
  }, whenValid("throttleWritesPerSec", "writeBatch"))
  .transform((p) => ({ ...p, readers: p.readers ?? p.partitions }));

export const QueueParams = z.strictObject(QUEUE_SHAPE, { error: strictError("queue") });

export const WorkloadConfig = z.discriminatedUnion("kind", [PubsubParams, QueueParams], {
  error: (iss) => (iss.code === "invalid_union" ? 'kind must be "pubsub" or "queue"' : undefined),
});
export type WorkloadConfig = z.output<typeof WorkloadConfig>;
export type WorkloadInput = z.input<typeof WorkloadConfig>;
export type PubsubConfig = Extract<WorkloadConfig, { kind: "pubsub" }>;
export type QueueConfig = Extract<WorkloadConfig, { kind: "queue" }>;
export type WorkloadKind = WorkloadConfig["kind"];
export const WORKLOAD_KINDS = ["pubsub", "queue"] as const;

/** Connections a run opens against the target (one per client, as the reference), plus one for setup/monitoring. */
export function connectionsNeeded(c: WorkloadConfig): number {
  const clients = c.kind === "pubsub" ? c.writers + c.readers * c.consumerGroups : c.writers + c.readers;
  return clients + 1;
}

/** Longest drain after the measured window (writers stopped, readers catch up); runner/engine.ts uses it. */
export const MAX_DRAIN_SECONDS = 10;

/** The time a run loads its target, at most: warm-up + measured window + the longest drain. Setup and
 *  verification come on top; they depend on the target, so no figure is claimed for them. */
export function loadSecondsAtMost(c: Pick<WorkloadConfig, "warmupSeconds" | "durationSeconds">): number {
  return c.warmupSeconds + c.durationSeconds + MAX_DRAIN_SECONDS;
}

/** Runs that may load the target longer than this are confirmed before launch (the form asks). */
export const LONG_RUN_SECONDS = 5 * 60;
/** The measured window offered instead of a preset's long one: the same shape, a quick first look. */
export const SHORT_WINDOW_SECONDS = 60;

/** Field errors as { "writers": "Writers must …" } for forms and 400 responses: every bad field at once. */
export function fieldErrors(err: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of err.issues) {
    // An unknown field's message goes under its own name, so a client sees which key was refused.
    if (i.code === "unrecognized_keys") for (const k of i.keys) out[[...i.path, k].join(".")] ??= `"${k}" ${i.message}`;
    else out[i.path.join(".") || "_"] ??= i.message;
  }
  return out;
}

export function parseConfig(input: unknown): { ok: true; config: WorkloadConfig } | { ok: false; errors: Record<string, string> } {
  const r = WorkloadConfig.safeParse(input);
  return r.success ? { ok: true, config: r.data } : { ok: false, errors: fieldErrors(r.error) };
}

export interface Preset {
  id: string;
  label: string;
  description: string;
  /** The published scenario this preset reproduces (lib/references.ts), if any. */
  referenceId?: string;
  config: WorkloadInput;
}

/** Presets: the reference tool's defaults and each published scenario's exact client config
 *  (fixtures/kozlovski/published-results.json, scenarios[].config). */
export const PRESETS: Preset[] = [
  {
    id: "pubsub-defaults",
    label: "pub/sub: reference tool defaults",
    description:
      "4 writers, 10 partitions, 1 group of 10 readers, batches 100/100, 1 KiB, unthrottled, 30 s. (The tool's own default of 4 readers with 10 partitions is rejected by the tool itself; readers follow partitions here.)",
    config: { kind: "pubsub" },
  },
  {
    id: "queue-defaults",
    label: "queue: reference tool defaults",
    description: "4 writers, 4 readers, 1 KiB, unthrottled, 30 s.",
    config: { kind: "queue" },
  },
  ...(
    [
      ["pubsub-4vcpu-single-node", "pub/sub: 4 vCPU single node", { writers: 10, partitions: 4, consumerGroups: 5, writeBatch: 100, readBatch: 200, throttleWritesPerSec: 5000, durationSeconds: 120 }],
      ["pubsub-4vcpu-three-node-sync-replicated", "pub/sub: 4 vCPU 3-node sync-replicated", { writers: 10, partitions: 4, consumerGroups: 5, writeBatch: 100, readBatch: 200, throttleWritesPerSec: 5000, durationSeconds: 300 }],
      ["pubsub-96vcpu-single-node", "pub/sub: 96 vCPU single node", { writers: 100, partitions: 30, consumerGroups: 5, writeBatch: 200, readBatch: 200, throttleWritesPerSec: 250000, durationSeconds: 120 }],
    ] as const
  ).map(([id, label, c]): Preset => ({
    id,
    label: `${label} (published)`,
    description: `${c.writers} writers, ${c.partitions} partitions, ${c.consumerGroups} groups of ${c.partitions} readers, batches ${c.writeBatch}/${c.readBatch}, 1 KiB, throttled to ${c.throttleWritesPerSec.toLocaleString("en-US")} msg/s, ${c.durationSeconds} s.`,
    referenceId: id,
    config: { kind: "pubsub", ...c, readers: c.partitions, payloadBytes: 1024 },
  })),
  ...(
    [
      ["queue-4vcpu-single-node", "queue: 4 vCPU single node", { writers: 10, readers: 15, throttleWritesPerSec: 2900, durationSeconds: 1800, tuneTableVacuum: false }],
      ["queue-4vcpu-three-node-sync-replicated", "queue: 4 vCPU 3-node sync-replicated", { writers: 10, readers: 15, throttleWritesPerSec: 2400, durationSeconds: 600, tuneTableVacuum: false }],
      ["queue-96vcpu-single-node", "queue: 96 vCPU single node", { writers: 100, readers: 200, throttleWritesPerSec: 20000, durationSeconds: 120, tuneTableVacuum: true }],
    ] as const
  ).map(([id, label, c]): Preset => ({
    id,
    label: `${label} (published)`,
    description: `${c.writers} writers, ${c.readers} readers, 1 KiB, throttled to ${c.throttleWritesPerSec.toLocaleString("en-US")} msg/s, ${c.durationSeconds} s${c.tuneTableVacuum ? ", tune-table-vacuum" : ""}.`,
    referenceId: id,
    config: { kind: "queue", ...c, payloadBytes: 1024 },
  })),
];

export function presetById(id: string): Preset | undefined {
  return PRESETS.find((p) => p.id === id);
}
