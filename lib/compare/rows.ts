// The comparison's tables: the config rows (from every workload's field table), the environment rows, the result
// rows (rates, latency percentiles and what the server did, by what the compared workloads declare), and which
// config and environment values differ between the items.
import type { WorkloadDefinition } from "../../workloads/types";
import type { Manifest } from "../measurement/summary";
import { SERVER_FIGURES } from "../telemetry/report";
import { workloadDefinition, workloadDefinitions } from "../workloads/config";
import { type Cell, type Comparable, effectCovers, PCT_LABEL, PERCENTILES, pctsOf, rateKey, rateOf } from "./comparable";
import { comparedMetrics, extraLabel } from "./metrics";

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

/** A run's "Load generator" cell: its runner, or, for a run carried by several runner processes (manifest.parts), how
 *  many and each host once; the cores are the hosts' (the merged manifest adds each host's once). */
export function loadGeneratorCell(mf: Manifest): string {
  const parts = mf.parts ?? [];
  const hosts = [...new Set(parts.map((p) => p.host))];
  const who = parts.length > 1 ? `${parts.length} runner processes on ${hosts.join(", ")}` : `runner on ${mf.runnerHost}`;
  return `${who}: ${mf.runnerCores} cores, ${mf.runnerCpuModel}, Node ${mf.nodeVersion}`;
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
  /** What the row measures: items per second ("items/s", labelled with the operation's own unit: "Write row/s"),
   *  MiB/s or ms; the server rows' own units. */
  unit: "items/s" | "MiB/s" | "ms" | (typeof SERVER_FIGURES)[number]["unit"];
  /** "neither": context (what the server did), shown with its difference but never as better or worse. */
  better: "higher" | "lower" | "neither";
  values: (number | null)[];
  /** Per item: what is known to move its value in this row (its KnownEffects), shown beside the delta. Only
   *  when the comparison mixes kinds of result, where such an effect is a difference in kind. */
  effects: string[][];
}

export function resultRows(items: Comparable[]): ResultRow[] {
  // The rows are what the compared workloads declare (comparedMetrics), so keys read "writePerSec", "e2e.p99";
  // then any figure a published item carries under a name no workload declares ("total").
  const declared = comparedMetrics(items.map((i) => i.workload));
  const rates = [...declared.rates];
  const latencies = [...declared.latencies];
  for (const i of items) {
    for (const k of Object.keys(i.throughput)) {
      const name = k.replace(/(MiB)?PerSec$/, "");
      if (!rates.some((r) => r.name === name))
        rates.push({ name, label: extraLabel(name), unit: rates[0]?.unit ?? "item", perSec: rates[0]?.perSec ?? "item/s" });
    }
    for (const name of Object.keys(i.latency)) if (!latencies.some((l) => l.name === name)) latencies.push({ name, label: extraLabel(name) });
  }
  // A kind of result whose figures move in known ways is compared with another kind: say how, beside the deltas.
  const mixed = distinct(items.map((i) => i.badge)).length > 1;
  const effects = (key: string) => items.map((i) => (mixed ? i.facts.effects.filter((e) => effectCovers(e, key)).map((e) => e.text) : []));
  const row = (r: Omit<ResultRow, "effects">): ResultRow => ({ ...r, effects: effects(r.key) });
  const rows: ResultRow[] = rates.flatMap((o) => [
    row({
      key: rateKey(o.name, "items"),
      group: "Throughput",
      label: `${o.label} ${o.perSec}`,
      unit: "items/s",
      better: "higher",
      values: items.map((i) => rateOf(i, o.name, "items")),
    }),
    row({
      key: rateKey(o.name, "MiB"),
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
    for (const f of SERVER_FIGURES) {
      const values = items.map((i) => i.server?.[f.key] ?? null);
      // A figure no item measured (a standby's waits where none had standbys) is no row: a row of dashes says nothing.
      if (values.every((v) => v === null) && f.onlyWhenMeasured) continue;
      rows.push(row({ key: f.key, group: "What the server did", label: f.label, unit: f.unit, better: "neither", values }));
    }
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

/**
 * The config rows labelled by the compared workloads: a field several workloads share is named by the first
 * compared one that declares it (queued workflows' throttleWritesPerSec is its "Target rate (per s)", not pub/sub's
 * "Write throttle (msg/s)").
 */
export function configRowsFor(kinds: readonly string[]): RowDef[] {
  const label = new Map<string, string>();
  for (const kind of kinds) for (const f of workloadDefinition(kind)?.fields ?? []) if (f.compareLabel && !label.has(f.name)) label.set(f.name, f.compareLabel);
  return configRows().map((r) => ({ ...r, label: label.get(r.key) ?? r.label }));
}

/** Which config fields differ between the items (the config table and its "differences only" toggle). */
export function configDiff(items: Comparable[]): DiffRow[] {
  return diffRows(
    items,
    configRowsFor(items.map((i) => i.workload)),
    (c) => c.config,
    (c) => c.annotations,
  );
}
export function envDiff(items: Comparable[]): DiffRow[] {
  return diffRows(items, ENV_ROWS, (c) => c.env);
}

const distinct = <T>(xs: T[]) => [...new Set(xs)];
