// Launching a run from the browser or the API: validate the config with the shared schema, resolve the
// target, check it answers and has room for the run's connections, then queue the run. Every refusal is a
// value with field messages, never an exception, so the form and the API show the same words.
import { prisma, type PrismaClient } from "../db";
import { quoteInput, TargetId } from "../api/ids";
import { createRun } from "../runs/store";
import { budgetProblem } from "./capacity";
import { readEnv } from "../env";
import { memoryProblem } from "../workloads/memory";
import { partsProblem } from "../workloads/parts";
import { runnerCores } from "../status/runners";
import { controlStoreIdentity, resolveTarget, targetInfo, type TargetInfo } from "./store";
import { parseConfig, workloadDefinitions, type WorkloadConfig } from "../workloads/config";
import { LABEL_KEYS, parseLabels } from "../runs/labels";

/** A refusal; `status` 409 when the request was fine but the state changed under it (its target was deleted). */
export type LaunchRefusal = { ok: false; error: string; fields: Record<string, string>; status?: 409 };

/** `targetInfo` is null for a target with nothing to probe yet (the embedded replicated one before its first run). */
export type LaunchResult = { ok: true; id: string; config: WorkloadConfig; targetInfo: TargetInfo | null } | LaunchRefusal;

/** Tests only: runs between a launch's checks and its insert, to delete the target there deterministically. */
export const launchTestHooks: { afterCheck?: () => Promise<void> } = {};

/**
 * The insert of a launch whose saved target was deleted after the checks fails on the foreign key (Prisma
 * P2003): that is a conflict with the deletion, answered 409 naming the target, not a 500 quoting Prisma.
 */
export async function insertOrConflict<T>(
  target: { storedId: string | null; name: string },
  insert: () => Promise<T>,
): Promise<{ ok: true; row: T } | LaunchRefusal> {
  try {
    return { ok: true, row: await insert() };
  } catch (err) {
    if (!target.storedId || (err as { code?: string }).code !== "P2003") throw err;
    return {
      ok: false,
      status: 409,
      error: "target deleted",
      fields: {
        targetId: `target "${target.name}" (${target.storedId}) was deleted while this was being launched; choose another target (GET /api/targets lists them) and launch again`,
      },
    };
  }
}

/**
 * The message for a config that is not an object at all (missing, null, a text, an array), named as "config" (the
 * workload schema would answer with "_"); null for an object, which the workload schema then reads field by field.
 */
export function configShapeProblem(config: unknown): string | null {
  if (config !== undefined && config !== null && typeof config === "object" && !Array.isArray(config)) return null;
  return `config ${config === undefined ? "is required" : "must be an object"}: an object such as {"kind":"${workloadDefinitions()[0].kind}"}`;
}

/**
 * `input` is the POST body: { config, targetId?, name?, notes?, tags? }. `memoryBudgetMb`: the runner's
 * (RUNNER_MEMORY_BUDGET_MB). The labels are checked first: a bad tag costs no connection to the target.
 */
export async function launchRun(
  input: Record<string, unknown>,
  db: PrismaClient = prisma(),
  memoryBudgetMb: number = readEnv().RUNNER_MEMORY_BUDGET_MB,
): Promise<LaunchResult> {
  const labels = parseLabels(input);
  if (!labels.ok) return { ok: false, error: `invalid ${Object.keys(labels.fields).join(" and ")}`, fields: labels.fields };
  const checked = await checkLaunch(input, ["config", "targetId", ...LABEL_KEYS], db, memoryBudgetMb);
  if (!checked.ok) return checked;
  const run = await insertOrConflict(checked.target, () =>
    createRun({ config: checked.config, targetId: checked.target.storedId, targetLabel: checked.target.name, labels: labels.labels }, db),
  );
  if (!run.ok) return run;
  return { ok: true, id: run.row.id, config: checked.config, targetInfo: checked.targetInfo };
}

/**
 * `processes: "auto"` is the cores of the runner that will take the run (the newest live runner's, as the form's
 * auto), resolved here so the stored config holds the number; refused when no live runner has recorded them.
 */
async function autoProcesses(config: Record<string, unknown>, db: PrismaClient): Promise<{ ok: true; config: Record<string, unknown> } | LaunchRefusal> {
  if (typeof config.processes !== "string" || config.processes.trim().toLowerCase() !== "auto") return { ok: true, config };
  const cores = await runnerCores(db);
  if (cores === null)
    return {
      ok: false,
      error: "invalid config",
      fields: {
        processes:
          "Runner processes auto means the cores of the runner that will take the run, and no live runner has recorded them: start the runner (npm start) or give a number",
      },
    };
  return { ok: true, config: { ...config, processes: cores } };
}

/**
 * The checks every launch makes (a run, a ceiling search): only `keys` in the body, a valid config within the
 * runner's memory budget, a known and reachable target with room for the config's connections. The embedded
 * replicated target before its first run is not refused for having no address: it starts with the run, whose
 * preflight in the runner then makes the connection checks (targetInfo null).
 */
export async function checkLaunch(
  input: Record<string, unknown>,
  keys: string[],
  db: PrismaClient = prisma(),
  memoryBudgetMb: number = readEnv().RUNNER_MEMORY_BUDGET_MB,
): Promise<
  { ok: true; config: WorkloadConfig; target: NonNullable<Awaited<ReturnType<typeof resolveTarget>>>; targetInfo: TargetInfo | null } | LaunchRefusal
> {
  // A misspelt key ("targetID", "conifg") would otherwise be dropped silently and the run go to the default.
  const unknown = Object.keys(input).filter((k) => !keys.includes(k));
  if (unknown.length)
    return {
      ok: false,
      error: "unknown fields",
      fields: Object.fromEntries(
        unknown
          .slice(0, 5)
          .map((k) => [k.slice(0, 40), `unknown field ${quoteInput(k)}: the body has ${keys.slice(0, -1).join(", ")} and ${keys.at(-1)} only`]),
      ),
    };
  const config = input.config;
  const notObject = configShapeProblem(config);
  if (notObject) return { ok: false, error: "invalid config", fields: { config: notObject } };
  const auto = await autoProcesses(config as Record<string, unknown>, db);
  if (!auto.ok) return auto;
  const parsed = parseConfig(auto.config);
  if (!parsed.ok) return { ok: false, error: "invalid config", fields: parsed.errors };
  // Before any connection: a run its workload cannot split over its processes, or the runner could not hold, is
  // refused whatever the target.
  const split = partsProblem(parsed.config);
  if (split) return { ok: false, error: "cannot be split over its processes", fields: { processes: split } };
  const tooBig = memoryProblem(parsed.config, memoryBudgetMb);
  if (tooBig) return { ok: false, error: "over the runner's memory budget", fields: { [tooBig.field]: tooBig.message } };

  const checkedId = TargetId.safeParse(input.targetId ?? "default");
  if (!checkedId.success)
    return { ok: false, error: "invalid target", fields: { targetId: `${checkedId.error.issues[0].message} (GET /api/targets lists them)` } };
  const targetId = checkedId.data;
  const target = await resolveTarget(targetId, db);
  if (!target)
    return { ok: false, error: "unknown target", fields: { targetId: `target "${targetId}" does not exist; use "default" or an id from GET /api/targets` } };

  if (target.pending?.refuse) return { ok: false, error: "target busy", fields: { targetId: `${target.name}: ${target.pending.note}` } };
  if (target.pending) {
    await launchTestHooks.afterCheck?.();
    return { ok: true, config: parsed.config, target, targetInfo: null };
  }

  // One short connection now reports an unreachable target at launch, in words, instead of a queued run
  // that fails later (5 s is well above a reachable server's connect time, ~5 ms locally).
  let info: TargetInfo;
  try {
    info = await targetInfo(target.url, 5000, await controlStoreIdentity(db));
  } catch (err) {
    return { ok: false, error: "target unreachable", fields: { targetId: `${target.name}: ${(err as Error).message}` } };
  }
  // A run would write into the app's own data, or could not create its schema: refused now, in words.
  if (info.controlStore) return { ok: false, error: "target is the control store", fields: { targetId: `${target.name}: ${info.controlStore}` } };
  if (info.readOnly) return { ok: false, error: "target is read-only", fields: { targetId: `${target.name}: ${info.readOnly}` } };
  // Only the hard limits refuse here: connections in use now may be gone when the queued run starts.
  const tooMany = budgetProblem(parsed.config, info, "ever");
  if (tooMany) return { ok: false, error: "too many connections", fields: { connections: tooMany.message } };

  await launchTestHooks.afterCheck?.();
  return { ok: true, config: parsed.config, target, targetInfo: info };
}
