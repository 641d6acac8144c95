// Whether a finished run met the rate it was asked for, in one short mark with who fell behind: a sweep's point
// (workloads/queued-workflows/sweep.ts) carries it beside its numbers, so a curve never hides its limit.
import type { RunSummary } from "../measurement/summary";
import { latencyOf, throughputOf } from "../measurement/operations";
import { definitionOf, pacingOf } from "../workloads/config";
import { isPaced, PACE_THRESHOLDS, paceSpecOf } from "./pace";
import { doersOf, plural } from "./pace-rules";
import { CATEGORY_LABELS } from "./verdict";

/** The verdict's categories that name who limited a run that fell behind its schedule. */
const LIMITS = new Set([
  "client-bound",
  "lock-contention-bound",
  "wal-flush-bound",
  "replication-bound",
  "io-bound-server",
  "cpu-bound-server",
  "autovacuum-pressure",
]);

const num = (x: number) => Math.round(x).toLocaleString("en-US");

/**
 * "met" when the run reached PACE_THRESHOLDS.rateAchieved of its rate; "missed: …" with the share, the asked rate
 * and who fell behind (the limit the verdict named, or the writers and how far behind schedule); null for a run
 * that was asked for no rate.
 */
export function paceMark(s: RunSummary): string | null {
  const spec = paceSpecOf(pacingOf(s.config), definitionOf(s.config).metrics);
  if (!isPaced(spec)) return null;
  const achieved = throughputOf(s, spec.operation)?.perSecond ?? 0;
  const share = achieved / spec.targetPerSec!;
  if (share >= PACE_THRESHOLDS.rateAchieved) return "met";
  const doers = spec.kind === "open-loop" ? `the open loop's ${plural(spec)}` : `the ${doersOf(spec)}`;
  const lagMs = (spec.writerLag ? latencyOf(s, spec.writerLag)?.max : undefined) ?? (spec.scheduled ? latencyOf(s, spec.scheduled)?.max : undefined);
  const behind = lagMs !== undefined ? ` (up to ${(lagMs / 1000).toFixed(1)} s behind schedule)` : "";
  const category = s.telemetry?.verdict.category;
  const limit = category && LIMITS.has(category) ? `; limit: ${CATEGORY_LABELS[category]}` : "";
  return `missed: ${Math.round(share * 100)}% of ${num(spec.targetPerSec!)} ${spec.unit}/s; ${doers} fell behind${behind}${limit}`;
}
