// What a ceiling search raises, per workload: the rate knob its definition declares (WorkloadDefinition.rateKnob:
// the broker workloads' write limit, DBOS's open-loop target rate, Yong's load model switched to open loop at a
// rate), and the operation that rate paces, as its pacing() names it. A workload that declares none has no rate
// to raise. Browser-safe.
import { definitionOf, type WorkloadConfig, workloadDefinition } from "../workloads/config";

export interface RateKnob {
  /** The config with its rate set to `rate` (in the paced unit: msg/s, row/s, req/s, workflow/s). */
  set(config: WorkloadConfig, rate: number): WorkloadConfig;
  /** The operation whose achieved rate is compared with the target. */
  paced: string;
  /** The config fields the search sets (the CLI refuses their flags). */
  fields: string[];
}

export function rateKnob(kind: string): RateKnob | null {
  const def = definitionOf({ kind });
  const knob = def.rateKnob;
  if (!knob) return null;
  // What the rate paces: the operation the workload's pacing names once the knob is set (on its default preset).
  const preset = def.presets.find((p) => p.id === def.defaultPresetId) ?? def.presets[0];
  const paced = def.pacing(knob.set(def.params.parse(preset?.config ?? { kind }) as object, 1)).operation;
  return { set: (c, rate) => knob.set(c, rate), paced, fields: knob.fields };
}

/** The knob, or the sentence saying the workload has none. */
export function rateKnobOrProblem(kind: string): { ok: true; knob: RateKnob } | { ok: false; message: string } {
  const knob = rateKnob(kind);
  return knob
    ? { ok: true, knob }
    : { ok: false, message: `the ${kind} workload has no rate a search can raise (neither a write limit nor an open-loop target rate)` };
}

/**
 * The unit a search's rates are in: the item its paced operation counts once the knob is set (pacing().unit:
 * "msg" for pub/sub, "row" for inserts, "req" for cache, "workflow" for workflows). "item" for a workload no
 * longer registered, so a stored search still renders.
 */
export function searchUnit(kind: string, config?: WorkloadConfig): string {
  const def = workloadDefinition(kind);
  if (!def) return "item";
  const preset = def.presets.find((p) => p.id === def.defaultPresetId) ?? def.presets[0];
  const base = config ?? (def.params.parse(preset?.config ?? { kind }) as WorkloadConfig);
  const paced = def.rateKnob ? def.rateKnob.set(base as object, 1) : base;
  return def.pacing(paced as never).unit;
}
