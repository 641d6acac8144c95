// What a ceiling search's page shows, read once for the page (app/ceilings/[id]) and its exported report alike:
// the search, the workload's other searches, and the command that repeats it. Server-only (the control store).
import { otherCeiling, type OtherCeiling } from "./answer";
import { ceilingCommand } from "./command";
import { getSearch, listSearches } from "./store";
import { type CeilingView, toCeilingView } from "./view";
import { type CliTarget, defaultTargetForCli } from "../targets/default-target";
import { currentDefaultTargetName, resolveTarget } from "../targets/store";

/** The search `id` as its page shows it; null when there is no such search. */
export async function ceilingPageData(id: string): Promise<{ view: CeilingView; others: OtherCeiling[]; command: string } | null> {
  const row = await getSearch(id);
  if (!row) return null;
  const view = toCeilingView(row);
  const others = (await listSearches({ workload: view.workload }))
    .filter((o) => o.id !== id)
    .map(toCeilingView)
    .map(otherCeiling);
  // The answer and the published figures beside it are built from the search as it stands, each time it is read
  // (lib/ceiling/answer.ts), never once here.
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
  return { view, others, command: ceilingCommand(view.config, view.settings, cli.targetUrl, cli.env) };
}
