import type { Metadata } from "next";
import { LadderView } from "@/components/run/LadderView";
import { LadderGroupId } from "@/lib/api/ids";
import { ladderStats } from "@/lib/ladder/stats";
import { getLadderGroup } from "@/lib/ladder/store";
import { getRun } from "@/lib/runs/store";
import { type RunView, toRunView } from "@/lib/runs/view";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Synchronous commit ladder · pg-broker-bench" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };
const FINAL = new Set(["completed", "failed", "cancelled", "interrupted"]);

function Problem({ text }: { text: string }) {
  return (
    <main className="stack">
      <h1>Synchronous commit ladder</h1>
      <p className="field-error" role="alert">
        {text}
      </p>
    </main>
  );
}

/** /runs/ladder?group=sc_…: a synchronous commit ladder's runs, followed live, then each level's figures with their intervals. */
export default async function LadderPage({ searchParams }: Props) {
  const sp = await searchParams;
  const raw = Array.isArray(sp.group) ? sp.group[0] : sp.group;
  const id = LadderGroupId.safeParse(raw ?? "");
  if (!id.success) return <Problem text={`This page needs a ladder (/runs/ladder?group=sc_…): ${id.error.issues[0].message}.`} />;
  const g = await getLadderGroup(id.data);
  if (!g) return <Problem text={`Ladder ${id.data} does not exist. The runs list has every run.`} />;
  const rows = await Promise.all(g.slots.map((s) => getRun(s.runId)));
  const full = new Map(rows.flatMap((r) => (r ? [[r.id, toRunView(r, { withSummary: true, withHistograms: true })] as const] : [])));
  const done = g.slots.every((s) => FINAL.has(full.get(s.runId)?.status ?? "completed"));
  const stats = done ? ladderStats(g.slots, (runId) => full.get(runId)) : null;
  // The browser gets the runs without their summaries: the figures it shows are `stats`.
  const views: (RunView | null)[] = rows.map((r) => (r ? toRunView(r) : null));
  return <LadderView groupId={g.id} slots={g.slots} initial={views} stats={stats} labels={g.labels} />;
}
