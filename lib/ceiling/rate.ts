// What a ceiling search raises, per workload: the rate knob its definition declares (WorkloadDefinition.rateKnob:
// the broker workloads' write limit, DBOS's open-loop target rate, Yong's load model switched to open loop at a
// rate), and the operation that rate paces, as its pacing() names it. A workload that declares none has no rate
// to raise. Browser-safe.
import { definitionOf, type WorkloadConfig } from "../workloads/config";

export interface RateKnob {
  /** The config with its rate set to `rate` (msg/s or req/s). */
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
