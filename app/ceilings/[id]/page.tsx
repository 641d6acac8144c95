import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CeilingPage } from "@/components/ceiling/CeilingPage";
import { otherCeiling } from "@/lib/ceiling/answer";
import { ceilingCommand } from "@/lib/ceiling/command";
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
  const others = (await listSearches({ workload: view.workload }))
    .filter((o) => o.id !== id)
    .map(toCeilingView)
    .map(otherCeiling);
  // The answer and the published figures beside it are built in the page from the search as it stands, each
  // time it is read (lib/ceiling/answer.ts), never once here.
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
  return <CeilingPage initial={view} others={others} command={command} />;
}
