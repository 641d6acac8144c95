// A run's telemetry as the summary stores it (what the collector could see, the measured window's aggregates,
// the verdict), and the words and columns every view shares: the CLI's lines, the CSV columns, wait-event
// groups for the charts. Browser-safe.
import { fmtLatency } from "../runs/numbers";
import { z } from "zod";
import { SYNC_REP_WAIT } from "./replication";
import { bytesText, replicationLines } from "./replication-words";
import { perReading, TelemetryInfo, type TelemetrySample } from "./shape";
import { CATEGORY_LABELS, Verdict, WAL_FLUSH_WAITS, type Evidence } from "./verdict";
import { TelemetryWindow } from "./window";

export const RunTelemetry = z.object({
  info: TelemetryInfo,
  /** The measured window's aggregates; absent when no telemetry sample fell in it. */
  window: TelemetryWindow.optional(),
  verdict: Verdict,
});
export type RunTelemetry = z.infer<typeof RunTelemetry>;

/** Wait events grouped for the charts' stacked mix, in drawing order. */
export const WAIT_GROUPS = [
  { key: "cpu", label: "CPU (no wait)", color: "#2b8a3e" },
  { key: "lock", label: "Lock", color: "#c92a2a" },
  { key: "walFlush", label: "WAL flush", color: "#d9480f" },
  { key: "syncRep", label: "a synchronous standby (SyncRep)", color: "#0b7285" },
  { key: "io", label: "data I/O", color: "#2457c5" },
  { key: "lwlock", label: "other LWLock", color: "#9c36b5" },
  { key: "other", label: "other waits", color: "#868e96" },
] as const;
export type WaitGroup = (typeof WAIT_GROUPS)[number]["key"];

export function waitGroup(key: string): WaitGroup {
  if (key === "CPU") return "cpu";
  if (key.startsWith("Lock:")) return "lock";
  if (WAL_FLUSH_WAITS.includes(key)) return "walFlush";
  if (key === SYNC_REP_WAIT) return "syncRep";
  if (key.startsWith("IO:")) return "io";
  if (key.startsWith("LWLock:")) return "lwlock";
  return "other";
}

/** The run's active backends in one sample, by wait group (counts). */
export function waitMix(waits: Record<string, number>): Record<WaitGroup, number> {
  const out = Object.fromEntries(WAIT_GROUPS.map((g) => [g.key, 0])) as Record<WaitGroup, number>;
  for (const [k, v] of Object.entries(waits)) out[waitGroup(k)] += v;
  return out;
}

const int = (x: number) => Math.round(x).toLocaleString("en-US");
const dec = (x: number, d = 1) => x.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: 0 });

/** One piece of evidence as text: "share of active waits on Lock:* 62% (≥ 30%) ✓". */
export function evidenceText(e: Evidence): string {
  // A latency reads as every latency does ("16.2 s", not "16,245 ms").
  const v = (x: number) =>
    e.unit === "ms"
      ? fmtLatency(x)
      : e.unit === "ratio"
        ? `${dec(x * 100, 0)}%`
        : e.unit === "%"
          ? `${dec(x)}%`
          : Math.abs(x) >= 100
            ? `${int(x)} ${e.unit}`
            : `${dec(x, 2)} ${e.unit}`;
  const threshold = e.threshold !== undefined && e.cmp ? ` (${e.cmp} ${v(e.threshold)})` : "";
  const mark = e.holds === undefined ? "" : e.holds ? " ✓" : " ✗";
  return `${e.what} ${v(e.value)}${threshold}${mark}`;
}

export const bytesRate = (b: number) => `${bytesText(b)}/s`;

/** "; tables 1.2 MiB → 3.4 MiB, indexes 256 KiB → 1 MiB": how the run's tables grew over the window, when read. */
function sizeWords(t: NonNullable<TelemetryWindow["tables"]>): string {
  const { tableBytesStart: t0, tableBytesEnd: t1, indexBytesStart: i0, indexBytesEnd: i1 } = t;
  if (t0 === undefined || t1 === undefined || i0 === undefined || i1 === undefined) return "";
  return `; tables ${bytesText(t0)} → ${bytesText(t1)}, indexes ${bytesText(i0)} → ${bytesText(i1)}`;
}

/** What the server did over the window, one line per part that was measured. */
export function windowLines(w: TelemetryWindow): string[] {
  const out: string[] = [];
  const waits = Object.entries(w.runWaitShares)
    .slice(0, 4)
    .map(([k, v]) => `${k} ${dec(v * 100, 0)}%`)
    .join(", ");
  out.push(
    `the run's ${dec(w.runConnections)} connections: active ${dec(w.runActiveShare * 100, 0)}%, idle ${dec(w.runIdleShare * 100, 0)}%, idle in transaction ${dec(w.runIdleInTxShare * 100, 0)}%; active waits: ${waits || "none"}`,
  );
  if (w.db)
    out.push(
      `database: ${int(w.db.commitsPerSec)} commits/s, ${int(w.db.rollbacksPerSec)} rollbacks/s; tuples ${int(w.db.insertedPerSec)} inserted/s, ${int(w.db.updatedPerSec)} updated/s, ${int(w.db.deletedPerSec)} deleted/s`,
    );
  if (w.wal)
    out.push(
      `WAL: ${bytesRate(w.wal.bytesPerSec)}${w.wal.recordsPerSec !== undefined ? `, ${int(w.wal.recordsPerSec)} records/s` : ""}${w.wal.fpiPerSec !== undefined ? `, ${int(w.wal.fpiPerSec)} full-page images/s` : ""}${w.wal.syncsPerSec !== undefined ? `, ${int(w.wal.syncsPerSec)} syncs/s` : ""}${w.wal.syncMsPerSec !== undefined ? `, sync ${dec(w.wal.syncMsPerSec)} ms/s` : ""}`,
    );
  if (w.checkpoints)
    out.push(
      `checkpoints: ${w.checkpoints.timed} timed, ${w.checkpoints.requested} requested; ${int(w.checkpoints.buffersCheckpoint)} buffers written by the checkpointer${w.checkpoints.buffersBackend !== undefined ? `, ${int(w.checkpoints.buffersBackend)} by backends` : ""}`,
    );
  if (w.tables)
    out.push(
      `the run's tables: dead tuples ${int(w.tables.deadTuplesStart)} → ${int(w.tables.deadTuplesEnd)} (${dec(w.tables.deadTuplesSlopePerSec)}/s), ${w.tables.autovacuumRuns} autovacuum and ${w.tables.autoanalyzeRuns} autoanalyze runs${sizeWords(w.tables)}`,
    );
  if (w.oldestXactSecMax !== undefined || w.xminAgeXidsMax !== undefined) {
    // What was not measured says so: a 0 would read as "no open transaction".
    const h = w.xminHolder;
    out.push(
      `xmin horizon: oldest transaction open ${w.oldestXactSecMax !== undefined ? `${dec(w.oldestXactSecMax)} s` : "not measured"}, ${w.xminAgeXidsMax !== undefined ? `${int(w.xminAgeXidsMax)} transactions old` : "its age not measured"}${h ? `; held outside the run by pid ${h.pid} (${h.applicationName || "no application name"}, ${h.state}) for ${dec(h.heldSec)} s` : ""}; ungranted locks ${dec(w.lockWaitsAvg)} on average (max ${w.lockWaitsMax})`,
    );
  }
  for (const b of w.lockBlockers ?? [])
    out.push(
      `lock blocking the run (read while it waited, ${dec(b.fromSec)}-${dec(b.toSec)} s into the window): ${b.mode ? `${b.mode} on ${b.relation} held by` : `${b.relation}, ahead in line:`} pid ${b.pid} (${b.applicationName || "no application name"}): ${b.query.slice(0, 120)}`,
    );
  if (w.host)
    out.push(
      `server host: CPU ${dec(w.host.cpuBusyPct)}% busy (iowait ${dec(w.host.iowaitPct)}%), Postgres ${dec(w.host.serverCpuCores, 2)} of ${w.host.cores} cores${whoElse(w.host)}; disks ${bytesRate(w.host.diskReadBytesPerSec)} read, ${bytesRate(w.host.diskWriteBytesPerSec)} written, busiest ${dec(w.host.diskBusyPct)}% busy`,
    );
  if (w.replication) out.push(...replicationLines(w.replication, w.seconds));
  if (w.client)
    out.push(
      `runner: CPU ${dec(w.client.cpuPct)}% of one core, event loop ${dec(w.client.eventLoopUtilization * 100, 0)}% busy, longest delay ${dec(w.client.eventLoopDelayMaxMs)} ms${w.client.runQueueWaitMsPerSec !== undefined ? `, waited ${dec(w.client.runQueueWaitMsPerSec, 0)} ms/s for a CPU` : ""}`,
    );
  out.push(
    `telemetry's own cost: ${dec(w.overhead.statementsPerSec)} statements/s on the target (one round trip a second), ${dec(w.overhead.msPerSample, 2)} ms per sample (max ${dec(w.overhead.msPerSampleMax, 2)} ms)`,
  );
  return out;
}

/** The host's CPU besides Postgres: the runner's and everyone else's (the busiest by name). */
function whoElse(h: NonNullable<TelemetryWindow["host"]>): string {
  if (h.otherCpuCores === undefined) return "";
  const top = (h.topOthers ?? []).map((o) => `${o.name} ${dec(o.cores, 2)}`).join(", ");
  return `, the runner ${dec(h.runnerCpuCores ?? 0, 2)}, other processes ${dec(h.otherCpuCores, 2)}${top ? ` (${top})` : ""}`;
}

/** What the server did in one short line (compare's cell): the run's connections, top waits, commits, WAL, CPU. */
export function serverLine(w: TelemetryWindow): string {
  const top = Object.entries(w.runWaitShares)
    .slice(0, 2)
    .map(([k, v]) => `${k} ${dec(v * 100, 0)}%`)
    .join(", ");
  return [
    `connections active ${dec(w.runActiveShare * 100, 0)}%${top ? ` (${top})` : ""}`,
    ...(w.db ? [`${int(w.db.commitsPerSec)} commits/s`] : []),
    ...(w.wal ? [`WAL ${bytesRate(w.wal.bytesPerSec)}`] : []),
    ...(w.tables ? [`dead tuples ${int(w.tables.deadTuplesEnd)}`] : []),
    ...(w.host ? [`Postgres ${dec(w.host.serverCpuCores, 2)} of ${w.host.cores} cores`] : []),
  ].join("; ");
}

/**
 * What the server did, as numbers compare puts side by side (one row each, keys as CSV columns). Neither
 * higher nor lower is better: they say why the throughput and latency rows differ.
 */
export const SERVER_FIGURES: {
  key: string;
  label: string;
  unit: "%" | "/s" | "MiB/s" | "cores" | "tuples";
  value: (w: TelemetryWindow) => number | null;
  onlyWhenMeasured?: boolean;
}[] = [
  { key: "server_active_pct", label: "Connections active on the server (%)", unit: "%", value: (w) => 100 * w.runActiveShare },
  {
    key: "server_lock_wait_pct",
    label: "Active connections waiting on locks (%)",
    unit: "%",
    value: (w) => 100 * Object.entries(w.runWaitShares).reduce((a, [k, v]) => a + (waitGroup(k) === "lock" ? v : 0), 0),
  },
  {
    key: "server_wal_flush_wait_pct",
    label: "Active connections waiting on the WAL flush (%)",
    unit: "%",
    value: (w) => 100 * Object.entries(w.runWaitShares).reduce((a, [k, v]) => a + (waitGroup(k) === "walFlush" ? v : 0), 0),
  },
  {
    key: "server_sync_rep_wait_pct",
    label: "Active connections waiting for a synchronous standby (%)",
    unit: "%",
    // Only where standbys were seen: without them no commit can wait for one, and a 0 would read as measured.
    value: (w) => (w.replication ? 100 * (w.runWaitShares[SYNC_REP_WAIT] ?? 0) : null),
    onlyWhenMeasured: true,
  },
  { key: "server_commits_per_s", label: "Commits/s", unit: "/s", value: (w) => w.db?.commitsPerSec ?? null },
  { key: "server_wal_mib_per_s", label: "WAL MiB/s", unit: "MiB/s", value: (w) => (w.wal ? w.wal.bytesPerSec / 1024 / 1024 : null) },
  { key: "server_wal_syncs_per_s", label: "WAL syncs/s", unit: "/s", value: (w) => w.wal?.syncsPerSec ?? null },
  { key: "server_postgres_cores", label: "Postgres CPU (cores)", unit: "cores", value: (w) => w.host?.serverCpuCores ?? null },
  { key: "server_dead_tuples_end", label: "Dead tuples at the end", unit: "tuples", value: (w) => w.tables?.deadTuplesEnd ?? null },
];

/** The verdict in one cell: its category and the evidence that decided it. */
export function verdictLine(t: RunTelemetry): string {
  const decided = t.verdict.evidence.filter((e) => e.holds !== undefined);
  return `${CATEGORY_LABELS[t.verdict.category]}${decided.length ? `: ${decided.map(evidenceText).join("; ")}` : ""}`;
}

/** The CLI's "why this number" block. */
export function telemetryText(t: RunTelemetry): string {
  const v = t.verdict;
  const out = [`why this number: ${v.statement}`];
  for (const e of v.evidence) out.push(`  evidence: ${evidenceText(e)}`);
  if (v.also.length) out.push(`  also: ${v.also.map((c) => CATEGORY_LABELS[c]).join(", ")}`);
  // A run asked no rate says so: nothing it did can be judged against a target (lib/telemetry/pace-rules.ts).
  const unpaced = v.findings.find((f) => f.category === "rate-bound")?.evidence.find((e) => e.what.startsWith("no rate asked"));
  if (unpaced) out.push(`  pace: ${unpaced.what} ${dec(unpaced.value)} ${unpaced.unit}`);
  if (t.window) for (const l of windowLines(t.window)) out.push(`  ${l}`);
  // Whether commits wait for the standbys, beside their figures: the setting a new session of the run starts with.
  if (t.window?.replication && t.info.synchronousCommit)
    out.push(`  synchronous_commit: ${t.info.synchronousCommit} (as a new session of the run's role starts)`);
  if (t.info.waits) out.push(`  the backends' states and waits: ${t.info.waits.note}`);
  for (const b of v.blindSpots) out.push(`  blind spot: ${b}`);
  for (const m of t.info.missing) out.push(`  not measured: ${m}`);
  return out.join("\n");
}

/** The largest of the numbers given (nulls aside), or undefined when there is none. */
const maxOf = (xs: (number | null)[] | undefined) => {
  const v = (xs ?? []).filter((x): x is number => x !== null);
  return v.length ? Math.max(...v) : undefined;
};

/** samples.csv's telemetry columns (appended only when the run has telemetry, so older exports keep their shape). */
export const TELEMETRY_CSV: { name: string; value: (t: TelemetrySample) => number | undefined }[] = [
  // Backend counts are the interval's average reading (the wait sampler reads several times a second).
  { name: "pg_run_connections", value: (t) => perReading(t)?.run.total },
  { name: "pg_run_active", value: (t) => perReading(t)?.run.active },
  { name: "pg_run_idle", value: (t) => perReading(t)?.run.idle },
  { name: "pg_run_idle_in_tx", value: (t) => perReading(t)?.run.idleInTx },
  ...WAIT_GROUPS.map((g) => ({
    name: `pg_run_wait_${g.key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`,
    value: (t: TelemetrySample) => {
      const per = perReading(t);
      return per ? waitMix(per.runWaits)[g.key] : undefined;
    },
  })),
  { name: "pg_other_active", value: (t) => perReading(t)?.other.active },
  { name: "pg_lock_waits", value: (t) => t.lockWaits },
  // The standbys streaming and the largest replay lag among them; each standby's own is the run page's chart.
  { name: "pg_standbys_streaming", value: (t) => t.replication?.standbys.filter((s) => s.state === "streaming").length },
  { name: "pg_replay_lag_bytes_max", value: (t) => maxOf(t.replication?.standbys.map((s) => s.replayLagBytes)) },
  { name: "pg_commits_s", value: (t) => t.db?.commitsPerSec },
  { name: "pg_rollbacks_s", value: (t) => t.db?.rollbacksPerSec },
  { name: "pg_wal_bytes_s", value: (t) => t.wal?.bytesPerSec },
  { name: "pg_wal_records_s", value: (t) => t.wal?.recordsPerSec },
  { name: "pg_wal_fpi_s", value: (t) => t.wal?.fpiPerSec },
  { name: "pg_wal_syncs_s", value: (t) => t.wal?.syncsPerSec },
  { name: "pg_wal_sync_ms_s", value: (t) => t.wal?.syncMsPerSec },
  { name: "pg_checkpoints", value: (t) => (t.checkpoints ? t.checkpoints.timed + t.checkpoints.requested : undefined) },
  { name: "pg_dead_tuples", value: (t) => t.tables?.deadTuples },
  { name: "pg_live_tuples", value: (t) => t.tables?.liveTuples },
  { name: "pg_autovacuum_runs", value: (t) => t.tables?.autovacuumRuns },
  { name: "pg_table_bytes", value: (t) => t.tables?.tableBytes },
  { name: "pg_index_bytes", value: (t) => t.tables?.indexBytes },
  { name: "pg_xmin_age", value: (t) => t.xminAgeXids },
  { name: "pg_oldest_xact_s", value: (t) => t.oldestXactSec },
  { name: "host_cpu_pct", value: (t) => t.host?.cpuBusyPct },
  { name: "host_iowait_pct", value: (t) => t.host?.iowaitPct },
  { name: "server_cpu_cores", value: (t) => t.host?.serverCpuCores },
  { name: "disk_busy_pct", value: (t) => t.host?.diskBusyPct },
  // The runner's CPU and loop delay are the runner-load columns (runner_cpu_cores, runner_loop_delay_*); its
  // event loop's busy share is only here.
  { name: "runner_event_loop_utilization", value: (t) => t.client?.eventLoopUtilization },
  { name: "telemetry_ms", value: (t) => t.overhead.ms },
];
