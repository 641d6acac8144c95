// The command that repeats a ceiling search from the CLI: the run's command (lib/runs/cli-command.ts) as
// `bench -- ceiling`, without the flags each step sets itself (measured duration, throttle), plus the
// search's own. Browser-safe.
import { toCliCommand } from "../runs/cli-command";
import { definitionOf, type WorkloadConfig } from "../workloads/config";
import { rateKnob } from "./rate";
import type { CeilingSettings } from "./settings";

export function ceilingCommand(config: WorkloadConfig, s: CeilingSettings, targetUrl?: string, env: Record<string, string> = {}): string {
  const run = toCliCommand(config, targetUrl, env);
  // The fields each step sets (its measured window and its rate), whose flags a search refuses.
  const setByStep = ["durationSeconds", ...(rateKnob(config.kind)?.fields ?? [])];
  const flags = definitionOf(config)
    .fields.filter((f) => f.cli && setByStep.includes(f.name))
    .map((f) => `${f.cli!.ours ? "--" : "-"}${f.cli!.flag}`);
  let cmd = run.replace("npm run bench -- ", "npm run bench -- ceiling ");
  for (const flag of flags) cmd = cmd.replace(new RegExp(` ${flag} \\S+`), "");
  const own = [
    `--slo '${s.slo}'`,
    ...(s.metric ? [`--metric ${s.metric}`] : []),
    `--step ${s.stepSeconds}s`,
    ...(s.confirmSeconds !== undefined ? [`--confirm ${s.confirmSeconds}s`] : []),
    `--start-rate ${s.startRate}`,
    `--max-rate ${s.maxRate}`,
    `--precision ${s.precisionPercent}%`,
    `--max-steps ${s.maxSteps}`,
  ];
  return `${cmd} ${own.join(" ")}`;
}
