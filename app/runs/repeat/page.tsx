import type { Metadata } from "next";
import { RepeatView } from "@/components/run/RepeatView";
import { RepeatGroupId } from "@/lib/api/ids";
import { parseSummary, type RunView, toRunView } from "@/lib/runs/view";
import { repeatRows } from "@/lib/repeat/stats";
import { getRepeatGroup } from "@/lib/repeat/store";
import { getRun } from "@/lib/runs/store";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Repeated set · pg-broker-bench" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };
const FINAL = new Set(["completed", "failed", "cancelled", "interrupted"]);

function Problem({ text }: { text: string }) {
  return (
    <main className="stack">
      <h1>Repeated set</h1>
      <p className="field-error" role="alert">
        {text}
      </p>
    </main>
  );
}

/** /runs/repeat?group=rp_…: a repeated set's runs, followed live, then each figure with its spread and the interval of its median. */
export default async function RepeatPage({ searchParams }: Props) {
  const sp = await searchParams;
  const raw = Array.isArray(sp.group) ? sp.group[0] : sp.group;
  const id = RepeatGroupId.safeParse(raw ?? "");
  if (!id.success) return <Problem text={`This page needs a repeated set (/runs/repeat?group=rp_…): ${id.error.issues[0].message}.`} />;
  const g = await getRepeatGroup(id.data);
  if (!g) return <Problem text={`Repeated set ${id.data} does not exist. The runs list has every run.`} />;
  const runs = await Promise.all(g.runIds.map((r) => getRun(r)));
  const done = runs.every((r) => !r || FINAL.has(r.status));
  const summaries = done ? runs.flatMap((r) => (r?.status === "completed" ? [parseSummary(r.summary)].filter((s) => s !== null) : [])) : [];
  // The browser gets the runs without their summaries: the figures it shows are `rows`.
  const views: (RunView | null)[] = runs.map((r) => (r ? toRunView(r) : null));
  return (
    <RepeatView groupId={g.id} labels={g.labels} runIds={g.runIds} initial={views} rows={done ? repeatRows(summaries) : null} completed={summaries.length} />
  );
}
