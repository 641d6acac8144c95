// The one shape compare reads: a Comparable, from a measured run, an imported tool output or a published result
// (built in lib/compare/build.ts), with the facts its unfairness notes reason about and the known effects on its
// figures; and how to read its percentiles and rates. Numbers are never invented: a percentile a source does not
// publish is null and shown as "—".
import type { WorkloadKind } from "../workloads/config";
import type { QueueFacts } from "./sustained";

export type ItemKind = "run" | "import" | "reference";
export type Badge = "measured" | "imported" | "published";
/** A latency compare shows: a charted latency its workloads declare (lib/measurement/operations.ts), e.g. "write", "e2e". */
export type Metric = string;
export const PERCENTILES = ["p50", "p95", "p99", "p999", "max"] as const;
export type Percentile = (typeof PERCENTILES)[number];
/** What a latency row may show: the percentiles, and the mean ("avg"), a row only when a published item
 *  prints one (Yong publishes p50, p95 and avg); runs then give theirs from the merged histogram. */
export type LatencyStat = Percentile | "avg";

const NO_PCTS: Pcts = { p50: null, p95: null, p99: null, p999: null, max: null, avg: null };
/** An item's percentiles of a latency; all null when its workload does not measure it. */
export const pctsOf = (c: Pick<Comparable, "latency">, m: Metric): Pcts => c.latency[m] ?? NO_PCTS;
/** The throughput key of an operation's rate: items per second in the operation's own unit ("writePerSec": msg/s,
 *  row/s, req/s as it declares) or its payload's MiB/s ("writeMiBPerSec"). */
export const rateKey = (op: string, unit: "items" | "MiB") => (unit === "MiB" ? `${op}MiBPerSec` : `${op}PerSec`);
/** An item's rate of an operation (items/s in its unit, or MiB/s); null when unknown or not measured. */
export const rateOf = (c: Pick<Comparable, "throughput">, op: string, unit: "items" | "MiB"): number | null => c.throughput[rateKey(op, unit)] ?? null;
/** Row patterns of every items-per-second rate and every MiB/s rate (KnownEffect.rows). */
export const ALL_RATES = ["*PerSec"];
/** The items-per-second keys among an item's rates (not its MiB/s). */
export const itemRateKeys = (throughput: Record<string, unknown>) => Object.keys(throughput).filter((k) => !k.endsWith("MiBPerSec"));
export const PCT_LABEL: Record<LatencyStat, string> = { p50: "p50", p95: "p95", p99: "p99", p999: "p99.9", max: "max", avg: "avg" };
/** Quantile of each percentile, for distribution plots (max is plotted at the histogram's last point). */
export const PCT_Q: Record<Exclude<Percentile, "max">, number> = { p50: 0.5, p95: 0.95, p99: 0.99, p999: 0.999 };

/** Percentiles of a latency, and its mean (avg: runs' from the merged histogram, a study's where it prints one). */
export type Pcts = Record<LatencyStat, number | null>;
export type Cell = string | number | boolean | null;

/** One point of a latency distribution: quantile q (0…1) and its latency in ms. */
export interface DistPoint {
  q: number;
  ms: number;
}

/** One second (runs) or one report interval (imports) of a result, for the "over time" charts. */
export interface TimePoint {
  t: number;
  phase?: string;
  /** Items per second by declared operation ("write", "read"); null: the interval was too short to be a rate
   *  (lib/measurement/sample.ts isRateSample), and charts leave it out. */
  rates: Record<string, number | null>;
  /** A downsampled point (a long run's bucket of seconds, lib/compare/over-time.ts overTimeOf): how many seconds it
   *  stands for, and the lowest and highest one-second rate among them by operation. Absent: one interval. */
  seconds?: number;
  rateRange?: Record<string, { min: number; max: number }>;
  /** Per second; in a downsampled point, the highest of each percentile over its seconds. */
  latency?: Partial<Record<Metric, { p50: number; p95: number; p99: number; max: number }>>;
}

/** Facts the unfairness notes reason about; null = unknown. */
export interface Facts {
  /** Cores of the database server; for a run on the runner's machine, the machine's cores (shared with the runner). */
  serverCores: number | null;
  /** The load generator runs on the database server's machine. */
  sharedMachine: boolean | null;
  /** The database server's hardware; null when it is not known (then serverCores is null too). */
  serverDescription: string | null;
  postgresVersion: string | null;
  nodes: number | null;
  replication: string | null;
  /** Where a replicated result's nodes were ("on one host, no network between them", "across zones (…)"); absent or
   *  null when not replicated or not known. */
  placement?: string | null;
  synchronousCommit: string | null;
  fsync: string | null;
  /** What a commit waits for (durabilityLevel), null = unknown. */
  durability: string | null;
  /** Performance-relevant settings that are not at their default, name → value. */
  settings: Record<string, string> | null;
  durationSeconds: number | null;
  throttleWritesPerSec: number | null;
  payloadBytes: number | null;
  warmupExcluded: boolean;
  /** "measured window": rates over the real measured seconds; "configured duration": the reference tool's way;
   *  "as published": another study's figure, computed its own way. */
  rateDivisor: "measured window" | "configured duration" | "as published";
  /** The end-to-end clock; null where nothing end-to-end is measured (another study's HTTP round trips). */
  e2eClock: string | null;
  /**
   * The readers' back-off after an empty poll (lib/workloads/config.ts BACKOFF_MODES): the reference tool's own results
   * are "reference-effective" by definition; runs recorded before the setting existed used "nominal"; null where
   * it does not apply (another study's load).
   */
  backoff: string | null;
  /** How its latencies were timed when not as ours (runner → Postgres): another study's HTTP round trips. */
  measuredThrough: string | null;
  /** What is known to inflate (or deflate) its figures, each with the result rows it moves ("writePerSec",
   *  "e2e.p99", or "e2e.*" for every row of a latency): shown beside the deltas they explain. */
  effects: KnownEffect[];
  /** Flaws the source's author flagged in these very numbers (references), or verification problems (runs). */
  flags: string[];
}

/** A known effect on some of an item's figures: the reference tool's start-up burst on its write rate, … */
export interface KnownEffect {
  /** Result row keys it moves; "*" stands for any characters: "e2e.*" every row of a latency, "*.*" every
   *  latency row, "*PerSec" every rate (items/s and MiB/s), "*MiBPerSec" every MiB/s. */
  rows: string[];
  text: string;
}

/** Whether an effect's row patterns cover a result row's key ("*" stands for any run of characters). */
export const effectCovers = (e: KnownEffect, rowKey: string): boolean => e.rows.some((r) => globRe(r).test(rowKey));
const escapeRe = (s: string) => s.replace(/[.+?^$()|[\]\\{}]/g, "\\$&");
const globRe = (pattern: string) => new RegExp(`^${pattern.split("*").map(escapeRe).join(".*")}$`);

export interface Comparable {
  /** Run id ("r_…"), import id ("imp_…") or "ref:<reference id>": what the URL's ids= holds. */
  key: string;
  kind: ItemKind;
  badge: Badge;
  label: string;
  /** Where the item is shown in full. */
  href: string;
  workload: WorkloadKind;
  when: string | null;
  config: Record<string, Cell>;
  /** How a config value is known when it is not read directly ("inferred", "default"), by config key. */
  annotations: Record<string, string>;
  env: Record<string, Cell>;
  facts: Facts;
  /** Rates by declared operation: `<op>PerSec` (in the operation's own unit) and `<op>MiBPerSec` (writePerSec, readMiBPerSec, …). */
  throughput: Record<string, number | null>;
  /** Percentiles by declared latency name (write, read, e2e); read them with pctsOf. */
  latency: Record<Metric, Pcts>;
  /** From the stored HDR histograms (runs only). */
  distribution: Partial<Record<Metric, DistPoint[]>>;
  /** Published/printed percentiles as points (references and imports). */
  points: Partial<Record<Metric, DistPoint[]>>;
  overTime: TimePoint[];
  /** What the numbers mean, for this item. */
  notes: string[];
  /** What the server did over the measured window (lib/telemetry SERVER_FIGURES), by key; runs with telemetry only. */
  server?: Record<string, number | null>;
  /** A run of a queue-like workload: what it was offered, consumed and at which latency (./sustained.ts). */
  queue?: QueueFacts;
}
