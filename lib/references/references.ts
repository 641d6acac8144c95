// References: the six published scenarios of "Kafka is Fast -- I'll use Postgres" (Stanislav Kozlovski,
// pg-queue-pubsub-benchmark), as data. A reference is always labelled "published" and never mixed up with a
// measured run. The figures live in lib/references/references.data.json, generated from the published dataset (fixtures/kozlovski/published-results.json) by
// scripts/gen-references.ts; lib/references/references.test.ts checks every one of them against that dataset.
// The caveats below are documented by the author or found by reading the tool's source.
import { z } from "zod";
import raw from "./references.data.json";
import { budgetProblem, type ScopedLimit } from "../targets/capacity";
import { readsPerGroup } from "../measurement/operations";
import { pacingOf, presetById, ToolWorkload, throttlePerSecond, WorkloadConfig, workloadDefinition } from "../workloads/config";

const Triple = z.object({ p50: z.number(), p95: z.number(), p99: z.number() });
export type LatencyTriple = z.infer<typeof Triple>;
/** A Go time.Duration exactly as the tool printed it ("5.267455ms") and its value in ms. */
const RawDuration = z.object({ raw: z.string(), ms: z.number() });
const RawTriple = z.object({ p50: RawDuration, p95: RawDuration, p99: RawDuration });
const Counts = z.object({ total: z.number().int(), errors: z.number().int(), msgPerSec: z.number() });

export const ReferenceRun = z.object({
  run: z.number().int(),
  source: z.string(),
  sourceLines: z.tuple([z.number().int(), z.number().int()]),
  command: z.string(),
  durationSeconds: z.number(),
  writes: Counts,
  reads: Counts,
  /** pubsub: write from the base summary, read/e2e from "Aggregate Across All Groups"; queue: the summary. */
  latencyMs: z.object({ write: RawTriple, read: RawTriple, e2e: RawTriple }),
  groups: z.array(
    z.object({
      group: z.number().int(),
      reads: z.number().int(),
      readErrors: z.number().int(),
      claimErrors: z.number().int(),
      emptyClaims: z.number().int(),
      avgPollSize: z.number(),
      msgPerSec: z.number(),
      latencyMs: z.object({ read: RawTriple, e2e: RawTriple }),
    }),
  ),
});
export type ReferenceRun = z.infer<typeof ReferenceRun>;

const Settings = z.record(z.string(), z.string());

export const Caveat = z.object({
  /** "author": documented by the benchmark's author; "found": found in its code or logs (`source` says where). */
  by: z.enum(["author", "found"]),
  text: z.string(),
  source: z.string().optional(),
});
export type Caveat = z.infer<typeof Caveat>;

export const Reference = z.object({
  id: z.string(),
  workload: ToolWorkload,
  title: z.string(),
  source: z.string(),
  otherSources: z.array(z.string()),
  server: z.object({
    instance: z.string(),
    vcpu: z.number().int(),
    ramGib: z.number(),
    disk: z.string(),
    os: z.string(),
    az: z.string(),
    cpuUsage: z.string(),
    notes: z.array(z.string()),
  }),
  replicas: z.array(z.object({ name: z.string(), instance: z.string(), disk: z.string(), role: z.string(), az: z.string() })),
  client: z.object({ instance: z.string(), az: z.string(), notes: z.array(z.string()) }),
  nodes: z.number().int(),
  replication: z.object({ type: z.string(), synchronousStandbyNames: z.string(), description: z.string().nullable() }).nullable(),
  postgres: z.object({
    version: z.number().int(),
    settings: z.string(),
    settingsChanged: Settings,
    fullSettingsList: Settings.nullable(),
    replicaSettings: Settings.nullable(),
    kernel: Settings.nullable(),
    tableSettings: z.array(z.string()),
    notes: z.array(z.string()),
  }),
  /** The client config, in our WorkloadConfig's field names (pubsub `readers` = per consumer group). */
  config: z.object({
    kind: ToolWorkload,
    writers: z.number().int(),
    readers: z.number().int(),
    readersTotal: z.number().int(),
    consumerGroups: z.number().int().nullable(),
    partitions: z.number().int().nullable(),
    writeBatch: z.number().int().nullable(),
    readBatch: z.number().int().nullable(),
    payloadBytes: z.number().int(),
    durationSeconds: z.number(),
    throttleWritesPerSec: z.number(),
    reportInterval: z.string(),
    tuneTableVacuum: z.boolean().nullable(),
    runs: z.number().int(),
    notes: z.array(z.string()),
  }),
  command: z.string(),
  /** The averaged numbers as the author published them (mean of the runs' final numbers, rounded). */
  headline: z.object({
    source: z.string(),
    aggregation: z.string(),
    writeMsgPerSec: z.number(),
    writeMiBPerSec: z.number(),
    readMsgPerSec: z.number(),
    readMiBPerSec: z.number(),
    readGiBPerSec: z.number().nullable(),
    writeAsPublished: z.string().nullable(),
    readAsPublished: z.string().nullable(),
    latencyMs: z.object({ write: Triple, read: Triple, e2e: Triple }),
    cpu: z.string(),
    bottleneck: z.string().nullable(),
    readFanout: z.number().int().nullable(),
    e2eFlag: z.string().nullable(),
  }),
  /** The same means recomputed from the per-run numbers, unrounded (they confirm the headline). */
  computedFromRuns: z.object({
    source: z.string(),
    writeMsgPerSec: z.number(),
    readMsgPerSec: z.number(),
    writeMiBPerSec: z.number(),
    readMiBPerSec: z.number(),
    latencyMs: z.object({ write: Triple, read: Triple, e2e: Triple }),
  }),
  runs: z.array(ReferenceRun),
  notes: z.array(z.string()),
  caveats: z.array(Caveat),
});
export type Reference = z.infer<typeof Reference>;

export const REFERENCE_REPO = raw.repo;
export const REFERENCE_COMMIT = raw.commit;
/** "https://topicpartition.io/blog/…" (the article), without the title that follows it in the dataset. */
export const REFERENCE_ARTICLE_URL = raw.article.split(" ")[0];
export const REFERENCE_ARTICLE_TITLE = "Kafka is Fast -- I'll use Postgres (Stanislav Kozlovski)";
export const REFERENCE_GLOBAL_CONTEXT = raw.globalContext;

/** Link to a file of the benchmark's repository at the exact commit the data was taken from. */
export function sourceUrl(file: string): string {
  const [p, anchor] = file.split("#");
  return `https://github.com/${REFERENCE_REPO}/blob/${REFERENCE_COMMIT}/${p}${anchor ? `#${anchor}` : ""}`;
}

const IMPERFECTIONS = "results/queue/IMPERFECTIONS.md";

/** Caveats that hold for every scenario. */
const COMMON_CAVEATS: Caveat[] = [
  {
    by: "found",
    text: "Rates are total messages divided by the configured duration, and that clock starts before table setup; there is no warm-up: percentiles cover the whole run including start-up and shutdown.",
    source: "common/base_summary_printer.go L38-42; main.go L69",
  },
  {
    by: "found",
    text: "The write throttle is a token bucket whose burst equals one second of writes, so a second's worth of messages goes out at t=0 (why 5,037 msg/s was published for a 5,000 msg/s limit), adding a start-up backlog.",
    source: "main.go L53-57",
  },
  {
    by: "found",
    text: "End-to-end latency is the reader's client clock minus the server's now() at the writer's transaction start: two clocks on two machines, no offset correction.",
    source: "the tool's tables: created_at DEFAULT now(), read against the reader's clock",
  },
  {
    by: "author",
    text: "The author says he is not a Postgres expert, expects mistakes, and used ChatGPT for the tuning configs.",
    source: "README.md",
  },
];

const PUBSUB_CAVEATS: Caveat[] = [
  {
    by: "found",
    text: 'Read latency ("claim txn") excludes the claim statement; write latency is one sample per batch, read latency one per non-empty poll, e2e one per message.',
    source: "pubsub/reader.go L138-176; pubsub/writer.go L87-90",
  },
  {
    by: "found",
    text: "Every empty poll commits an UPDATE of consumer_offsets (a WAL flush), and the back-off jitter has a sign bug that makes about half the sleeps zero: a busy-polling load that writes.",
    source: "pubsub/reader.go L129-135, L179-193",
  },
];

const QUEUE_CAVEATS: Caveat[] = [
  {
    by: "author",
    text: 'End-to-end p95/p99 are inflated: writers get a head start, so a start-up backlog (16,622 messages in the first 5 s of the 96 vCPU run) is drained at the start of every run. The author: "the real number is likely significantly lower".',
    source: IMPERFECTIONS,
  },
  {
    by: "author",
    text: 'Unthrottled writes outpace reads (~14 MB/s vs ~4 MB/s); writes were throttled "haphazardly" to keep reads 1:1, not investigated.',
    source: "results/queue/README.md",
  },
  {
    by: "found",
    text: "Write latency includes failed inserts; empty polls and SELECT errors are not counted; created_at is TIMESTAMP without time zone, so e2e is only right when the server's TimeZone is UTC.",
    source: "queue/queue_runner.go L72-193",
  },
];

/** The tool's caveats per workload, by its `-mode` name (the same as our kind for the tool's workloads). */
const WORKLOAD_CAVEATS: Record<string, Caveat[]> = { pubsub: PUBSUB_CAVEATS, queue: QUEUE_CAVEATS };

const SPECIFIC_CAVEATS: Record<string, Caveat[]> = {
  "pubsub-4vcpu-single-node": [
    {
      by: "author",
      text: 'A ~5 MB/s write workload wrote ~20 MB/s to disk; the author "can\'t explain it".',
      source: "results/pubsub/4vcpu/single_node/4vcpu.md",
    },
    {
      by: "found",
      text: "The run logs come from a build without the 1 s reader start-up sleep that the other pubsub logs show.",
      source: "results/pubsub/4vcpu/single_node/runs.md",
    },
  ],
  "pubsub-4vcpu-three-node-sync-replicated": [
    { by: "author", text: 'The replica setup commands "may be slightly different" from what actually ran.', source: "results/queue/4vcpu/three_node/pg2.md" },
    {
      by: "found",
      text: "The htop screenshot of this test shows 25 backends from the queue client's host (queue-shaped), so it may belong to another test.",
      source: "results/pubsub/4vcpu/three_node/htop.png",
    },
  ],
  "pubsub-96vcpu-single-node": [
    {
      by: "found",
      text: 'Throughput is published rounded ("243k", "1.2M msg/s"); the documents disagree on readers (200 written, 150 ran) and RAM (192 GiB vs 128 GB).',
      source: "results/pubsub/96vcpu/single_node/96vcpu.md",
    },
    {
      by: "found",
      text: "Tuned server (shared_buffers 48GB, huge pages, max_wal_size 192GB, synchronous_commit=remote_write) on a 96 vCPU machine that ran at ~10% CPU.",
      source: "results/pubsub/96vcpu/single_node/modified_postgresql.conf",
    },
  ],
  "queue-4vcpu-single-node": [
    {
      by: "found",
      text: 'Titled "2x 15-min tests" but both logged runs used --duration=1800s (30 min); the author\'s explanation of the read limit (15 × 185 msg/s = 3145) does not add up (it is 2775).',
      source: "results/queue/4vcpu/single_node/4vcpu.md",
    },
    {
      by: "author",
      text: "~2.85 MB/s of queue writes became ~18 MB/s on disk; the author can't explain the amplification.",
      source: "results/queue/4vcpu/single_node/4vcpu.md",
    },
  ],
  "queue-4vcpu-three-node-sync-replicated": [
    { by: "author", text: "The e2e p99 of 920 ms is flagged as inflated by the start-up backlog.", source: IMPERFECTIONS },
    {
      by: "found",
      text: "Backlog spikes also happen mid-run (2,309 and 2,400 messages, about 1 s of delay each), so start-up alone does not explain the e2e p95 of 536 ms. A single run.",
      source: "results/queue/4vcpu/three_node/run.md",
    },
    { by: "author", text: 'The replica setup commands "may be slightly different" from what actually ran.', source: "results/queue/4vcpu/three_node/pg2.md" },
  ],
  "queue-96vcpu-single-node": [
    {
      by: "author",
      text: "The e2e p99 of 930.09 ms is flagged as inflated by the start-up backlog (16,622 queued in the first 5 s, then mostly under 430).",
      source: IMPERFECTIONS,
    },
    {
      by: "found",
      text: "Tuned server (shared_buffers 48GB, huge pages, synchronous_commit=remote_write) plus --tune-table-vacuum on the queue table.",
      source: "results/queue/96vcpu/single_node/modified_postgresql.conf",
    },
  ],
};

export const REFERENCES: Reference[] = raw.scenarios.map((s) =>
  Reference.parse({
    ...s,
    caveats: [...(SPECIFIC_CAVEATS[s.id] ?? []), ...(WORKLOAD_CAVEATS[s.workload] ?? []), ...COMMON_CAVEATS],
  }),
);

export function referenceById(id: string): Reference | undefined {
  return REFERENCES.find((r) => r.id === id);
}

/** Short human label: "pub/sub · 4 vCPU single node". */
export function referenceLabel(r: Reference): string {
  const size = r.nodes > 1 ? `${r.server.vcpu} vCPU ${r.nodes}-node sync-replicated` : `${r.server.vcpu} vCPU single node`;
  return `${workloadDefinition(r.workload)?.title ?? r.workload} · ${size}`;
}

/** What the scenario measured, in one sentence (for /references). */
export function referenceSummary(r: Reference): string {
  const c = r.config;
  const clients = readsPerGroup(r.workload)
    ? `${c.writers} writers into ${c.partitions} partitions (batches of ${c.writeBatch}), ${c.consumerGroups} consumer groups × ${c.readers} readers (read batch ${c.readBatch})`
    : `${c.writers} writers and ${c.readers} readers on one SKIP LOCKED queue table`;
  return `${clients}, ${c.payloadBytes} B payloads, writes throttled to ${c.throttleWritesPerSec.toLocaleString("en-US")} msg/s, ${c.durationSeconds} s per run, ${c.runs} run${c.runs > 1 ? "s" : ""} averaged.`;
}

/** The preset of lib/workloads/config.ts that reproduces this scenario (same id). */
export function referencePresetId(r: Reference): string | undefined {
  return presetById(r.id)?.id;
}

/**
 * The reference's client config as our WorkloadConfig: every field of its workload's field table that the
 * scenario sets (null: the tool's workload has no such knob), the rest at our defaults. The reference has no
 * warm-up, so warmupSeconds = 0.
 */
export function referenceWorkload(r: Reference): WorkloadConfig {
  const c = r.config as Record<string, unknown>;
  const input: Record<string, unknown> = { kind: r.config.kind };
  for (const f of workloadDefinition(r.config.kind)?.fields ?? []) if (c[f.name] !== undefined && c[f.name] !== null) input[f.name] = c[f.name];
  return WorkloadConfig.parse({ ...input, warmupSeconds: 0 });
}

/** What we know about the server a run would go to (GET /api/references/:id/fit fills it from the target). */
export interface ServerFacts {
  maxConnections: number;
  /** superuser_reserved_connections + reserved_connections (PG 16+). */
  reservedConnections: number;
  /** Backends connected right now (pg_stat_activity), the runner's own future ones excluded. */
  connectionsInUse: number;
  /** The role's and the database's CONNECTION LIMIT, when one applies (lib/targets/capacity.ts). */
  role?: ScopedLimit;
  database?: ScopedLimit;
  /** CPU cores of the machine the runner uses (and the embedded Postgres, when the target is the default). */
  cores?: number;
  memoryGiB?: number;
  targetIsEmbedded?: boolean;
  /** The target is the embedded replicated one: its nodes (primary and standbys, on this one host) and the delay added each way. */
  replicated?: { nodes: number; delayMs?: number };
}

export interface FitWarning {
  /** The config field the warning is about, when there is one (so a form can put it beside the field). */
  field?: string;
  severity: "blocker" | "warn";
  text: string;
}

/** How the published run's replication compares with the target's: none at all, or its nodes on one host. */
function replicationFit(ref: Reference, server: ServerFacts): string {
  const published = `The published run committed through synchronous replication (${ref.replication!.synchronousStandbyNames}, ${ref.nodes} nodes across zones)`;
  const r = server.replicated;
  if (!r) return `${published}; a single-node target will not pay that cost.`;
  const network = r.delayMs ? `a relay adds ${r.delayMs} ms each way between them` : "no network between them";
  return `${published}; here ${r.nodes} nodes share one host with ${network}, so a commit waits for a standby without the cross-zone round trip.`;
}

/**
 * Why `config` (usually a reference's, maybe edited) may not fit this server. "blocker": the run would fail
 * (not enough connections); "warn": it will run, but will not reproduce the published conditions.
 */
export function fitWarnings(config: WorkloadConfig, server: ServerFacts, ref?: Reference): FitWarning[] {
  const out: FitWarning[] = [];
  const budget = {
    maxConnections: server.maxConnections,
    reservedConnections: server.reservedConnections,
    inUse: server.connectionsInUse,
    role: server.role,
    database: server.database,
  };
  const tooMany = budgetProblem(config, budget, "now");
  if (tooMany) {
    const published = ref?.postgres.settingsChanged.max_connections;
    out.push({
      field: "readers",
      severity: "blocker",
      // A sentence of its own in the list of warnings: capitalised.
      text: `${tooMany.message[0].toUpperCase()}${tooMany.message.slice(1)}${tooMany.limit === "max_connections" && published ? ` (the published run set max_connections=${published})` : ""}.`,
    });
  }
  if (ref && server.cores !== undefined) {
    const throttle = throttlePerSecond(config);
    const published = `a ${ref.server.vcpu} vCPU ${ref.server.instance} server with a separate ${ref.client.instance} client`;
    if (server.cores < ref.server.vcpu || server.targetIsEmbedded)
      out.push({
        severity: "warn",
        text: `The published run used ${published}; here ${server.targetIsEmbedded ? `the runner and the embedded Postgres share ${server.cores} cores` : `the runner has ${server.cores} cores`}. Expect different throughput${throttle > 0 ? `; the ${throttle.toLocaleString("en-US")} ${pacingOf(config).unit}/s throttle may not be reached` : ""}.`,
      });
  }
  const sb = ref?.postgres.settingsChanged.shared_buffers;
  if (sb && server.memoryGiB !== undefined && parseInt(sb, 10) >= server.memoryGiB)
    out.push({
      severity: "warn",
      text: `The published server ran with shared_buffers=${sb}; this machine has ${server.memoryGiB.toFixed(0)} GiB of memory in total.`,
    });
  if (ref && Object.keys(ref.postgres.settingsChanged).length)
    out.push({
      severity: "warn",
      text: `The published server changed ${Object.keys(ref.postgres.settingsChanged).length} settings (${Object.keys(ref.postgres.settingsChanged).slice(0, 4).join(", ")}, …); a run here uses the target's own settings, which this app does not change.`,
    });
  if (ref?.replication) out.push({ severity: "warn", text: replicationFit(ref, server) });
  if (config.durationSeconds >= 600)
    out.push({
      field: "durationSeconds",
      severity: "warn",
      text: `The measured window is ${config.durationSeconds} s (${(config.durationSeconds / 60).toFixed(0)} min); consider a shorter run first.`,
    });
  return out;
}
