import type { Metadata } from "next";
import { AbView } from "@/components/run/AbView";
import { RunId } from "@/lib/api/ids";
import { toRunView } from "@/lib/runs/view";
import { getRun } from "@/lib/runs/store";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Baseline and modded · pg-broker-bench" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** /runs/ab?baseline=r_…&modded=r_…: the two runs of "Run baseline and modded", followed live, then compared. */
export default async function AbPage({ searchParams }: Props) {
  const sp = await searchParams;
  const one = (k: string) => (Array.isArray(sp[k]) ? sp[k][0] : sp[k]) ?? "";
  const ids = { baseline: RunId.safeParse(one("baseline")), modded: RunId.safeParse(one("modded")) };
  if (!ids.baseline.success || !ids.modded.success)
    return (
      <main className="stack">
        <h1>Baseline and modded</h1>
        <p className="field-error" role="alert">
          This page needs two run ids: /runs/ab?baseline=r_…&amp;modded=r_… ({(ids.baseline.success ? ids.modded : ids.baseline).error?.issues[0].message}).
        </p>
      </main>
    );
  const [b, m] = await Promise.all([getRun(ids.baseline.data), getRun(ids.modded.data)]);
  const missing = [b ? null : ids.baseline.data, m ? null : ids.modded.data].filter(Boolean);
  if (!b || !m)
    return (
      <main className="stack">
        <h1>Baseline and modded</h1>
        <p className="field-error" role="alert">
          Run {missing.join(" and ")} does not exist (deleted?). The runs list has every run.
        </p>
      </main>
    );
  return <AbView initial={{ baseline: toRunView(b, { withSummary: true }), modded: toRunView(m, { withSummary: true }) }} />;
}
