// Test helper: a run through the engine on `url` whose schema is kept for inspection, with its samples and phases, and
// an action started once its measured window begins (a lock taken, a row tampered with).
import type { WorkloadConfig } from "../lib/workloads/config";
import { runWorkload, type EngineOptions, type EngineSample } from "./engine";

/** Runs `config` on `url`, keeping its schema; `during` runs once the measured window has started, and is awaited. */
export async function runKeptOn(url: string, config: WorkloadConfig, during?: (schema: string) => Promise<void>, extra: EngineOptions = {}) {
  let schema = "";
  const samples: EngineSample[] = [];
  const phases: string[] = [];
  let tamper: Promise<void> | undefined;
  const summary = await runWorkload(config, url, {
    ...extra,
    keepSchema: true,
    drainSeconds: 3,
    onSchema: (s) => (schema = s),
    onSample: (s) => void samples.push(s),
    onPhase: (p) => {
      phases.push(p);
      if (p === "measuring" && during) tamper = during(`"${schema}"`);
    },
  });
  await tamper;
  return { summary, schema: `"${schema}"`, samples, phases };
}
