// Builds the Comparable of lib/compare/comparable.ts from a stored run (its summary, histograms and samples), an imported
// tool output, or a published reference. Each keeps its own semantics, stated in its notes and facts.
import { decodeHistogram, mergeEncoded, type Histogram } from "../measurement/histogram";
import { type ImportedLatency, ImportedSummary } from "../imports/summary";
import { mibPerSec, type LatencyStats } from "../measurement/metrics";
import { publishedConfig, publishedLabel, STUDIES, type PublishedResult } from "../references/published";
import { referenceLabel, type Reference } from "../references/references";
import { runnerLoadOf } from "../measurement/headline";
import { isRateSample, SampleMetrics } from "../measurement/sample";
import { RunSummary } from "../measurement/summary";
import { SERVER_FIGURES, serverLine, verdictLine } from "../telemetry/report";
import type { TelemetryWindow } from "../telemetry/window";
import { PCT_Q, type Cell, type Comparable, type DistPoint, type Facts, type KnownEffect, type Metric, type Pcts, type TimePoint } from "./comparable";
import { ALL_RATES, itemRateKeys, rateKey } from "./comparable";
import { comparedMetrics, METRICS, rateOps } from "./metrics";
import { durabilityLevel } from "./notes";
import { configCellsOf, loadGeneratorCell } from "./rows";
import { BACKOFF_LABELS, definitionOf, payloadBytesOf, throttleFact, type WorkloadConfig } from "../workloads/config";
import { groupsOf, histogramOf, latencyOf, readsPerGroup, throughputOf } from "../measurement/operations";

const NONE: Pcts = { p50: null, p95: null, p99: null, p999: null, max: null, avg: null };

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
function histogramFor(s: RunSummary, m: Metric): Histogram | null {
  const whole = histogramOf(s.histograms, m);
  if (whole) return decodeHistogram(whole);
  const parts = groupsOf(s)
    .flatMap((g) => (g.histograms ? [histogramOf(g.histograms, m)] : []))
    .filter((h): h is string => !!h);
  return parts.length ? mergeEncoded(parts) : null;
}

/** A run's rates by declared operation (write and read are the broker's counters; a cache's get, set, … its
 *  own), as `<op>PerSec` (its own unit) and `<op>MiBPerSec`; an operation with nothing stored is left out (unknown). */
function runRates(s: RunSummary): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const { name } of comparedMetrics([s.workload]).rates) {
    const t = throughputOf(s, name);
    if (!t) continue;
    out[rateKey(name, "items")] = t.perSecond;
    out[rateKey(name, "MiB")] = t.mibPerSec;
  }
  return out;
}

/** A run's compared latencies: the summary's percentiles, the mean of the merged histogram (the summary's
 *  own mean where the histogram cannot be read), and the distribution curve. */
function runLatencies(s: RunSummary): { latency: Record<Metric, Pcts>; distribution: Partial<Record<Metric, DistPoint[]>> } {
  const latency: Record<Metric, Pcts> = {};
  const distribution: Partial<Record<Metric, DistPoint[]>> = {};
  for (const { name: m } of comparedMetrics([s.workload]).latencies) {
    const l = latencyOf(s, m);
    latency[m] = pcts(l);
    try {
      const h = histogramFor(s, m);
      if (h) {
        distribution[m] = distributionPoints(h);
        if (h.totalCount) latency[m].avg = h.mean / 1000;
      }
    } catch {
      // An unreadable histogram leaves the curve out; the summary's percentiles are still shown.
    }
  }
  return { latency, distribution };
}

const pcts = (l: LatencyStats | undefined): Pcts =>
  l ? { p50: l.p50, p95: l.p95, p99: l.p99, p999: l.p999, max: l.max, avg: l.count ? l.mean : null } : { ...NONE };

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

/** At most this many points per run in the over-time charts. A longer run is downsampled into buckets of
 *  consecutive seconds (never across a phase change), each kept whole: its time-weighted rate with the lowest
 *  and highest second as an envelope, and the highest of each latency percentile, so a one-second spike or
 *  stall still shows (keeping every k-th second lost it). */
export const MAX_TIME_POINTS = 1200;

type Second = { t: number; phase: string; m: SampleMetrics };

export function overTimeOf(samples: SampleRecord[]): TimePoint[] {
  const seconds: Second[] = [];
  for (const s of samples) {
    const m = SampleMetrics.safeParse(s.metrics);
    if (m.success) seconds.push({ t: Math.round(m.data.elapsedSec * 10) / 10, phase: s.phase, m: m.data });
  }
  const size = Math.ceil(seconds.length / MAX_TIME_POINTS);
  if (size <= 1) return seconds.map((s) => bucketPoint([s]));
  const out: TimePoint[] = [];
  let bucket: Second[] = [];
  for (const s of seconds) {
    if (bucket.length && (bucket.length === size || bucket[0].phase !== s.phase)) {
      out.push(bucketPoint(bucket));
      bucket = [];
    }
    bucket.push(s);
  }
  if (bucket.length) out.push(bucketPoint(bucket));
  return out;
}

/** One point for consecutive seconds of one phase, at the time of the last (a sample's time is its end). */
function bucketPoint(bucket: Second[]): TimePoint {
  const last = bucket[bucket.length - 1];
  const rated = bucket.filter((s) => isRateSample(s.m));
  const rates: TimePoint["rates"] = {};
  const rateRange: NonNullable<TimePoint["rateRange"]> = {};
  for (const o of rateOps()) {
    const per = rated.flatMap((s) => {
      const r = throughputOf(s.m, o)?.perSecond;
      return r === undefined ? [] : [{ r, sec: s.m.intervalSec }];
    });
    if (!per.length) {
      rates[o] = null;
      continue;
    }
    const secs = per.reduce((a, p) => a + p.sec, 0);
    rates[o] = per.reduce((a, p) => a + p.r * p.sec, 0) / secs;
    if (bucket.length > 1) rateRange[o] = { min: Math.min(...per.map((p) => p.r)), max: Math.max(...per.map((p) => p.r)) };
  }
  const latency: TimePoint["latency"] = {};
  for (const k of METRICS()) {
    const ls = bucket.flatMap((s) => latencyOf(s.m, k) ?? []);
    if (!ls.length) continue;
    // The bucket's worst second of each percentile: an upper bound, never an average of percentiles.
    const hi = (p: "p50" | "p95" | "p99" | "max") => Math.max(...ls.map((l) => l[p]));
    latency[k] = { p50: hi("p50"), p95: hi("p95"), p99: hi("p99"), max: hi("max") };
  }
  const point: TimePoint = { t: last.t, phase: last.phase, rates, latency };
  if (bucket.length > 1) Object.assign(point, { seconds: bucket.length, rateRange });
  return point;
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
  const [synchronousCommit, fsync] = [mf.serverSettings.synchronous_commit ?? "on", mf.serverSettings.fsync ?? "on"];
  const flags: string[] = [];
  if (!s.verification.ok) flags.push(`verification found problems: ${s.verification.problems.join("; ") || "see the run page"}`);
  const runner = runnerLoadOf(s).text; // the runner's load by its role: the limit, or a caution on the latencies
  if (runner) flags.push(runner);
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
    // Workloads without a write throttle or a payload (Yong's request workloads, DBOS's) have neither.
    throttleWritesPerSec: throttleFact(s.config),
    payloadBytes: payloadBytesOf(s.config),
    warmupExcluded: s.window.warmupSeconds > 0,
    rateDivisor: "measured window",
    e2eClock: mf.e2eClock.split(/ \(|:/)[0],
    // Absent in runs recorded before the back-off was a setting: those slept the nominal back-off.
    backoff: mf.backoff ?? "nominal",
    measuredThrough: null,
    effects: [],
    flags,
  };
  const when = typeof run.createdAt === "string" ? run.createdAt : run.createdAt.toISOString();
  const notes = [
    `Measured by this product: rates over the real measured window (${s.window.measuredSeconds.toFixed(1)} s), ${s.window.warmupSeconds > 0 ? `after ${s.window.warmupSeconds} s of warm-up that is excluded` : "no warm-up"}; percentiles from the run's HDR histograms.`,
    ...(readsPerGroup(s.config.kind) && groupsOf(s).length > 1
      ? [`Read msg/s sums ${groupsOf(s).length} consumer groups (each message is read once per group).`]
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
      client: loadGeneratorCell(mf),
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
      limitedBy: s.telemetry ? verdictLine(s.telemetry) : null,
      serverDid: s.telemetry?.window ? serverLine(s.telemetry.window) : null,
    },
    facts,
    throughput: runRates(s),
    ...runLatencies(s),
    points: {},
    overTime: overTimeOf(samples),
    notes,
    ...(s.telemetry?.window ? { server: serverFigures(s.telemetry.window) } : {}),
  };
}

/** A run's SERVER_FIGURES by key. */
function serverFigures(w: TelemetryWindow): Record<string, number | null> {
  return Object.fromEntries(SERVER_FIGURES.map((f) => [f.key, f.value(w)]));
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

const triplePcts = (l: ImportedLatency | null): Pcts => (l ? { ...NONE, p50: l.p50.ms, p95: l.p95.ms, p99: l.p99.ms } : NONE);

/**
 * What the reference tool's own way of running moves in its figures (fixtures/kozlovski methodology: main.go
 * L53-69), for its published results and its imported outputs alike, with the size where the config gives it.
 */
export function toolEffects(c: { durationSeconds?: number | null; throttleWritesPerSec?: number | null }): KnownEffect[] {
  const d = c.durationSeconds ?? null;
  const throttle = c.throttleWritesPerSec ?? null;
  const out: KnownEffect[] = [];
  if (throttle && throttle > 0)
    out.push({
      rows: ALL_RATES,
      text: `start-up burst: the tool's throttle lets one second of writes (${throttle.toLocaleString("en-US")}) out at t=0${d ? `, so over ${d} s its rates read about +${fmtPct(100 / d)} above the ${throttle.toLocaleString("en-US")} msg/s it steadily allows` : ""}`,
    });
  out.push({
    rows: ALL_RATES,
    text: `rate divisor: totals are divided by the configured ${d ? `${d} s` : "duration"}, whose clock starts before table setup: lowered by the setup time ÷ the duration`,
  });
  out.push({
    rows: ["e2e.p95", "e2e.p99", "e2e.p999", "e2e.max"],
    text: "no warm-up: the tail covers the whole run, the start-up backlog (the burst, readers starting after writers) included",
  });
  return out;
}
const fmtPct = (v: number) => `${v < 1 ? v.toFixed(2) : v.toFixed(1)}%`;
function triplePoints(p: Pcts): DistPoint[] {
  return (["p50", "p95", "p99"] as const).filter((k) => p[k] !== null).map((k) => ({ q: PCT_Q[k], ms: p[k] as number }));
}

/** The server facts of a result that does not record its server (an imported output; a study says it in words). */
const UNKNOWN_SERVER = {
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
} satisfies Partial<Facts>;

export function fromImport(rec: ImportRecord): Comparable {
  const parsed = ImportedSummary.safeParse(rec.parsed);
  if (!parsed.success) throw new NotComparable(`${rec.id}: the stored import cannot be read (${parsed.error.issues[0]?.message ?? "invalid"})`);
  const s = parsed.data;
  const c = s.config;
  const pay = c.payloadBytes ?? null;
  const latency = { write: triplePcts(s.latencyMs.write), read: triplePcts(s.latencyMs.read), e2e: triplePcts(s.latencyMs.e2e) };
  const facts: Facts = {
    ...UNKNOWN_SERVER,
    durationSeconds: c.durationSeconds ?? null,
    throttleWritesPerSec: c.throttleWritesPerSec ?? null,
    payloadBytes: pay,
    warmupExcluded: false,
    rateDivisor: "configured duration",
    e2eClock: TOOL_CLOCK,
    backoff: "reference-effective",
    measuredThrough: null,
    effects: toolEffects(c),
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
      writePerSec: s.throughput.writeMsgPerSec,
      writeMiBPerSec: pay === null ? null : mibPerSec(s.throughput.writeMsgPerSec, pay),
      readPerSec: s.throughput.readMsgPerSec,
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
  const latency: Record<Metric, Pcts> = {
    write: { ...NONE, ...h.latencyMs.write },
    read: { ...NONE, ...h.latencyMs.read },
    e2e: { ...NONE, ...h.latencyMs.e2e },
  };
  const flags: string[] = [];
  if (r.workload === "queue")
    flags.push(
      // The same words for every queue reference, so the caveat is said once (its p99 is in the results table).
      "its author flags the queue e2e p95/p99 as inflated by a start-up backlog; see results/queue/IMPERFECTIONS.md.",
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
    measuredThrough: null,
    effects: toolEffects(c),
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
    throughput: { writePerSec: h.writeMsgPerSec, writeMiBPerSec: h.writeMiBPerSec, readPerSec: h.readMsgPerSec, readMiBPerSec: h.readMiBPerSec },
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

// ---------- other studies' published results ----------

/** A name of a published figure as a row's: "p50" … "max" and "avg" (every one a study may print). */
const STATS = ["p50", "p95", "p99", "avg", "max"] as const;

/**
 * Another study's published result (Yong, DBOS) as an item: its rates by operation and the latencies it prints
 * (p50/p95/p99/avg/max where published, null elsewhere), labelled published, with how its latencies were timed
 * and its bottleneck beside the deltas they explain.
 */
export function fromPublished(p: PublishedResult): Comparable {
  const parsed = publishedConfig(p);
  const config = parsed.ok ? (parsed.config as Record<string, unknown>) : p.config;
  const throughput: Record<string, number | null> = {};
  for (const [op, v] of Object.entries(p.rates ?? {})) {
    Object.assign(throughput, { [rateKey(op, "items")]: v, [rateKey(op, "MiB")]: null });
  }
  const latency: Record<Metric, Pcts> = {};
  const points: Partial<Record<Metric, DistPoint[]>> = {};
  for (const [m, l] of Object.entries(p.latencyMs ?? {})) {
    latency[m] = { ...NONE };
    for (const k of STATS) if (l[k] !== undefined) latency[m][k] = l[k];
    points[m] = triplePoints(latency[m]);
  }
  const effects: KnownEffect[] = [];
  if (p.measuredThrough) effects.push({ rows: ["*.*"], text: `its latencies are ${p.measuredThrough}; ours are runner → Postgres, per operation` });
  if (p.bottleneck) effects.push({ rows: itemRateKeys(throughput), text: `its rate was capped by ${p.bottleneck} (as the study reports)` });
  const authorCaveats = p.caveats.filter((c) => c.by === "author").map((c) => c.text);
  const str = (k: string) => (typeof config[k] === "number" ? (config[k] as number) : null);
  const facts: Facts = {
    ...UNKNOWN_SERVER,
    serverDescription: p.server,
    postgresVersion: p.server.match(/PostgreSQL (\d+(?:\.\d+)?)/i)?.[1] ?? null,
    durationSeconds: p.durationSeconds ?? null,
    throttleWritesPerSec: str("throttleWritesPerSec"),
    payloadBytes: str("payloadBytes"),
    warmupExcluded: false,
    rateDivisor: "as published",
    e2eClock: null,
    backoff: null,
    measuredThrough: p.measuredThrough ?? null,
    effects,
    flags: authorCaveats,
  };
  return {
    key: `ref:${p.id}`,
    kind: "reference",
    badge: "published",
    label: `Published: ${publishedLabel(p)}`,
    href: `/references/${p.id}`,
    workload: p.config.kind as Comparable["workload"],
    when: null,
    annotations: {},
    config: configCellsOf(p.config.kind, config, null),
    env: {
      numbers: `published by ${STUDIES[p.study].title}`,
      server: p.server,
      serverCores: null,
      client: p.loadModel,
      postgresVersion: facts.postgresVersion,
      topology: null,
      synchronousCommit: null,
      fsync: null,
      settings: null,
      maxConnections: null,
      rateDivisor: "as published",
      e2eClock: null,
      backoff: null,
    },
    facts,
    throughput,
    latency,
    distribution: {},
    points,
    overTime: [],
    notes: [
      `Published by ${STUDIES[p.study].title} (${p.source}); the load: ${p.loadModel}.`,
      ...(p.measuredThrough ? [`Its latencies are ${p.measuredThrough}.`] : []),
      ...(p.bottleneck ? [`Bottleneck reported: ${p.bottleneck}.`] : []),
      ...(p.derived ?? []).map((d) => `Derived by us, not published: ${d}`),
      ...p.caveats.map((c) => `${c.by === "author" ? "Caveat by the author" : "Caveat found"}: ${c.text}`),
      ...(parsed.ok ? [] : [`Its config is shown as published: ${parsed.error}.`]),
    ],
  };
}
