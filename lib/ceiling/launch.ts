// Starting a ceiling search from the browser or the API: the same checks as launching a run (lib/targets/launch.ts),
// plus the search's settings checked against the workload; then the search is queued for a runner.
// Server-only. Every refusal is a value with field messages, as a run's.
import { prisma, type PrismaClient } from "../db";
import { readEnv } from "../env";
import { checkLaunch, insertOrConflict, type LaunchRefusal } from "../targets/launch";
import { rateKnobOrProblem } from "./rate";
import { parseCeilingSettings } from "./settings";
import { createSearch } from "./store";
import { LABEL_KEYS, parseLabels } from "../runs/labels";

export type CeilingLaunchResult = { ok: true; id: string } | LaunchRefusal;

/** `input` is the POST body: { config, settings, targetId? }. */
export async function launchCeiling(
  input: Record<string, unknown>,
  db: PrismaClient = prisma(),
  memoryBudgetMb: number = readEnv().RUNNER_MEMORY_BUDGET_MB,
): Promise<CeilingLaunchResult> {
  const settingsInput = input.settings;
  if (settingsInput === undefined || settingsInput === null || typeof settingsInput !== "object" || Array.isArray(settingsInput))
    return {
      ok: false,
      error: "invalid settings",
      fields: {
        settings: `settings ${settingsInput === undefined ? "is required" : "must be an object"}: an object such as {"slo":"p99<50ms","stepSeconds":30}`,
      },
    };
  const labels = parseLabels(input);
  if (!labels.ok) return { ok: false, error: `invalid ${Object.keys(labels.fields).join(" and ")}`, fields: labels.fields };
  const checked = await checkLaunch(input, ["config", "settings", "targetId", ...LABEL_KEYS], db, memoryBudgetMb);
  if (!checked.ok) return checked;
  const knob = rateKnobOrProblem(checked.config.kind);
  if (!knob.ok) return { ok: false, error: "no rate to raise", fields: { kind: knob.message } };
  const settings = parseCeilingSettings(settingsInput, checked.config.kind);
  if (!settings.ok) return { ok: false, error: "invalid settings", fields: settings.errors };
  const s = await insertOrConflict(checked.target, () =>
    createSearch(
      { config: checked.config, settings: settings.settings, targetId: checked.target.storedId, targetLabel: checked.target.name, labels: labels.labels },
      db,
    ),
  );
  if (!s.ok) return s;
  return { ok: true, id: s.row.id };
}
