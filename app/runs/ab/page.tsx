import type { Metadata } from "next";
import { AbView } from "@/components/run/AbView";
import { AbGroupId, RunId } from "@/lib/api/ids";
import type { AbSlot } from "@/lib/compare/ab-order";
import { abStats, completedPairs } from "@/lib/compare/ab-stats";
import { getAbGroup } from "@/lib/compare/ab-store";
import { getRun } from "@/lib/runs/store";
import type { Labels } from "@/lib/runs/labels";
import { type RunView, toRunView } from "@/lib/runs/view";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Baseline and modded · pg-broker-bench" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };
const FINAL = new Set(["completed", "failed", "cancelled", "interrupted"]);

function Problem({ text }: { text: string }) {
  return (
    <main className="stack">
      <h1>Baseline and modded</h1>
      <p className="field-error" role="alert">
        {text}
      </p>
    </main>
  );
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

/** /runs/ab?group=ab_…: the runs of "Run baseline and modded", followed live, then each measure with its interval. */
export default async function AbPage({ searchParams }: Props) {
  const sp = await searchParams;
  const one = (k: string) => (Array.isArray(sp[k]) ? sp[k][0] : sp[k]) ?? "";
  const found = await slotsOf(one);
  if ("problem" in found) return <Problem text={found.problem} />;
  const rows = await Promise.all(found.slots.map((s) => getRun(s.runId)));
  const missing = found.slots.filter((_, i) => !rows[i]).map((s) => s.runId);
  if (missing.length === found.slots.length) return <Problem text={`Run ${missing.join(" and ")} does not exist (deleted?). The runs list has every run.`} />;
  const full = new Map(rows.flatMap((r) => (r ? [[r.id, toRunView(r, { withSummary: true, withHistograms: true })] as const] : [])));
  const done = found.slots.every((s) => FINAL.has(full.get(s.runId)?.status ?? "completed"));
  const { pairs, leftOut } = completedPairs(found.slots, (id) => full.get(id));
  const stats = done && pairs.length ? abStats(pairs, leftOut) : null;
  // The browser gets the runs without their summaries: the figures it shows are `stats`.
  const views: (RunView | null)[] = rows.map((r) => (r ? toRunView(r) : null));
  return <AbView groupId={found.groupId} slots={found.slots} initial={views} stats={stats} labels={found.labels} />;
}
