// Builds the Comparable of lib/compare.ts from a stored run (its summary, histograms and samples), an imported
// tool output, or a published reference. Each keeps its own semantics, stated in its notes and facts.
import { decodeHistogram, mergeEncoded, type Histogram } from "./histogram";
import { ImportedSummary, type ImportedLatency } from "./import";
import { mibPerSec, type LatencyStats } from "./metrics";
import { referenceLabel, type Reference } from "./references";
import { isRateSample, SampleMetrics } from "./sample";
import { RunSummary } from "./summary";
import {
  comparedMetrics,
  configCellsOf,
  durabilityLevel,
  METRICS,
  rateOps,
  PCT_Q,
  type Cell,
  type Comparable,
  type DistPoint,
  type Facts,
  type Metric,
  type Pcts,
  type TimePoint,
} from "./compare";
import { BACKOFF_LABELS, definitionOf, type WorkloadConfig } from "./workloads";
import { readsPerGroup, throughputOf } from "./operations";

const NONE: Pcts = { p50: null, p95: null, p99: null, p999: null, max: null };

// Settings shown in rows of their own, or that say nothing about performance (locale, paths, logging), or
// that initdb writes into postgresql.conf at their default values.
const OWN_ROW = new Set(["synchronous_commit", "fsync", "max_connections", "synchronous_standby_names"]);
const IRRELEVANT =
  /^(listen_addresses|unix_socket_directories|port|lc_\w+|datestyle|timezone|log_\w+|logging_collector|default_text_search_config|client_encoding|application_name|cluster_name|config_file|data_directory|hba_file|ident_file|external_pid_file|dynamic_shared_memory_type|search_path|intervalstyle|transaction_\w+|default_transaction_\w+|server_encoding|shared_preload_libraries|pg_stat_statements\.\w+|track_io_timing|jit)$/i;
const INITDB_DEFAULTS: Record<string, string> = { shared_buffers: "128MB", max_wal_size: "1GB", min_wal_size: "80MB", autovacuum_worker_slots: "16" };

/** The performance-relevant non-default settings of a server, name → value. */
export function relevantSettings(settings: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(settings)) {
    const key = k.toLowerCase();
    if (OWN_ROW.has(key) || IRRELEVANT.test(key) || INITDB_DEFAULTS[key] === v) continue;
    out[key] = v;
  }
  return out;
}
const settingsCell = (s: Record<string, string> | null): Cell =>
  s === null
    ? null
    : Object.keys(s).length
      ? Object.entries(s)
          .map(([k, v]) => `${k}=${v}`)
          .join(", ")
      : "defaults";

/** "pub/sub 10w 5g×4r" or "queue 10w/15r": the workload's own short name. */
export function workloadShort(c: WorkloadConfig): string {
  return definitionOf(c).shortName(c);
}

// ---------- histograms ----------

/** Quantiles at 5 ticks per halving of the remaining tail (as HdrHistogram's percentile output), up to the last value. */
export function distributionPoints(h: Histogram): DistPoint[] {
  const n = h.totalCount;
  if (!n) return [];
  const out: DistPoint[] = [];
  for (let k = 0; ; k++) {
    const q = 1 - 0.5 ** (k / 5);
    if (1 / (1 - q) > n) break; // beyond this the histogram has fewer than one sample per step
    out.push({ q, ms: h.getValueAtPercentile(q * 100) / 1000 });
  }
  // Percentiles report their bucket's highest equivalent value, which can lie a hair above the exact max
  // (0.1% at 3 significant digits): the last point never dips below the one before it.
  out.push({ q: 1 - 1 / Math.max(n, 2), ms: Math.max(h.maxValue / 1000, out.length ? out[out.length - 1].ms : 0) });
  return out;
}

/** The cumulative histogram of a metric: stored under its name ("e2e"; runner/engine.ts merges the groups), or
 *  only per group ("e2e:g0"), then merged here. */
function histogramFor(hs: Record<string, string>, m: Metric): Histogram | null {
  if (hs[m]) return decodeHistogram(hs[m]);
  const parts = Object.entries(hs).filter(([k]) => k.startsWith(`${m}:`));
  return parts.length ? mergeEncoded(parts.map(([, v]) => v)) : null;
}

function runDistribution(s: RunSummary): Partial<Record<Metric, DistPoint[]>> {
  const out: Partial<Record<Metric, DistPoint[]>> = {};
  for (const { name: m } of comparedMetrics([s.workload]).latencies) {
    try {
      const h = histogramFor(s.histograms ?? {}, m);
      if (h) out[m] = distributionPoints(h);
    } catch {
      // An unreadable histogram leaves the curve out; the summary's percentiles are still shown.
    }
  }
  return out;
}

const pcts = (l: LatencyStats | undefined): Pcts => (l ? { p50: l.p50, p95: l.p95, p99: l.p99, p999: l.p999, max: l.max } : NONE);

// ---------- runs ----------

export interface RunRecord {
  id: string;
  status: string;
  createdAt: Date | string;
  targetLabel: string;
  summary: unknown;
}
export interface SampleRecord {
  seq: number;
  phase: string;
  metrics: unknown;
}

/** At most this many points per run in the over-time charts; longer runs keep every k-th second (never averaged). */
const MAX_TIME_POINTS = 1200;

export function overTimeOf(samples: SampleRecord[]): TimePoint[] {
  const step = Math.max(1, Math.ceil(samples.length / MAX_TIME_POINTS));
  const out: TimePoint[] = [];
  const metrics = METRICS();
  const ops = rateOps();
  for (let i = 0; i < samples.length; i += step) {
    const s = samples[i];
    const m = SampleMetrics.safeParse(s.metrics);
    if (!m.success) continue;
    const lat: TimePoint["latency"] = {};
    for (const k of metrics) {
      const l = m.data.latencyMs[k];
      if (l) lat[k] = { p50: l.p50, p95: l.p95, p99: l.p99, max: l.max };
    }
    const rate = isRateSample(m.data);
    out.push({
      t: Math.round(m.data.elapsedSec * 10) / 10,
      phase: s.phase,
      rates: Object.fromEntries(ops.map((o) => [o, rate ? (throughputOf(m.data, o)?.msgPerSec ?? null) : null])),
      latency: lat,
    });
  }
  return out;
}

export class NotComparable extends Error {}

// Runs recorded before the manifest kept the server's address: the target's label says whether it was local
// (the embedded target is "embedded default"; older CLI runs said "embedded Postgres (…)" until migration 0003).
const LOCAL_LABEL = /^(embedded\b|localhost|127\.|\[?::1)/i;
const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/** Whether Postgres ran on the runner's machine: from the address the runner reached it at, else the label. */
export function ranOnRunnerMachine(serverAddress: string | null | undefined, targetLabel: string): boolean {
  if (serverAddress === undefined) return LOCAL_LABEL.test(targetLabel);
  return serverAddress === null || LOOPBACK.test(serverAddress);
}

export function fromRun(run: RunRecord, samples: SampleRecord[] = []): Comparable {
  if (run.status !== "completed") throw new NotComparable(`${run.id} is ${run.status}: only completed runs have a summary to compare`);
  const parsed = RunSummary.safeParse(run.summary);
  if (!parsed.success) throw new NotComparable(`${run.id} has no readable summary (${parsed.error.issues[0]?.message ?? "invalid"})`);
  const s = parsed.data;
  const mf = s.manifest;
  const shared = ranOnRunnerMachine(mf.serverAddress, run.targetLabel);
  const settings = relevantSettings(mf.serverSettings);
  const syncNames = mf.serverSettings.synchronous_standby_names?.replace(/^'|'$/g, "");
  const replication = syncNames ? `synchronous standby: ${syncNames}` : null;
  // The hardware is known only when Postgres ran beside the runner; a remote target's is not recorded (null).
  const serverDescription = shared ? `this machine (${mf.runnerHost}, ${mf.runnerCores} cores, ${mf.runnerCpuModel}), shared by the runner and Postgres` : null;
  const synchronousCommit = mf.serverSettings.synchronous_commit ?? "on";
  const fsync = mf.serverSettings.fsync ?? "on";
  const flags: string[] = [];
  if (!s.verification.ok) flags.push(`verification found problems: ${s.verification.problems.join("; ") || "see the run page"}`);
  const facts: Facts = {
    serverCores: shared ? mf.runnerCores : null,
    sharedMachine: shared ? true : null, // a remote address could still be this machine's: unknown, not "no"
    serverDescription,
    postgresVersion: mf.postgresVersion,
    nodes: replication ? null : 1,
    replication,
    synchronousCommit,
    fsync,
    durability: durabilityLevel(synchronousCommit, fsync, !!replication),
    settings,
    durationSeconds: s.config.durationSeconds,
    throttleWritesPerSec: "throttleWritesPerSec" in s.config ? s.config.throttleWritesPerSec : null,
    payloadBytes: "payloadBytes" in s.config ? s.config.payloadBytes : null,
    warmupExcluded: s.window.warmupSeconds > 0,
    rateDivisor: "measured window",
    e2eClock: mf.e2eClock.split(/ \(|:/)[0],
    // Absent in runs recorded before the back-off was a setting: those slept the nominal back-off.
    backoff: mf.backoff ?? "nominal",
    flags,
  };
  const when = typeof run.createdAt === "string" ? run.createdAt : run.createdAt.toISOString();
  const notes = [
    `Measured by this product: rates over the real measured window (${s.window.measuredSeconds.toFixed(1)} s), ${s.window.warmupSeconds > 0 ? `after ${s.window.warmupSeconds} s of warm-up that is excluded` : "no warm-up"}; percentiles from the run's HDR histograms.`,
    ...(readsPerGroup(s.config.kind) && s.reads.perGroup.length > 1
      ? [`Read msg/s sums ${s.reads.perGroup.length} consumer groups (each message is read once per group).`]
      : []),
    `End-to-end clock: ${mf.e2eClock}.`,
    ...(s.notes ?? []),
  ];
  return {
    key: run.id,
    kind: "run",
    badge: "measured",
    label: `${run.id} · ${workloadShort(s.config)}`,
    href: `/runs/${run.id}`,
    workload: s.workload,
    when,
    config: configCellsOf(s.config.kind, s.config as Record<string, unknown>, 1),
    annotations: {},
    env: {
      numbers: "measured here",
      server: serverDescription ?? `target "${run.targetLabel}" (hardware not recorded)`,
      serverCores: facts.serverCores,
      client: `runner on ${mf.runnerHost}: ${mf.runnerCores} cores, ${mf.runnerCpuModel}, Node ${mf.nodeVersion}`,
      postgresVersion: mf.postgresVersion,
      topology: replication ?? "no synchronous standby",
      synchronousCommit,
      fsync,
      settings: settingsCell(settings),
      maxConnections: mf.maxConnections,
      rateDivisor: `measured window (${s.window.measuredSeconds.toFixed(1)} s)`,
      // The manifest explains the clock at length; the table shows its name.
      e2eClock: mf.e2eClock.split(/ \(|:/)[0],
      backoff: mf.backoff ? `${mf.backoff}: ${BACKOFF_LABELS[mf.backoff].label}` : "nominal (recorded before the back-off was a setting)",
    },
    facts,
    throughput: {
      writeMsgPerSec: s.writes.msgPerSec,
      writeMiBPerSec: s.writes.mibPerSec,
      readMsgPerSec: s.reads.msgPerSec,
      readMiBPerSec: s.reads.mibPerSec,
    },
    latency: { write: pcts(s.latencyMs.write), read: pcts(s.latencyMs.read), e2e: pcts(s.latencyMs.e2e) },
    distribution: runDistribution(s),
    points: {},
    overTime: overTimeOf(samples),
    notes,
  };
}

// ---------- imports ----------

export interface ImportRecord {
  id: string;
  label: string;
  createdAt: Date | string;
  parsed: unknown;
}

/** The reference tool's own back-off is, by definition, what "reference-effective" reproduces. */
const TOOL_BACKOFF = "the reference tool's own sleeps (~1.1 ms for its 200 µs; its jitter's zero sleeps)";
const TOOL_CLOCK = "reader's client clock − the server's now() at the write (two clocks)";

const triplePcts = (l: ImportedLatency | null): Pcts => (l ? { p50: l.p50.ms, p95: l.p95.ms, p99: l.p99.ms, p999: null, max: null } : NONE);
function triplePoints(p: Pcts): DistPoint[] {
  return (["p50", "p95", "p99"] as const).filter((k) => p[k] !== null).map((k) => ({ q: PCT_Q[k], ms: p[k] as number }));
}

export function fromImport(rec: ImportRecord): Comparable {
  const parsed = ImportedSummary.safeParse(rec.parsed);
  if (!parsed.success) throw new NotComparable(`${rec.id}: the stored import cannot be read (${parsed.error.issues[0]?.message ?? "invalid"})`);
  const s = parsed.data;
  const c = s.config;
  const pay = c.payloadBytes ?? null;
  const latency = { write: triplePcts(s.latencyMs.write), read: triplePcts(s.latencyMs.read), e2e: triplePcts(s.latencyMs.e2e) };
  const facts: Facts = {
    serverCores: null,
    sharedMachine: null,
    serverDescription: null,
    postgresVersion: null,
    nodes: null,
    replication: null,
    synchronousCommit: null,
    fsync: null,
    durability: null,
    settings: null,
    durationSeconds: c.durationSeconds ?? null,
    throttleWritesPerSec: c.throttleWritesPerSec ?? null,
    payloadBytes: pay,
    warmupExcluded: false,
    rateDivisor: "configured duration",
    e2eClock: TOOL_CLOCK,
    backoff: "reference-effective",
    flags: [],
  };
  const annotations: Record<string, string> = {};
  for (const [k, v] of Object.entries(s.configSources)) if (v === "inferred" || v === "default") annotations[k] = v;
  return {
    key: rec.id,
    kind: "import",
    badge: "imported",
    label: `Imported: ${rec.label}`,
    href: `/compare/imports/${rec.id}`,
    workload: s.workload,
    when: typeof rec.createdAt === "string" ? rec.createdAt : rec.createdAt.toISOString(),
    annotations,
    // The reference tool has no warm-up: nothing is excluded.
    config: {
      ...configCellsOf(s.workload, c, 1),
      warmupSeconds: 0,
    },
    env: {
      numbers: "imported output of the reference tool",
      server: null,
      serverCores: null,
      client: "the reference Go tool (pg_msg_bench)",
      postgresVersion: null,
      topology: null,
      synchronousCommit: null,
      fsync: null,
      settings: null,
      maxConnections: null,
      rateDivisor: "configured duration (the tool's way)",
      e2eClock: TOOL_CLOCK,
      backoff: TOOL_BACKOFF,
    },
    facts,
    throughput: {
      writeMsgPerSec: s.throughput.writeMsgPerSec,
      writeMiBPerSec: pay === null ? null : mibPerSec(s.throughput.writeMsgPerSec, pay),
      readMsgPerSec: s.throughput.readMsgPerSec,
      readMiBPerSec: pay === null ? null : mibPerSec(s.throughput.readMsgPerSec, pay),
    },
    latency,
    distribution: {},
    points: { write: triplePoints(latency.write), read: triplePoints(latency.read), e2e: triplePoints(latency.e2e) },
    // The reference tool's live lines are its write and read rates: the operations of the same names.
    overTime: s.intervals.map((i) => ({ t: i.elapsedSec, rates: { write: i.writeMsgPerSec, read: i.readMsgPerSec } })),
    notes: s.notes,
  };
}

// ---------- references ----------

export function fromReference(r: Reference): Comparable {
  const c = r.config;
  const h = r.headline;
  const full = { ...(r.postgres.fullSettingsList ?? {}), ...r.postgres.settingsChanged };
  const synchronousCommit = full.synchronous_commit ?? "on";
  const fsync = full.fsync ?? "on";
  const settings = relevantSettings(r.postgres.settingsChanged);
  const replication = r.replication ? `${r.nodes} nodes, synchronous_standby_names = ${r.replication.synchronousStandbyNames}` : null;
  const server = `AWS ${r.server.instance}: ${r.server.vcpu} vCPU, ${r.server.ramGib} GiB, ${r.server.disk}`;
  const latency = {
    write: { ...NONE, ...h.latencyMs.write },
    read: { ...NONE, ...h.latencyMs.read },
    e2e: { ...NONE, ...h.latencyMs.e2e },
  };
  const flags: string[] = [];
  if (r.workload === "queue")
    flags.push(
      `its author flags the queue e2e p95/p99 as inflated by a start-up backlog${h.e2eFlag ? ` (p99 ${h.latencyMs.e2e.p99} ms)` : ""}; see results/queue/IMPERFECTIONS.md.`,
    );
  if (h.writeAsPublished || h.readAsPublished)
    flags.push(`throughput is published rounded (${[h.writeAsPublished, h.readAsPublished].filter(Boolean).join(", ")}).`);
  const facts: Facts = {
    serverCores: r.server.vcpu,
    sharedMachine: false,
    serverDescription: `${server}; separate ${r.client.instance} client`,
    postgresVersion: String(r.postgres.version),
    nodes: r.nodes,
    replication,
    synchronousCommit,
    fsync,
    durability: durabilityLevel(synchronousCommit, fsync, !!r.replication),
    settings,
    durationSeconds: c.durationSeconds,
    throttleWritesPerSec: c.throttleWritesPerSec,
    payloadBytes: c.payloadBytes,
    warmupExcluded: false,
    rateDivisor: "configured duration",
    e2eClock: TOOL_CLOCK,
    backoff: "reference-effective",
    flags,
  };
  return {
    key: `ref:${r.id}`,
    kind: "reference",
    badge: "published",
    label: `Published: ${referenceLabel(r)}`,
    href: `/references/${r.id}`,
    workload: r.workload,
    when: null,
    annotations: {},
    config: {
      ...configCellsOf(r.workload, c, c.runs),
      warmupSeconds: 0,
    },
    env: {
      numbers: `published (mean of ${c.runs} run${c.runs > 1 ? "s" : ""})`,
      server,
      serverCores: r.server.vcpu,
      client: `separate AWS ${r.client.instance} (${r.client.az}), the Go tool`,
      postgresVersion: String(r.postgres.version),
      topology: r.replication
        ? `${r.nodes} nodes: ${r.replicas.map((x) => `${x.name} ${x.role.split(" (")[0]} (${x.az})`).join(", ")}`
        : "no synchronous standby",
      synchronousCommit:
        r.replication || synchronousCommit === "on" ? synchronousCommit : `${synchronousCommit} (no standby: waits for the local flush, as "on")`,
      fsync,
      settings: settingsCell(settings),
      maxConnections: Number(full.max_connections ?? 100),
      rateDivisor: "configured duration (the tool's way)",
      e2eClock: TOOL_CLOCK,
      backoff: TOOL_BACKOFF,
    },
    facts,
    throughput: { writeMsgPerSec: h.writeMsgPerSec, writeMiBPerSec: h.writeMiBPerSec, readMsgPerSec: h.readMsgPerSec, readMiBPerSec: h.readMiBPerSec },
    latency,
    distribution: {},
    points: { write: triplePoints(latency.write), read: triplePoints(latency.read), e2e: triplePoints(latency.e2e) },
    overTime: [],
    notes: [
      `Published by the author: ${h.aggregation}. Only p50, p95 and p99 are published.`,
      ...(readsPerGroup(r.workload) ? [`Read msg/s sums ${c.consumerGroups} consumer groups (${c.consumerGroups}× fan-out).`] : []),
    ],
  };
}
