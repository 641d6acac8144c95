// Runs stored in the old shape (summary schemaVersion 1, samples without `operations`), converted when read, so every
// reader (pages, compare, exports, CLI, importer, live view) sees only the declared operations. The old shape carried a
// broker's fixed fields: `writes`, `reads` (with `perGroup` and `emptyPolls`), `groups`, `backlog`, `latencyMs` by name,
// `rates` of the other operations, and `totals.writes/reads/unreadAtEnd/drainSeconds`. Nothing is recomputed: each
// stored number moves to its place in the new shape (percentiles and histograms as they were).
import { type GroupFigures, type LatencyKind, type LatencyStats, latencyAddress, type OperationFigures, type Operations } from "./metrics";

interface OldThroughput {
  count: number;
  msgPerSec: number;
  mibPerSec: number;
  errors: number;
  emptyPolls?: number;
}
type OldLatencies = Partial<Record<string, LatencyStats>>;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether a stored sample's metrics are of the old shape (they have no `operations`). */
export const isOldSample = (m: unknown): m is Record<string, unknown> => isRecord(m) && !("operations" in m) && "writes" in m;
/** Whether a stored summary is of the old shape. */
export const isOldSummary = (s: unknown): s is Record<string, unknown> => isRecord(s) && s.schemaVersion === 1;

/** Old rates keep their bytes as MiB/s: back to the payload bytes of the counted items (msg/s × payload / 2^20). */
function bytesOf(t: OldThroughput): number | undefined {
  if (!(t.mibPerSec > 0) || !(t.msgPerSec > 0)) return undefined;
  return Math.round((t.mibPerSec * 1048576) / t.msgPerSec) * t.count;
}

function figures(t: OldThroughput | undefined, counterKeys: string[] = []): OperationFigures {
  const out: OperationFigures = { count: t?.count ?? 0, perSecond: t?.msgPerSec ?? 0, errors: t?.errors ?? 0, latency: {} };
  const bytes = t && bytesOf(t);
  if (bytes !== undefined) out.bytes = bytes;
  const counters = Object.fromEntries(counterKeys.filter((k) => typeof t?.[k as "emptyPolls"] === "number").map((k) => [k, t?.[k as "emptyPolls"] as number]));
  if (Object.keys(counters).length) out.counters = counters;
  return out;
}

/**
 * The operations of one old sample or summary. `seconds`: its interval's or window's real length, for the
 * operations the old shape timed but did not count (claim, e2e: their count is their latency samples').
 * `keep(name)`: whether an old broker counter (write, read) belongs to the workload (the summary asks its
 * declaration; a sample, which does not know its workload, keeps them).
 */
function operationsOf(
  o: { writes?: OldThroughput; reads?: OldThroughput; rates?: Record<string, OldThroughput>; latencyMs?: OldLatencies },
  seconds: number,
  keep: (name: string) => boolean,
): Operations {
  const ops: Operations = {};
  if (o.writes && keep("write")) ops.write = figures(o.writes);
  if (o.reads && keep("read")) ops.read = figures(o.reads, ["emptyPolls"]);
  // A scheduled variant counted as an operation of its own (workflowScheduled) is its operation's latency only.
  for (const [name, t] of Object.entries(o.rates ?? {})) if (latencyAddress(name).kind === "fromSend") ops[name] = figures(t);
  addLatencies(ops, o.latencyMs ?? {}, seconds);
  return ops;
}

/** Puts each old latency under its operation and kind; an operation known only by its latency is counted by it. */
function addLatencies(ops: Operations, latencyMs: OldLatencies, seconds: number) {
  for (const [name, stats] of Object.entries(latencyMs)) {
    if (!stats) continue;
    const { operation, kind } = latencyAddress(name);
    ops[operation] ??= { count: stats.count, perSecond: seconds > 0 ? stats.count / seconds : 0, errors: 0, latency: {} };
    ops[operation].latency[kind] = stats;
  }
}

/** Old sample metrics → new. */
export function upgradeSampleMetrics(m: Record<string, unknown>): Record<string, unknown> {
  const { writes, reads, groups, backlog, latencyMs, rates, ...rest } = m as Record<string, never>;
  const seconds = typeof rest.intervalSec === "number" ? rest.intervalSec : 0;
  const oldGroups = (groups ?? []) as { group: string; msgPerSec: number; backlog: number }[];
  const newGroups: GroupFigures[] = oldGroups.map((g) => ({
    group: g.group,
    operations: { read: { count: Math.round(g.msgPerSec * seconds), perSecond: g.msgPerSec, errors: 0, latency: {} } },
    measures: { backlog: g.backlog },
  }));
  return {
    ...rest,
    operations: operationsOf({ writes, reads, rates, latencyMs }, seconds, () => true),
    ...(newGroups.length ? { groups: newGroups } : {}),
    measures: { backlog: backlog ?? 0 },
  };
}

/** Old histogram keys: "write", "writeScheduled", "writerLag", "e2e:g0" (a group's), … → per operation and kind. */
type Histograms = Record<string, Partial<Record<LatencyKind, string>>>;
function nestHistograms(old: Record<string, string>): { run: Histograms; groups: Record<string, Histograms> } {
  const run: Histograms = {};
  const groups: Record<string, Histograms> = {};
  for (const [key, b64] of Object.entries(old)) {
    const [name, group] = key.split(":");
    const { operation, kind } = latencyAddress(name);
    const into = group === undefined ? run : (groups[group] ??= {});
    (into[operation] ??= {})[kind] = b64;
  }
  return { run, groups };
}

/**
 * Old summary → new (schemaVersion 2). `declares(name)`: whether the run's workload declares an operation of that
 * name; the old broker counters `writes` and `reads`, which every old summary carried (zeros for workloads without
 * them), are kept only for a workload that declares them.
 */
export function upgradeSummary(
  s: Record<string, unknown>,
  declares: (name: string) => boolean,
  unitOf: (name: string) => string | undefined,
): Record<string, unknown> {
  const { writes, reads, latencyMs, rates, totals, histograms, manifest, schemaVersion: _v, ...rest } = s as Record<string, never>;
  const window = (s.window ?? {}) as { measuredSeconds?: number };
  const seconds = window.measuredSeconds ?? 0;
  const oldReads = (reads ?? {}) as OldThroughput & { perGroup?: (OldThroughput & { group: string; latencyMs: OldLatencies })[] };
  const keep = (name: string) => declares(name) || ((name === "write" ? (writes as OldThroughput | undefined)?.count : oldReads.count) ?? 0) > 0;
  const nested = nestHistograms((histograms ?? {}) as Record<string, string>);
  const groups = (oldReads.perGroup ?? []).map((g): GroupFigures & { histograms?: Histograms } => {
    const ops: Operations = { read: figures(g, ["emptyPolls"]) };
    addLatencies(ops, g.latencyMs ?? {}, seconds);
    // addLatencies put read's own latency beside its counts; the group's figures are complete.
    return { group: g.group, operations: ops, ...(nested.groups[g.group] ? { histograms: nested.groups[g.group] } : {}) };
  });
  const t = totals as { writes: number; reads: number; unreadAtEnd: number; drainSeconds: number; operations?: Record<string, number> } | undefined;
  const m = manifest as Record<string, unknown> & { runnerCpuMsPer1000Msgs?: number };
  const { runnerCpuMsPer1000Msgs: perMsgs, ...manifestRest } = m ?? {};
  const counted = ["write", "read"].filter(keep);
  const operations = operationsOf({ writes, reads: oldReads, rates, latencyMs }, seconds, keep);
  // The old engine stored an empty histogram of the broker's names for every workload: only the run's own stay.
  const runHistograms = Object.fromEntries(Object.entries(nested.run).filter(([name]) => name in operations));
  const totalOps = Object.entries(t?.operations ?? {}).filter(([name]) => latencyAddress(name).kind === "fromSend");
  return {
    schemaVersion: 2,
    ...rest,
    manifest: {
      ...manifestRest,
      // The old figure was per 1,000 messages written and read: kept with those words when it was measured.
      ...(perMsgs && counted.length ? { runnerCpuMsPer1000: { ms: perMsgs, unit: unitOf(counted[0]) ?? "msg", operations: counted } } : {}),
    },
    operations,
    ...(groups.length ? { groups } : {}),
    ...(t
      ? {
          totals: {
            operations: { ...(keep("write") ? { write: t.writes } : {}), ...(keep("read") ? { read: t.reads } : {}), ...Object.fromEntries(totalOps) },
            measures: { ...(groups.length || t.unreadAtEnd > 0 ? { unreadAtEnd: t.unreadAtEnd } : {}), drainSeconds: t.drainSeconds },
          },
        }
      : {}),
    histograms: runHistograms,
  };
}
