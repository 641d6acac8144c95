// Workload params: one Zod discriminated union on `kind`, parsed by the form, the API, the CLI and the
// runner alike, so a bad field gets the same message everywhere. Defaults are the reference tool's
// defaults (pg-queue-pubsub-benchmark main.go).
import { z } from "zod";

const int = (field: string, min: number, max: number) =>
  z
    .number({ error: `${field} must be a number` })
    .int(`${field} must be a whole number`)
    .min(min, `${field} must be at least ${min}`)
    .max(max, `${field} must be at most ${max}`);

/** The readers' back-off after an empty poll (runner/timing.ts Backoff). */
export const BACKOFF_MODES = ["reference-effective", "nominal"] as const;
export type BackoffMode = (typeof BACKOFF_MODES)[number];
export const BACKOFF_LABELS: Record<BackoffMode, { label: string; description: string }> = {
  "reference-effective": {
    label: "as the reference really sleeps",
    description:
      "the reference tool's sleeps as they really run on Linux: its 200 µs and 100 µs–2 ms sleeps take whole ~1.1 ms ticks, and its jitter's sign bug makes about half the pub/sub back-offs zero; puts the same polling load on the target as the reference",
  },
  nominal: {
    label: "nominal (as its code asks)",
    description: "what the reference's code asks for: 200 µs on average after an empty dequeue, a uniform 100 µs–2 ms after an empty claim (no sign bug); polls the target several times more often than the reference did",
  },
};

/** Fields both workloads share. Durations are seconds. */
const common = {
  writers: int("writers", 1, 1000).default(4),
  payloadBytes: int("payloadBytes", 1, 10 * 1024 * 1024).default(1024),
  /** Length of the measured window. The summary covers exactly this window. */
  durationSeconds: int("durationSeconds", 1, 24 * 3600).default(30),
  /** Load runs this long before the measured window starts; excluded from the summary. (Not in the reference.) */
  warmupSeconds: int("warmupSeconds", 0, 3600).default(5),
  /** Global write limit in messages/s; 0 = unlimited. Unlike the reference, there is no start-up burst. */
  throttleWritesPerSec: int("throttleWritesPerSec", 0, 10_000_000).default(0),
  /** Interval of the CLI's live line (samples are always taken every second). */
  reportIntervalSeconds: int("reportIntervalSeconds", 1, 3600).default(5),
  /** Readers' back-off after an empty poll: BACKOFF_LABELS. */
  backoff: z.enum(BACKOFF_MODES, { error: `backoff must be one of ${BACKOFF_MODES.map((m) => `"${m}"`).join(", ")}` }).default("reference-effective"),
};

export const PubsubParams = z
  .object({
    kind: z.literal("pubsub"),
    ...common,
    /** Readers per consumer group. The reference pins one reader per partition per group, so it must equal partitions. */
    readers: int("readers", 1, 1000).optional(),
    consumerGroups: int("consumerGroups", 1, 100).default(1),
    partitions: int("partitions", 1, 1000).default(10),
    writeBatch: int("writeBatch", 1, 100_000).default(100),
    readBatch: int("readBatch", 1, 100_000).default(100),
  })
  .transform((p) => ({ ...p, readers: p.readers ?? p.partitions }))
  .superRefine((p, ctx) => {
    if (p.readers !== p.partitions)
      ctx.addIssue({
        code: "custom",
        path: ["readers"],
        message: `readers (per consumer group) must equal partitions: each group has exactly one reader per partition, as in the reference tool. Set readers to ${p.partitions}, or partitions to ${p.readers}`,
      });
    if (p.throttleWritesPerSec > 0 && p.throttleWritesPerSec < p.writeBatch)
      ctx.addIssue({
        code: "custom",
        path: ["throttleWritesPerSec"],
        message: `throttleWritesPerSec (${p.throttleWritesPerSec}) is below writeBatch (${p.writeBatch}): a whole batch could never be sent (the reference tool's writers silently stop in this case). Raise the throttle or lower writeBatch`,
      });
  });

export const QueueParams = z.object({
  kind: z.literal("queue"),
  ...common,
  readers: int("readers", 1, 1000).default(4),
  /** ALTER TABLE queue SET (autovacuum_vacuum_scale_factor = 0.01, …, fillfactor = 90), as the reference's flag. */
  tuneTableVacuum: z.boolean({ error: "tuneTableVacuum must be true or false" }).default(false),
});

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

/** Field errors as { "readers": "readers must …" } for forms and 400 responses. */
export function fieldErrors(err: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of err.issues) {
    const key = i.path.join(".") || "_";
    out[key] ??= i.message;
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
