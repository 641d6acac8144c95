// What a ceiling search raises, per workload, read from its field table: the broker workloads' write limit
// (`throttleWritesPerSec`, the writes it paces), or an open-loop target rate (`rate`: DBOS's workloads, and
// Yong's with `load` "rate", pacing all requests together). A workload with neither has no rate to raise.
// Browser-safe.
import { rateOperations } from "../measurement/operations";
import { definitionOf, type WorkloadConfig } from "../workloads/config";

export interface RateKnob {
  /** The config with its rate set to `rate` (msg/s or req/s). */
  set(config: WorkloadConfig, rate: number): WorkloadConfig;
  /** The operation whose achieved rate is compared with the target. */
  paced: string;
  /** The config fields the search sets (the CLI refuses their flags). */
  fields: string[];
}

/** The workload total the Yong workloads record beside each request type (workloads/yong/fields.ts TOTAL_OP). */
const ALL_REQUESTS = "total";

export function rateKnob(kind: string): RateKnob | null {
  const def = definitionOf({ kind });
  const has = (name: string) => def.fields.some((f) => f.name === name);
  const ops = rateOperations(def.metrics);
  if (has("throttleWritesPerSec") && ops[0])
    return {
      set: (c, rate) => ({ ...c, throttleWritesPerSec: rate }) as WorkloadConfig,
      paced: ops[0].name,
      fields: ["throttleWritesPerSec"],
    };
  // An open-loop rate: always (DBOS's inserts and workflows), or as one of a load model's choices (Yong's).
  const load = def.fields.find((f) => f.name === "load");
  const openLoop = load === undefined || load.options?.some((o) => o.value === "rate");
  if (has("rate") && openLoop && ops[0])
    return {
      set: (c, rate) => ({ ...c, ...(load ? { load: "rate" } : {}), rate }) as WorkloadConfig,
      paced: ops.find((o) => o.name === ALL_REQUESTS)?.name ?? ops[0].name,
      fields: load ? ["load", "rate"] : ["rate"],
    };
  return null;
}

/** The knob, or the sentence saying the workload has none. */
export function rateKnobOrProblem(kind: string): { ok: true; knob: RateKnob } | { ok: false; message: string } {
  const knob = rateKnob(kind);
  return knob
    ? { ok: true, knob }
    : { ok: false, message: `the ${kind} workload has no rate a search can raise (neither a write limit nor an open-loop target rate)` };
}
