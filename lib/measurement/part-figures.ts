// What each runner process ("part") of a run did, kept beside the run's merged figures: a sample's and a summary's
// `processes` and a summary's manifest `parts` (lib/measurement/parts.ts and merge-summaries.ts build them). The merged figures are exact (histograms
// added); these say per part what a merge hides: its rates, its own load, and where and when it started, so the
// client check can be per part (one starved part is named, `worst`). Browser-safe.
import { z } from "zod";
import { SampleRunnerLoad, SummaryRunnerLoad } from "./runner-load";

/** When a part started and how its clock stood: ms after the start barrier, and its clock against the target's
 *  (measured by the part; latencies crossing hosts are corrected by it before they are recorded). */
const PartClock = {
  /** How late the part started its load after the barrier's instant, in ms (its start skew). */
  startSkewMs: z.number(),
  /** The part's clock minus the target's clock, in ms. */
  clockOffsetMs: z.number(),
};

/** One part in one second. */
export const SamplePart = z.object({
  part: z.number().int().nonnegative(),
  /** Its operations' rates over its own interval, by name (items/s). */
  perSecond: z.record(z.string(), z.number()),
  runnerLoad: SampleRunnerLoad.optional(),
  ...PartClock,
});
export type SamplePart = z.infer<typeof SamplePart>;

/** A merged second's parts, and the part whose load was the worst (null when no part measured its load). */
export const SampleParts = z.object({ parts: z.array(SamplePart), worst: z.number().int().nullable() });
export type SampleParts = z.infer<typeof SampleParts>;

/** One part over the run: the manifest's per-part lines. */
export const SummaryPart = z.object({
  part: z.number().int().nonnegative(),
  host: z.string(),
  pid: z.number().int(),
  ...PartClock,
  /**
   * A part on another host: how far its clock moved against the coordinator's between the start (where the
   * correction was measured and applied, once) and the end of its load, both measured against the target's clock.
   * Latencies it timed from another host's stamps carry up to this much error. Absent for a part on the
   * coordinator's host (one clock) and on runs before it was measured.
   */
  clockDriftMs: z.number().optional(),
  startedAt: z.string(),
  endedAt: z.string(),
  /** Its own measured window's real length (s), which its rates are over. */
  measuredSeconds: z.number(),
  /** Its operations' rates over its own measured window, by name. */
  perSecond: z.record(z.string(), z.number()),
  runnerCpuSeconds: z.number(),
  runnerLoad: SummaryRunnerLoad.optional(),
});
export type SummaryPart = z.infer<typeof SummaryPart>;

/** How loaded a part was, for ranking: bound first, then its wait for a CPU, its loop delay, its CPU. */
export interface LoadRank {
  part: number;
  bound: boolean;
  runQueueWaitMsPerSec?: number;
  delayMs: number;
  cpuCores: number;
}

/** The part whose load was the worst (the one the client check names), or null when none is ranked. */
export function worstPart(ranks: readonly LoadRank[]): number | null {
  const key = (r: LoadRank) => [r.bound ? 1 : 0, r.runQueueWaitMsPerSec ?? 0, r.delayMs, r.cpuCores];
  let best: LoadRank | undefined;
  for (const r of ranks) {
    const a = key(r);
    const b = best ? key(best) : undefined;
    const i = b ? a.findIndex((v, j) => v !== b[j]) : 0;
    if (!b || (i >= 0 && a[i] > b[i])) best = r;
  }
  return best ? best.part : null;
}
