import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CeilingPage, type OtherCeiling } from "@/components/ceiling/CeilingPage";
import { ceilingCommand } from "@/lib/ceiling/command";
import { publishedBeside } from "@/lib/ceiling/published";
import { sloOf } from "@/lib/ceiling/settings";
import { getSearch, listSearches } from "@/lib/ceiling/store";
import { toCeilingView } from "@/lib/ceiling/view";
import { type CliTarget, defaultTargetForCli } from "@/lib/targets/default-target";
import { CeilingId } from "@/lib/api/ids";
import { currentDefaultTargetName, resolveTarget } from "@/lib/targets/store";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  return { title: `Ceiling search ${id} · pg-broker-bench` };
}

/** /ceilings/<id>: one ceiling search, live while it runs. */
export default async function CeilingRoute({ params }: Props) {
  const { id } = await params;
  if (!CeilingId.safeParse(id).success) notFound();
  const row = await getSearch(id);
  if (!row) notFound();
  const view = toCeilingView(row);
  const others: OtherCeiling[] = (await listSearches({ workload: view.workload }))
    .filter((o) => o.id !== id)
    .map(toCeilingView)
    .map((o) => ({
      id: o.id,
      status: o.status,
      createdAt: o.createdAt,
      config: o.config,
      slo: o.settings.slo,
      metric: o.steps[0]?.goal.label ?? o.settings.metric ?? "delivery",
      targetLabel: o.targetLabel,
      ceiling: o.result?.ceiling ?? null,
      bracketHigh: o.result?.bracket.high ?? null,
      points: o.steps.map((s) => ({ target: s.rate, achieved: +s.achievedRate.toFixed(1), p99: s.goal.stats?.p99 ?? null })),
    }));
  const metricLabel = view.steps[0]?.goal.label ?? view.settings.metric ?? "delivery";
  const published = publishedBeside(view.workload, view.config as Record<string, unknown>, view.result?.ceiling ?? null, sloOf(view.settings), metricLabel);
  // The command reaches the search's target as a run's does: the default one as this project's CLI finds it, a
  // saved one by its masked URL (the reader types the password).
  // A search on the default target stores no target id (as a run); one whose saved target was deleted neither,
  // but its label is not the default's.
  const onDefault = view.targetId === null && view.targetLabel === currentDefaultTargetName();
  const saved = view.targetId ? await resolveTarget(view.targetId) : null;
  const cli: CliTarget = onDefault
    ? defaultTargetForCli()
    : saved
      ? { targetUrl: saved.maskedUrl }
      : { targetUrl: `<connection string of ${view.targetLabel}>` };
  const command = ceilingCommand(view.config, view.settings, cli.targetUrl, cli.env);
  return <CeilingPage initial={view} published={published} others={others} command={command} />;
}
