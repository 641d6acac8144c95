// Comparison maths, shared by /compare, GET /api/compare and `npm run bench -- compare`: one Comparable shape
// for a measured run, an imported tool output and a published reference; the config diff; deltas and ratios
// against a baseline; the notes that say what makes a comparison unfair; and the Markdown/CSV/JSON exports.
// Pure and browser-safe (no Node APIs, no database): the builders live in lib/compare/build.ts.
// Numbers are never invented: a percentile a source does not publish is null and shown as "—".
import { SERVER_FIGURES } from "../telemetry/report";
import type { WorkloadDefinition } from "../../workloads/types";
import { latencyMetrics, metricModel, rateOperations } from "../measurement/operations";
import { workloadDefinition, workloadDefinitions, type WorkloadKind } from "../workloads/config";

import { toCsvText } from "../csv";
import { fmtChange, fmtLatency, fmtMs as fmtMsOf } from "../runs/format";

export type ItemKind = "run" | "import" | "reference";
export type Badge = "measured" | "imported" | "published";
/** A latency compare shows: a charted latency its workloads declare (lib/measurement/operations.ts), e.g. "write", "e2e". */
export type Metric = string;
export const PERCENTILES = ["p50", "p95", "p99", "p999", "max"] as const;
export type Percentile = (typeof PERCENTILES)[number];
/** What a latency row may show: the percentiles, and the mean ("avg"), a row only when a published item
 *  prints one (Yong publishes p50, p95 and avg); runs then give theirs from the merged histogram. */
export type LatencyStat = Percentile | "avg";
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * What compare shows for these workloads, from their declarations (workloads/<kind>/definition.ts metrics): the
 * operations with a rate and the charted latencies (operations' and delivery), in declared order, each once
 * (the first workload to declare a name labels it). Pub/sub and queue: write and read rates; write, read and
 * end-to-end latencies. Imports and references are of those workloads, so they read by the same names.
 */
export function comparedMetrics(kinds: readonly string[]): {
  rates: { name: string; label: string; unit: string }[];
  latencies: { name: string; label: string }[];
} {
  const rates = new Map<string, { label: string; unit: string }>();
  const latencies = new Map<string, string>();
  for (const kind of distinct([...kinds])) {
    const model = metricModel(kind);
    if (!model) continue;
    for (const o of rateOperations(model)) if (!rates.has(o.name)) rates.set(o.name, { label: cap(o.label), unit: o.unit });
    for (const l of latencyMetrics(model)) if (l.chart && !latencies.has(l.name)) latencies.set(l.name, cap(l.label));
  }
  return { rates: [...rates].map(([name, r]) => ({ name, ...r })), latencies: [...latencies].map(([name, label]) => ({ name, label })) };
}

/** A published figure's name that no workload declares: "total" is the study's aggregate over all operations. */
const extraLabel = (name: string) => (name === "total" ? "All operations" : cap(name));

/** Every operation with a rate any registered workload declares. */
export const rateOps = (): string[] => comparedMetrics(workloadDefinitions().map((d) => d.kind)).rates.map((o) => o.name);

/** Every latency any registered workload lets compare show (the ?m= values a link may carry). */
export const METRICS = (): string[] => comparedMetrics(workloadDefinitions().map((d) => d.kind)).latencies.map((l) => l.name);

/** A metric's label ("Write", "End-to-end"), by the declaration that names it; the name itself if none does. */
export function metricLabel(m: Metric): string {
  return comparedMetrics(workloadDefinitions().map((d) => d.kind)).latencies.find((l) => l.name === m)?.label ?? m;
}

const NO_PCTS: Pcts = { p50: null, p95: null, p99: null, p999: null, max: null, avg: null };
/** An item's percentiles of a latency; all null when its workload does not measure it. */
export const pctsOf = (c: Pick<Comparable, "latency">, m: Metric): Pcts => c.latency[m] ?? NO_PCTS;
/** An item's rate of an operation (msg/s or MiB/s); null when unknown or not measured. */
export const rateOf = (c: Pick<Comparable, "throughput">, op: string, unit: "Msg" | "MiB"): number | null => c.throughput[`${op}${unit}PerSec`] ?? null;
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
  /** msg/s by declared operation ("write", "read"); null: the interval was too short to be a rate
   *  (lib/measurement/sample.ts isRateSample), and charts leave it out. */
  rates: Record<string, number | null>;
  /** A downsampled point (a long run's bucket of seconds, lib/compare/build.ts overTimeOf): how many seconds it
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
  /** What is known to inflate (or deflate) its figures, each with the result rows it moves ("writeMsgPerSec",
   *  "e2e.p99", or "e2e.*" for every row of a latency): shown beside the deltas they explain. */
  effects: KnownEffect[];
  /** Flaws the source's author flagged in these very numbers (references), or verification problems (runs). */
  flags: string[];
}

/** A known effect on some of an item's figures: the reference tool's start-up burst on its write rate, … */
export interface KnownEffect {
  /** Result row keys it moves; "*" stands for any characters: "e2e.*" every row of a latency, "*.*" every
   *  latency row, "*MsgPerSec" every count rate. */
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
  /** Rates by declared operation: `<op>MsgPerSec` and `<op>MiBPerSec` (writeMsgPerSec, readMiBPerSec, …). */
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
}

// ---------- rows ----------

export interface RowDef {
  key: string;
  label: string;
}

let configRowsCache: { defs: readonly WorkloadDefinition[]; rows: RowDef[] } | null = null;
/**
 * The config table's rows: the workload, then every registered workload's fields that have a compare label
 * (in field-table order; the first workload to name a row names it) with their derived rows (readers in
 * total) after the field they follow, then how many runs a figure averages.
 */
export function configRows(): RowDef[] {
  const defs = workloadDefinitions();
  if (configRowsCache?.defs !== defs) {
    const rows: RowDef[] = [{ key: "workload", label: "Workload" }];
    const has = (key: string) => rows.some((r) => r.key === key);
    for (const d of defs)
      for (const f of d.fields) {
        if (!f.compareLabel || has(f.name)) continue;
        rows.push({ key: f.name, label: f.compareLabel });
        for (const x of d.compareExtras ?? []) if (x.after === f.name && !has(x.key)) rows.push({ key: x.key, label: x.label });
      }
    rows.push({ key: "runsAveraged", label: "Runs averaged" });
    configRowsCache = { defs, rows };
  }
  return configRowsCache.rows;
}

/**
 * A config's cells for those rows, from its workload's field table: `values` may lack fields (an imported
 * output without its command line), which stay empty, as do other workloads' rows.
 */
export function configCellsOf(kind: string, values: Record<string, unknown>, runsAveraged: number | null): Record<string, Cell> {
  const cells: Record<string, Cell> = { workload: kind, runsAveraged };
  const def = workloadDefinition(kind);
  for (const f of def?.fields ?? []) if (f.compareLabel) cells[f.name] = (values[f.name] as Cell | undefined) ?? null;
  for (const x of def?.compareExtras ?? []) cells[x.key] = x.value(values);
  return cells;
}

export const ENV_ROWS: RowDef[] = [
  { key: "numbers", label: "Numbers" },
  { key: "server", label: "Database server" },
  { key: "serverCores", label: "Server cores" },
  { key: "client", label: "Load generator" },
  { key: "postgresVersion", label: "Postgres" },
  { key: "topology", label: "Nodes / replication" },
  { key: "synchronousCommit", label: "synchronous_commit" },
  { key: "fsync", label: "fsync" },
  { key: "settings", label: "Other non-default settings" },
  { key: "maxConnections", label: "max_connections" },
  { key: "rateDivisor", label: "Rates divided by" },
  { key: "e2eClock", label: "E2E clock" },
  { key: "backoff", label: "Empty-poll back-off" },
  // Measured runs only (lib/telemetry): what limited each, with the numbers that decided it, and what the server did.
  { key: "limitedBy", label: "What limited it" },
  { key: "serverDid", label: "What the server did" },
];

export interface ResultRow {
  key: string;
  group: string;
  label: string;
  /** What the row measures: a count rate ("msg/s", labelled with the operation's own unit), MiB/s or ms; the
   *  server rows' own units. */
  unit: "msg/s" | "MiB/s" | "ms" | (typeof SERVER_FIGURES)[number]["unit"];
  /** "neither": context (what the server did), shown with its difference but never as better or worse. */
  better: "higher" | "lower" | "neither";
  values: (number | null)[];
  /** Per item: what is known to move its value in this row (its KnownEffects), shown beside the delta. Only
   *  when the comparison mixes kinds of result, where such an effect is a difference in kind. */
  effects: string[][];
}

function resultRows(items: Comparable[]): ResultRow[] {
  // The rows are what the compared workloads declare (comparedMetrics), so keys read "writeMsgPerSec", "e2e.p99";
  // then any figure a published item carries under a name no workload declares ("total").
  const declared = comparedMetrics(items.map((i) => i.workload));
  const rates = [...declared.rates];
  const latencies = [...declared.latencies];
  for (const i of items) {
    for (const k of Object.keys(i.throughput)) {
      const name = k.replace(/(Msg|MiB)PerSec$/, "");
      if (!rates.some((r) => r.name === name)) rates.push({ name, label: extraLabel(name), unit: rates[0]?.unit ?? "msg" });
    }
    for (const name of Object.keys(i.latency)) if (!latencies.some((l) => l.name === name)) latencies.push({ name, label: extraLabel(name) });
  }
  // A kind of result whose figures move in known ways is compared with another kind: say how, beside the deltas.
  const mixed = distinct(items.map((i) => i.badge)).length > 1;
  const effects = (key: string) => items.map((i) => (mixed ? i.facts.effects.filter((e) => effectCovers(e, key)).map((e) => e.text) : []));
  const row = (r: Omit<ResultRow, "effects">): ResultRow => ({ ...r, effects: effects(r.key) });
  const rows: ResultRow[] = rates.flatMap((o) => [
    row({
      key: `${o.name}MsgPerSec`,
      group: "Throughput",
      label: `${o.label} ${o.unit}/s`,
      unit: "msg/s",
      better: "higher",
      values: items.map((i) => rateOf(i, o.name, "Msg")),
    }),
    row({
      key: `${o.name}MiBPerSec`,
      group: "Throughput",
      label: `${o.label} MiB/s`,
      unit: "MiB/s",
      better: "higher",
      values: items.map((i) => rateOf(i, o.name, "MiB")),
    }),
  ]);
  for (const m of latencies) {
    // The mean only where a non-measured item prints one: runs always have it, but the percentiles say more.
    const avg = items.some((i) => i.kind !== "run" && pctsOf(i, m.name).avg !== null);
    for (const p of avg ? [...PERCENTILES, "avg" as const] : PERCENTILES)
      rows.push(
        row({
          key: `${m.name}.${p}`,
          group: `${m.label} latency`,
          label: `${m.label} ${PCT_LABEL[p]}`,
          unit: "ms",
          better: "lower",
          values: items.map((i) => pctsOf(i, m.name)[p]),
        }),
      );
  }
  // What the server did, when some item measured it: the same window's numbers, side by side.
  if (items.some((i) => i.server))
    for (const f of SERVER_FIGURES)
      rows.push(
        row({ key: f.key, group: "What the server did", label: f.label, unit: f.unit, better: "neither", values: items.map((i) => i.server?.[f.key] ?? null) }),
      );
  return rows;
}

export interface DiffRow extends RowDef {
  values: Cell[];
  /** Per item: how the value is known, when it is not read directly ("inferred", "default"). */
  annotations: (string | null)[];
  /** At least two items have different known values. */
  differs: boolean;
}

function diffRows(
  items: Comparable[],
  defs: RowDef[],
  pick: (c: Comparable) => Record<string, Cell>,
  notes?: (c: Comparable) => Record<string, string>,
): DiffRow[] {
  return defs
    .map((d) => {
      const values = items.map((i) => pick(i)[d.key] ?? null);
      const known = new Set(values.filter((v) => v !== null).map((v) => String(v)));
      return { ...d, values, annotations: items.map((i) => notes?.(i)[d.key] ?? null), differs: known.size > 1 };
    })
    .filter((r) => r.values.some((v) => v !== null));
}

/** Which config fields differ between the items (the config table and its "differences only" toggle). */
export function configDiff(items: Comparable[]): DiffRow[] {
  return diffRows(
    items,
    configRows(),
    (c) => c.config,
    (c) => c.annotations,
  );
}
export function envDiff(items: Comparable[]): DiffRow[] {
  return diffRows(items, ENV_ROWS, (c) => c.env);
}

// ---------- deltas ----------

export interface Delta {
  /** value − baseline */
  diff: number;
  /** value ÷ baseline (null when the baseline is 0) */
  ratio: number | null;
  /** (value − baseline) ÷ baseline, in % */
  pct: number | null;
  /** Whether this is better than the baseline in the row's sense (null when equal). */
  better: boolean | null;
}

export function delta(value: number | null, base: number | null, better: ResultRow["better"] = "higher"): Delta | null {
  if (value === null || base === null || !Number.isFinite(value) || !Number.isFinite(base)) return null;
  const diff = value - base;
  const ratio = base === 0 ? null : value / base;
  return {
    diff,
    ratio,
    pct: ratio === null ? null : (ratio - 1) * 100,
    better: diff === 0 || better === "neither" ? null : better === "higher" ? diff > 0 : diff < 0,
  };
}

// ---------- unfairness ----------

/**
 * What a commit waits for, from synchronous_commit, fsync and whether a synchronous standby exists:
 * remote_write/remote_apply without a standby wait for the local flush only, exactly as "on".
 */
export function durabilityLevel(synchronousCommit: string, fsync: string, syncStandby: boolean): string {
  if (fsync === "off") return "nothing (fsync=off)";
  if (synchronousCommit === "off") return "nothing (asynchronous commit)";
  if (!syncStandby || synchronousCommit === "local") return "local WAL flush";
  if (synchronousCommit === "remote_write") return "local WAL flush + standby write";
  if (synchronousCommit === "remote_apply") return "local WAL flush + standby apply";
  return "local WAL flush + standby flush";
}

export interface ContextNote {
  topic: string;
  severity: "warn" | "info";
  text: string;
}

const name = (c: Comparable) => c.label;
const distinct = <T>(xs: T[]) => [...new Set(xs)];
function listBy(items: Comparable[], f: (c: Comparable) => string | null): string {
  return items.map((c) => `${name(c)}: ${f(c) ?? "unknown"}`).join("; ");
}
function differ(items: Comparable[], f: (c: Comparable) => string | number | null): boolean {
  return (
    distinct(
      items
        .map(f)
        .filter((v) => v !== null)
        .map(String),
    ).length > 1
  );
}

/**
 * What makes this comparison unfair, so that no reader is fooled: hardware, cores, Postgres version, settings,
 * durability, replication, run length, throttle, warm-up, how rates were computed, the e2e clock, the sources' own
 * flagged flaws, and what is unknown.
 */
export function contextNotes(items: Comparable[]): ContextNote[] {
  const out: ContextNote[] = [];
  const add = (topic: string, severity: "warn" | "info", text: string) => out.push({ topic, severity, text });
  if (!items.length) return out;

  const kinds = distinct(items.map((c) => c.workload));
  if (kinds.length > 1)
    add(
      "workload",
      "warn",
      `Mixes workloads: ${kinds
        .map((k) => {
          const d = workloadDefinition(k);
          return d ? `${d.title} (${d.description.replace(/\.$/, "")})` : k;
        })
        .join("; ")}. They do different work, so their numbers do not measure the same thing.`,
    );

  const badges = distinct(items.map((c) => c.badge));
  if (badges.includes("published") && badges.length > 1)
    add(
      "source",
      "info",
      `Published numbers are their authors', measured on their machines with their own tools; measured numbers are from this product on this server; imported ones are the reference tool's output. Each keeps its own semantics (see the notes under each, and the known effects beside the deltas).`,
    );

  // A latency timed through something else (an HTTP API, a load generator's VUs) is a different quantity.
  if (distinct(items.map((c) => c.facts.measuredThrough)).length > 1)
    add(
      "kind",
      "warn",
      `Latencies are not the same quantity: ${listBy(items, (c) => c.facts.measuredThrough ?? (c.kind === "run" ? "runner → Postgres, per operation (ours)" : "the reference tool → Postgres, per operation"))}.`,
    );

  // Hardware is compared only where it is known; where it is not, one note says so (never also "differs").
  const hwKnown = items.filter((c) => c.facts.serverDescription !== null);
  const hwUnknown = items.filter((c) => c.facts.serverDescription === null);
  if (differ(hwKnown, (c) => c.facts.serverDescription)) add("hardware", "warn", `Hardware differs. ${listBy(hwKnown, (c) => c.facts.serverDescription)}.`);
  if (differ(items, (c) => c.facts.serverCores))
    add(
      "cores",
      "warn",
      `Server cores differ: ${listBy(items, (c) => (c.facts.serverCores === null ? null : `${c.facts.serverCores}${c.facts.sharedMachine ? " (shared with the load generator)" : ""}`))}.`,
    );
  else if (items.some((c) => c.facts.sharedMachine) && items.some((c) => c.facts.sharedMachine === false))
    add(
      "cores",
      "warn",
      `Some results ran the load generator on the database's own machine, competing with Postgres for the same cores; the published runs used a separate client machine.`,
    );
  if (hwUnknown.length)
    add(
      "unknown",
      "info",
      hwUnknown.length === items.length
        ? `Hardware is unknown for ${items.length === 1 ? "it" : items.length === 2 ? "both" : `all ${items.length}`}: ${hwUnknown.map(name).join(", ")}, so whether it differs cannot be said.`
        : `Hardware is unknown for: ${hwUnknown.map(name).join(", ")}.`,
    );

  if (differ(items, (c) => c.facts.postgresVersion)) add("postgres", "warn", `Postgres versions differ: ${listBy(items, (c) => c.facts.postgresVersion)}.`);

  const settingsText = (c: Comparable) =>
    c.facts.settings === null
      ? null
      : Object.keys(c.facts.settings).length
        ? Object.entries(c.facts.settings)
            .map(([k, v]) => `${k}=${v}`)
            .join(", ")
        : "defaults";
  if (differ(items, settingsText))
    add(
      "settings",
      "warn",
      `Server settings differ. ${listBy(items, (c) => {
        const s = settingsText(c);
        return s && s.length > 160 ? `${s.slice(0, 157)}…` : s;
      })}.`,
    );

  if (differ(items, (c) => c.facts.durability))
    add(
      "durability",
      "warn",
      `Durability differs — a commit waits for: ${listBy(items, (c) => c.facts.durability)}. Waiting for less is cheaper, and without fsync nothing is durable.`,
    );
  else if (items.some((c) => c.facts.durability?.startsWith("nothing")))
    add(
      "durability",
      "warn",
      `These results ran without durable commits (${items.find((c) => c.facts.durability?.startsWith("nothing"))!.facts.durability}): not what a broker needs.`,
    );

  if (differ(items, (c) => c.facts.replication ?? (c.facts.nodes === null ? null : "none")))
    add(
      "replication",
      "warn",
      `Replication differs: ${listBy(items, (c) => c.facts.replication ?? (c.facts.nodes === null ? null : "single node"))}. A synchronously replicated commit waits for a replica in another zone.`,
    );

  const durs = items.map((c) => c.facts.durationSeconds).filter((d): d is number => d !== null);
  if (durs.length > 1 && Math.max(...durs) >= 2 * Math.min(...durs))
    add(
      "length",
      "warn",
      `Run lengths differ: ${listBy(items, (c) => (c.facts.durationSeconds === null ? null : `${c.facts.durationSeconds} s`))}. Short runs see no checkpoint or autovacuum cycle and have few samples in their tails (p99.9, max).`,
    );
  else if (durs.some((d) => d < 30))
    add("length", "info", `A run shorter than 30 s has few samples in its tail percentiles and no checkpoint or autovacuum in its window.`);

  if (differ(items, (c) => c.facts.throttleWritesPerSec))
    add(
      "throttle",
      "warn",
      `Write throttles differ: ${listBy(items, (c) => (c.facts.throttleWritesPerSec === null ? null : c.facts.throttleWritesPerSec === 0 ? "unthrottled" : `${c.facts.throttleWritesPerSec.toLocaleString("en-US")} msg/s`))}. An unthrottled run measures capacity; a throttled one, latency at a fixed load.`,
    );
  // Request workloads (workloads/yong) record their load model: virtual users waiting for each answer, or a timetable.
  const loadModel = (c: Comparable) => (c.config.load === "vus" ? "closed loop" : c.config.load === "rate" ? "open loop" : null);
  if (differ(items, loadModel))
    add(
      "load model",
      "warn",
      `Load models differ: ${listBy(items, (c) => (c.config.load === "rate" ? `open loop at ${c.config.rate} requests/s` : c.config.load === "vus" ? "closed loop of virtual users" : null))}. In a closed loop a slower target gets fewer requests (each virtual user waits for its answer), in an open loop the rate holds and latency grows: their rates and latencies do not measure the same thing.`,
    );
  if (differ(items, (c) => c.facts.payloadBytes))
    add("payload", "warn", `Payload sizes differ: ${listBy(items, (c) => (c.facts.payloadBytes === null ? null : `${c.facts.payloadBytes} B`))}.`);

  const cfgDiffs = configDiff(items).filter(
    (r) => r.differs && !["workload", "throttleWritesPerSec", "durationSeconds", "payloadBytes", "warmupSeconds", "runsAveraged"].includes(r.key),
  );
  if (cfgDiffs.length) add("config", "info", `Client configs differ in: ${cfgDiffs.map((r) => r.label.toLowerCase()).join(", ")} (see the config table).`);

  if (distinct(items.map((c) => c.facts.warmupExcluded)).length > 1)
    add(
      "warmup",
      "info",
      `Warm-up: ${items
        .filter((c) => c.facts.warmupExcluded)
        .map(name)
        .join(", ")} exclude a warm-up from their numbers; ${items
        .filter((c) => !c.facts.warmupExcluded)
        .map(name)
        .join(", ")} cover the whole run, start-up backlog and shutdown included.`,
    );
  // A different divisor moves a rate by a known amount in a known direction: a warning, with the effect
  // beside the rate rows it moves (Facts.effects).
  if (distinct(items.map((c) => c.facts.rateDivisor)).length > 1)
    add(
      "rates",
      "warn",
      `Rates are computed differently: ${listBy(items, (c) => c.facts.rateDivisor)}. The reference tool divides totals by the configured duration, whose clock starts before table setup (lowering its rates by the setup time ÷ the duration), and its throttle lets one extra second of writes out at start (raising a throttled run's rates by about 1 ÷ the duration in seconds); the rows they move say by how much.`,
    );
  if (differ(items, (c) => c.facts.e2eClock)) add("clock", "info", `End-to-end latency uses different clocks: ${listBy(items, (c) => c.facts.e2eClock)}.`);

  if (differ(items, (c) => c.facts.backoff))
    add(
      "backoff",
      "warn",
      `The readers' back-off after an empty poll differs: ${listBy(items, (c) => c.facts.backoff)}. The nominal back-off polls an idle queue or partition several times more often than the reference tool really did, so the target serves more empty polls (and, in pub/sub, commits more) at the same message rate.`,
    );

  for (const c of items) for (const f of c.facts.flags) add("flaw", "warn", `${name(c)}: ${f}`);

  if (items.some((c) => c.kind !== "run"))
    add(
      "unknown",
      "info",
      `"—" marks what a source does not publish: the reference tool prints only p50, p95 and p99 (no p99.9, no max), other studies print what their articles show, and imported results have no histograms.`,
    );
  return out;
}

// ---------- the comparison ----------

export interface Comparison {
  items: Comparable[];
  /** Index into items, or -1 for none. */
  baseline: number;
  config: DiffRow[];
  env: DiffRow[];
  results: ResultRow[];
  notes: ContextNote[];
}

export function buildComparison(items: Comparable[], baselineKey?: string | null): Comparison {
  const b = baselineKey ? items.findIndex((i) => i.key === baselineKey) : -1;
  return {
    items,
    baseline: b >= 0 ? b : items.length ? 0 : -1,
    config: configDiff(items),
    env: envDiff(items),
    results: resultRows(items),
    notes: contextNotes(items),
  };
}

// ---------- formatting ----------

/** Thousands separators, at most `digits` decimals; "—" for unknown. */
export function fmtNum(v: number | null | undefined, digits = 2): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return "—";
  return v.toLocaleString("en-US", { maximumFractionDigits: digits });
}
/** Latency in ms as a bare number (a chart's axis); "—" when a source does not publish it. */
export const fmtMs = (v: number | null | undefined) => fmtMsOf(v, "—");
/** A latency with its unit, "—" when a source does not publish it: "8.76 ms", "16.2 s" (lib/runs/numbers.ts). */
export const fmtLat = (v: number | null | undefined) => fmtLatency(v, "—");
export const fmtValue = (v: number | null | undefined, unit: ResultRow["unit"]) => (unit === "ms" ? fmtLat(v) : fmtNum(v, 2));
export function fmtCell(v: Cell): string {
  if (v === null) return "—";
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (typeof v === "number") return fmtNum(v, 2);
  return v;
}
/** A config cell with how it is known: "200 (inferred)". */
export const fmtAnnotated = (v: Cell, note: string | null | undefined) => (note && v !== null ? `${fmtCell(v)} (${note})` : fmtCell(v));
/** The change against the baseline as a reader takes it: "−80.2 %", "+89.5 %", beyond +100 % a factor ("2.9×"). */
export function fmtDelta(d: Delta | null): string {
  return d?.pct == null ? "—" : fmtChange(d.pct);
}

/** "Write msg/s, Published: …: start-up burst …": every known effect on a shown row, once per item and text. */
function effectLines(cmp: Comparison): string[] {
  const byText = new Map<string, string[]>();
  for (const r of cmp.results) {
    if (r.values.every((v) => v === null)) continue;
    r.effects.forEach((texts, i) => {
      for (const t of texts) {
        const k = `${cmp.items[i].label}: ${t}`;
        byText.set(k, [...(byText.get(k) ?? []), r.label]);
      }
    });
  }
  return [...byText].map(([k, rows]) => `${rows.join(", ")} of ${k}`);
}

const mdEscape = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");
const mdRow = (cells: string[]) => `| ${cells.map(mdEscape).join(" | ")} |`;
const badgeText = (c: Comparable) => `${c.label} (${c.badge})`;

function triple(c: Comparable, m: Metric): string {
  const l = pctsOf(c, m);
  return `${fmtLat(l.p50)} / ${fmtLat(l.p95)} / ${fmtLat(l.p99)}`;
}
const rate = (msg: number | null, mib: number | null) => `${fmtNum(msg, 2)} msg/s / ${fmtNum(mib, 2)} MiB/s`;

/** Markdown: a summary table like the reference README's, the full results with deltas, the config and the caveats. */
export function toMarkdown(cmp: Comparison, opts: { url?: string; generatedAt?: string } = {}): string {
  const { items } = cmp;
  const base = cmp.baseline >= 0 ? items[cmp.baseline] : null;
  const lines: string[] = ["# Comparison", ""];
  if (opts.url) lines.push(`Link: ${opts.url}`, "");
  if (opts.generatedAt) lines.push(`Generated ${opts.generatedAt} by pg-broker-bench.`, "");
  lines.push("## Summary", "");
  const m = comparedMetrics(items.map((c) => c.workload));
  const broker = ["write", "read"].every((op) => m.rates.some((r) => r.name === op));
  if (broker) {
    // Message workloads: the reference README's own layout, so a comparison pastes beside its tables.
    lines.push(
      mdRow([
        "Configuration",
        "Source",
        "Server",
        "Write Rate",
        "Read Rate",
        "E2E Latency p50 / p95 / p99",
        "Write Latency p50 / p95 / p99",
        "Read Latency p50 / p95 / p99",
      ]),
    );
    lines.push(mdRow(Array(8).fill("---")));
    for (const c of items)
      lines.push(
        mdRow([
          c.label,
          c.badge,
          fmtCell(c.env.server ?? null),
          rate(rateOf(c, "write", "Msg"), rateOf(c, "write", "MiB")),
          rate(rateOf(c, "read", "Msg"), rateOf(c, "read", "MiB")),
          triple(c, "e2e"),
          triple(c, "write"),
          triple(c, "read"),
        ]),
      );
  } else {
    // Other workloads: what they declare, each rate in its own unit and each charted latency as p50 / p95 / p99.
    const head = [
      "Configuration",
      "Source",
      "Server",
      ...m.rates.map((r) => `${r.label} (${r.unit}/s)`),
      ...m.latencies.map((l) => `${l.label} p50 / p95 / p99`),
    ];
    lines.push(mdRow(head));
    lines.push(mdRow(Array(head.length).fill("---")));
    for (const c of items)
      lines.push(
        mdRow([
          c.label,
          c.badge,
          fmtCell(c.env.server ?? null),
          ...m.rates.map((r) => fmtNum(rateOf(c, r.name, "Msg"), 2)),
          ...m.latencies.map((l) => triple(c, l.name)),
        ]),
      );
  }
  lines.push("", `## Results${base ? ` (change against ${badgeText(base)})` : ""}`, "");
  lines.push(mdRow(["Metric", ...items.map(badgeText)]));
  lines.push(mdRow(["---", ...items.map(() => "---:")]));
  for (const r of cmp.results) {
    if (r.values.every((v) => v === null)) continue;
    const baseV = cmp.baseline >= 0 ? r.values[cmp.baseline] : null;
    lines.push(
      mdRow([
        r.label,
        ...r.values.map((v, i) => {
          const s = fmtValue(v, r.unit);
          if (!base || i === cmp.baseline || v === null) return s;
          const d = delta(v, baseV, r.better);
          return d ? `${s} (${fmtDelta(d)})` : s;
        }),
      ]),
    );
  }
  lines.push("", "## Configuration", "");
  lines.push(mdRow(["Field", ...items.map((c) => c.label)]));
  lines.push(mdRow(["---", ...items.map(() => "---")]));
  for (const r of [...cmp.config, ...cmp.env])
    lines.push(mdRow([`${r.label}${r.differs ? " ≠" : ""}`, ...r.values.map((v, i) => fmtAnnotated(v, r.annotations[i]))]));
  if (cmp.notes.length) {
    lines.push("", "## What makes this comparison unfair", "");
    for (const n of cmp.notes) lines.push(`- ${n.severity === "warn" ? `**${n.topic}**` : n.topic}: ${n.text}`);
  }
  const effects = effectLines(cmp);
  if (effects.length) {
    lines.push("", "## Known effects beside the deltas", "");
    for (const e of effects) lines.push(`- ${e}`);
  }
  const perItem = items.filter((c) => c.notes.length);
  if (perItem.length) {
    lines.push("", "## What the numbers mean", "");
    for (const c of perItem) for (const n of c.notes) lines.push(`- ${c.label}: ${n}`);
  }
  lines.push("");
  return lines.join("\n");
}

/** CSV: one row per item, every config field and metric as a column (unrounded), plus ratios to the baseline. */
export function toCsv(cmp: Comparison): string {
  const { items } = cmp;
  const header = ["key", "kind", "badge", "label", "baseline", ...configRows().map((r) => `config_${r.key}`), ...ENV_ROWS.map((r) => `env_${r.key}`)];
  for (const r of cmp.results) header.push(csvName(r));
  if (cmp.baseline >= 0) for (const r of cmp.results) header.push(`${csvName(r)}_ratio_vs_baseline`);
  const rows = items.map((c, i) => {
    const row: (string | number | boolean | null)[] = [c.key, c.kind, c.badge, c.label, i === cmp.baseline];
    for (const r of configRows()) row.push(c.config[r.key] ?? null);
    for (const r of ENV_ROWS) row.push(c.env[r.key] ?? null);
    for (const r of cmp.results) row.push(r.values[i]);
    if (cmp.baseline >= 0) for (const r of cmp.results) row.push(delta(r.values[i], r.values[cmp.baseline], r.better)?.ratio ?? null);
    return row;
  });
  return toCsvText([header, ...rows]);
}

function csvName(r: ResultRow): string {
  if (r.group === "What the server did") return r.key;
  if (r.unit !== "ms") return r.key.replace(/MsgPerSec$/, "_msg_per_s").replace(/MiBPerSec$/, "_mib_per_s");
  const [m, p] = r.key.split(".");
  return `${m}_${p}_ms`;
}

/** JSON: the items (without the heavy distribution/time series unless asked) and the computed rows and notes. */
export function toJson(cmp: Comparison, opts: { url?: string; generatedAt?: string; full?: boolean } = {}) {
  return {
    generatedAt: opts.generatedAt ?? null,
    url: opts.url ?? null,
    baseline: cmp.baseline >= 0 ? cmp.items[cmp.baseline].key : null,
    items: cmp.items.map((c) => (opts.full ? c : { ...c, distribution: undefined, overTime: undefined })),
    results: cmp.results.map((r) => ({
      ...r,
      deltas: r.values.map((v) => (cmp.baseline >= 0 ? delta(v, r.values[cmp.baseline], r.better) : null)),
    })),
    config: cmp.config,
    env: cmp.env,
    notes: cmp.notes,
  };
}

/** Plain-text table for the CLI: the same results table as the page, with Δ against the baseline. */
export function toTextTable(cmp: Comparison): string {
  const { items } = cmp;
  const head = ["metric", ...items.map((c, i) => `${c.label} [${c.badge}]${i === cmp.baseline ? " (baseline)" : ""}`)];
  const body: string[][] = [];
  for (const r of cmp.results) {
    if (r.values.every((v) => v === null)) continue;
    body.push([
      r.label,
      ...r.values.map((v, i) => {
        const s = fmtValue(v, r.unit);
        if (cmp.baseline < 0 || i === cmp.baseline || v === null) return s;
        const d = delta(v, r.values[cmp.baseline], r.better);
        return d ? `${s} (${fmtDelta(d)})` : s;
      }),
    ]);
  }
  const cfg = [...cmp.config, ...cmp.env].filter((r) => r.differs).map((r) => [`≠ ${r.label}`, ...r.values.map((v, i) => fmtAnnotated(v, r.annotations[i]))]);
  const all = [head, ...body, ...(cfg.length ? [head.map(() => ""), ...cfg] : [])];
  // Columns as wide as their head, and as their cells up to 48 characters (longer cells are cut with "…").
  const width = head.map((h, i) => Math.max(h.length, Math.min(48, Math.max(...all.map((r) => (r[i] ?? "").length)))));
  const cut = (c: string, w: number) => (c.length > w ? `${c.slice(0, w - 1)}…` : c);
  const fmt = (r: string[]) =>
    r
      .map((c, i) => (i === 0 ? cut(c, width[i]).padEnd(width[i]) : cut(c, width[i]).padStart(width[i])))
      .join("  ")
      .trimEnd();
  const out = [fmt(head), width.map((w) => "-".repeat(w)).join("  "), ...body.map(fmt)];
  if (cfg.length) out.push("", "Config and environment that differ:", ...cfg.map(fmt));
  if (cmp.notes.length) out.push("", "What makes this comparison unfair:", ...cmp.notes.map((n) => `  ${n.severity === "warn" ? "!" : "-"} ${n.text}`));
  const effects = effectLines(cmp);
  if (effects.length) out.push("", "Known effects beside the deltas:", ...effects.map((e) => `  ! ${e}`));
  return `${out.join("\n")}\n`;
}

// ---------- URL state ----------

/** Everything a /compare view shows, as it is held in the URL so a link reproduces it. */
export interface ViewState {
  ids: string[];
  base: string | null;
  /** Differences-only in the config table. */
  diff: boolean;
  /** Log scale on the latency charts. */
  log: boolean;
  /** Metric of the latency distribution and over-time charts. */
  metric: Metric;
  /** Percentile of the latency-over-time chart. */
  pct: "p50" | "p95" | "p99" | "max";
}

const ID_RE = /^(r_[A-Za-z0-9_-]+|imp_[A-Za-z0-9_-]+|ref:[a-z0-9-]+)$/;

export function parseViewState(sp: Record<string, string | string[] | undefined> | URLSearchParams): ViewState {
  const get = (k: string) => {
    const v = sp instanceof URLSearchParams ? sp.get(k) : sp[k];
    return (Array.isArray(v) ? v[0] : v) ?? null;
  };
  const ids = distinct(
    (get("ids") ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s && ID_RE.test(s)),
  );
  const base = get("base");
  const metric = get("m");
  const pct = get("p");
  return {
    ids,
    base: base && ids.includes(base) ? base : null,
    diff: get("diff") === "1",
    log: get("log") !== "0",
    metric: metric && METRICS().includes(metric) ? metric : "e2e",
    pct: pct === "p50" || pct === "p95" || pct === "p99" || pct === "max" ? pct : "p99",
  };
}

/** The query string for a view (stable order, defaults left out), without "?". */
export function viewQuery(v: ViewState): string {
  const q = new URLSearchParams();
  if (v.ids.length) q.set("ids", v.ids.join(","));
  if (v.base) q.set("base", v.base);
  if (v.diff) q.set("diff", "1");
  if (!v.log) q.set("log", "0");
  if (v.metric !== "e2e") q.set("m", v.metric);
  if (v.pct !== "p99") q.set("p", v.pct);
  return q.toString().replace(/%2C/g, ",").replace(/%3A/g, ":");
}

/**
 * The link to a /compare view: what "Copy link" copies and what the exports print as their link, from this one
 * function. `origin` is where the browser reached the app (see requestOrigin), never a guessed host name.
 */
export function compareUrl(origin: string, v: ViewState): string {
  const q = viewQuery(v);
  return `${origin}/compare${q ? `?${q}` : ""}`;
}

/**
 * The origin a request was made to, as the browser wrote it: its Host header (or a proxy's X-Forwarded-Host),
 * not the URL the route handler is given, whose host can be another name for the server (localhost, while the
 * app listens on 127.0.0.1 only, so a link built from it would not open).
 */
export function requestOrigin(req: { url: string; headers: { get(name: string): string | null } }): string {
  const url = new URL(req.url);
  const first = (v: string | null) => v?.split(",")[0].trim() || null;
  const host = first(req.headers.get("x-forwarded-host")) ?? first(req.headers.get("host")) ?? url.host;
  const proto = first(req.headers.get("x-forwarded-proto")) ?? url.protocol.replace(/:$/, "");
  return `${proto}://${host}`;
}

export function isValidKey(k: string): boolean {
  return ID_RE.test(k);
}
