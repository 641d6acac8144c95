// Which server settings matter for a broker benchmark's numbers: shown first on the run page, the rest folded.
// The manifest holds only settings whose value differs from Postgres's built-in default (runner/engine.ts reads
// pg_settings and compares the value with boot_val, both in the setting's base unit).

/**
 * Settings that shape throughput and latency of a queue / pub-sub load, in the order shown: memory, durability
 * and WAL, checkpoints, I/O, background writer, vacuum (queue tables churn), connections and parallelism.
 */
export const PERFORMANCE_SETTINGS = [
  "shared_buffers",
  "effective_cache_size",
  "work_mem",
  "maintenance_work_mem",
  "huge_pages",
  "synchronous_commit",
  "fsync",
  "synchronous_standby_names",
  "wal_level",
  "wal_sync_method",
  "full_page_writes",
  "wal_compression",
  "wal_buffers",
  "wal_writer_delay",
  "wal_writer_flush_after",
  "commit_delay",
  "commit_siblings",
  "max_wal_size",
  "min_wal_size",
  "checkpoint_timeout",
  "checkpoint_completion_target",
  "checkpoint_flush_after",
  "effective_io_concurrency",
  "maintenance_io_concurrency",
  "io_method",
  "io_workers",
  "random_page_cost",
  "bgwriter_delay",
  "bgwriter_lru_maxpages",
  "bgwriter_lru_multiplier",
  "autovacuum",
  "autovacuum_naptime",
  "autovacuum_max_workers",
  "autovacuum_vacuum_scale_factor",
  "autovacuum_vacuum_threshold",
  "autovacuum_vacuum_insert_scale_factor",
  "autovacuum_vacuum_cost_limit",
  "autovacuum_vacuum_cost_delay",
  "vacuum_cost_limit",
  "vacuum_cost_delay",
  "max_connections",
  "max_worker_processes",
  "max_parallel_workers",
  "max_parallel_workers_per_gather",
  "jit",
] as const;

const RANK = new Map<string, number>(PERFORMANCE_SETTINGS.map((name, i) => [name, i]));

/** A server's settings split into those that matter for performance (in PERFORMANCE_SETTINGS order) and the rest (by name). */
export function splitSettings(settings: Record<string, string>): { performance: [string, string][]; other: [string, string][] } {
  const entries = Object.entries(settings);
  const rank = (name: string) => RANK.get(name.toLowerCase());
  return {
    performance: entries.filter(([k]) => rank(k) !== undefined).sort(([a], [b]) => rank(a)! - rank(b)!),
    other: entries.filter(([k]) => rank(k) === undefined).sort(([a], [b]) => a.localeCompare(b)),
  };
}
