// What the A/B page (app/runs/ab) shows, read once for the page and its exported report alike: the slots (a recorded
// group's, or one pair from an older link), the runs' views, and, once every run has ended, the figures of the pairs
// that completed. Server-only (the control store).
import { AbGroupId, RunId } from "../api/ids";
import type { Labels } from "../runs/labels";
import { getRun } from "../runs/store";
import { type RunView, toRunView } from "../runs/view";
import type { AbSlot } from "./ab-order";
import { type AbStats, abStats, completedPairs } from "./ab-stats";
import { getAbGroup } from "./ab-store";

const FINAL = new Set(["completed", "failed", "cancelled", "interrupted"]);

export interface AbPageData {
  groupId: string | null;
  slots: AbSlot[];
  /** The runs without their summaries (the browser's): the figures shown are `stats`. */
  views: (RunView | null)[];
  stats: AbStats | null;
  /** The recorded group's name, tags and notes (an older link's pair has none, and nothing to save them to). */
  labels?: Labels;
}

/** The slots to show: the recorded group's (?group=ab_…), or one pair from an older link (?baseline=r_…&modded=r_…). */
async function slotsOf(one: (k: string) => string): Promise<{ groupId: string | null; slots: AbSlot[]; labels?: Labels } | { problem: string }> {
  if (one("group")) {
    const id = AbGroupId.safeParse(one("group"));
    if (!id.success) return { problem: id.error.issues[0].message };
    const g = await getAbGroup(id.data);
    return g ? { groupId: g.id, slots: g.slots, labels: g.labels } : { problem: `A/B ${id.data} does not exist. The runs list has every run.` };
  }
  const b = RunId.safeParse(one("baseline"));
  const m = RunId.safeParse(one("modded"));
  if (!b.success || !m.success)
    return {
      problem: `This page needs an A/B group (/runs/ab?group=ab_…) or two run ids (/runs/ab?baseline=r_…&modded=r_…): ${(b.success ? m : b).error?.issues[0].message}.`,
    };
  return {
    groupId: null,
    slots: [
      { pair: 1, variant: "baseline", runId: b.data },
      { pair: 1, variant: "modded", runId: m.data },
    ],
  };
}

/** The A/B asked by the query's `one(key)`, or the problem to show (a bad or unknown group, runs all gone). */
export async function abPageData(one: (k: string) => string): Promise<AbPageData | { problem: string }> {
  const found = await slotsOf(one);
  if ("problem" in found) return found;
  const rows = await Promise.all(found.slots.map((s) => getRun(s.runId)));
  const missing = found.slots.filter((_, i) => !rows[i]).map((s) => s.runId);
  if (missing.length === found.slots.length) return { problem: `Run ${missing.join(" and ")} does not exist (deleted?). The runs list has every run.` };
  const full = new Map(rows.flatMap((r) => (r ? [[r.id, toRunView(r, { withSummary: true, withHistograms: true })] as const] : [])));
  const done = found.slots.every((s) => FINAL.has(full.get(s.runId)?.status ?? "completed"));
  const { pairs, leftOut } = completedPairs(found.slots, (id) => full.get(id));
  const stats = done && pairs.length ? abStats(pairs, leftOut) : null;
  return { groupId: found.groupId, slots: found.slots, views: rows.map((r) => (r ? toRunView(r) : null)), stats, labels: found.labels };
}
