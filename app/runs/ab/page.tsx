import type { Metadata } from "next";
import { AbView } from "@/components/run/AbView";
import { abPageData } from "@/lib/compare/ab-page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Baseline and modded · pg-broker-bench" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

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

/** /runs/ab?group=ab_…: the runs of "Run baseline and modded", followed live, then each measure with its interval. */
export default async function AbPage({ searchParams }: Props) {
  const sp = await searchParams;
  const one = (k: string) => (Array.isArray(sp[k]) ? sp[k][0] : sp[k]) ?? "";
  const data = await abPageData(one);
  if ("problem" in data) return <Problem text={data.problem} />;
  // The browser gets the runs without their summaries: the figures it shows are `stats`.
  const query = data.groupId ? `group=${data.groupId}` : `baseline=${data.slots[0].runId}&modded=${data.slots[1].runId}`;
  return (
    <AbView
      groupId={data.groupId}
      slots={data.slots}
      initial={data.views}
      stats={data.stats}
      labels={data.labels}
      exportHref={`/api/runs/ab/report.html?${query}`}
    />
  );
}
