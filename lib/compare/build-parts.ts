// The cells every adapter of ./build.ts fills alike: the settings that matter, the workload's short name, the
// published tool's known effects, the server facts a result does not record.
import { PCT_Q, type Cell, type DistPoint, type Facts, type KnownEffect, type Pcts, ALL_RATES } from "./comparable";
import { definitionOf, type WorkloadConfig } from "../workloads/config";

export const NONE: Pcts = { p50: null, p95: null, p99: null, p999: null, max: null, avg: null };

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
export const settingsCell = (s: Record<string, string> | null): Cell =>
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
export class NotComparable extends Error {}
/** The reference tool's own back-off is, by definition, what "reference-effective" reproduces. */
export const TOOL_BACKOFF = "the reference tool's own sleeps (~1.1 ms for its 200 µs; its jitter's zero sleeps)";
export const TOOL_CLOCK = "reader's client clock − the server's now() at the write (two clocks)";

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
export function triplePoints(p: Pcts): DistPoint[] {
  return (["p50", "p95", "p99"] as const).filter((k) => p[k] !== null).map((k) => ({ q: PCT_Q[k], ms: p[k] as number }));
}

/** The server facts of a result that does not record its server (an imported output; a study says it in words). */
export const UNKNOWN_SERVER = {
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
