// How a stored run's reproducing command reaches its target, for the run page and its exported report alike.
import { defaultTargetForCli, type CliTarget, replicatedTargetForCli } from "../targets/default-target";
import { REPLICATED_TARGET_ID, shapeOfCluster } from "../targets/replicated-shape";
import { replicatedSettings } from "../targets/replicated";
import { DEFAULT_TARGET_ID, resolveTarget } from "../targets/store";
import { toCliCommand } from "./cli-command";
import type { RunView } from "./view";

/**
 * How the reproducing command reaches the run's target: a saved target by its masked URL (the reader types
 * the password), the default one as `npm run bench` in this project finds it (lib/targets/default-target.ts), an
 * embedded replicated one by the shape it recorded (--replicas N), or this app's while it has not finished. A run
 * whose target is gone (deleted, or a CLI run's own --target) gets a placeholder naming it, never the default.
 */
export async function cliTargetOf(run: RunView): Promise<CliTarget> {
  const { targetId } = run;
  if (targetId === DEFAULT_TARGET_ID) return defaultTargetForCli();
  const cluster = run.summary?.manifest.cluster;
  if (cluster) return replicatedTargetForCli(shapeOfCluster(cluster));
  const replicated = targetId === REPLICATED_TARGET_ID ? replicatedSettings() : null;
  if (replicated) return replicatedTargetForCli(replicated);
  const saved = targetId ? await resolveTarget(targetId) : null;
  return saved ? { targetUrl: saved.maskedUrl } : { unknownTarget: run.targetLabel };
}

/** The command as the run page prints it (components/run/RunPage.tsx), and what its reader must fill in; null without a config. */
export function cliCommandOf(run: RunView, target: CliTarget): { command: string; note?: string } | null {
  if (!run.config) return null;
  const url = target.unknownTarget ? `<connection string of ${target.unknownTarget}>` : target.targetUrl;
  const command = toCliCommand(run.config, url, target.env, target.args);
  const note = target.unknownTarget
    ? `This run's target "${target.unknownTarget}" is not a saved target (any more): put its connection string in place of the <…>.`
    : target.targetUrl?.includes("****")
      ? "The password is masked (****): type the target's password in its place, inside the quotes."
      : undefined;
  return { command, note };
}
