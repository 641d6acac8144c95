// The knobs of the New run form, from each workload's field table (workloads/<kind>/definition.ts), and the
// conversion between the form's inputs and the WorkloadInput that lib/workloads/config.ts parses (the same schema as
// the API and the CLI). Labels and units are the field table's, so the schema's messages use the same words.
import { partsProblem } from "@/lib/workloads/parts";
import {
  LONG_RUN_SECONDS,
  parseConfig,
  type Preset,
  presetById,
  runTimeOf,
  SHORT_WINDOW_SECONDS,
  WorkloadConfig,
  type WorkloadInput,
  type WorkloadKind,
  workloadDefinition,
  workloadDefinitions,
} from "@/lib/workloads/config";
import { type FieldDef, STUDIES, type WorkloadDefinition } from "@/workloads/types";

export { GROUP_LABEL } from "@/workloads/types";

export interface FieldSpec extends FieldDef {
  kind: string;
}

/** The fields of one workload, in the form's order. */
export function fieldsOf(kind: string): FieldSpec[] {
  return (workloadDefinition(kind)?.fields ?? []).map((f) => ({ ...f, kind }));
}

/** Text for a typed field, "true"/"false" for a switch. */
export type FormValues = Record<string, string>;

/** Form values for every field the user sets (the form always shows every knob). */
export function toFormValues(c: WorkloadConfig): { kind: WorkloadConfig["kind"]; values: FormValues } {
  const values: FormValues = {};
  for (const f of fieldsOf(c.kind)) if (!f.derivedFrom) values[f.name] = String((c as Record<string, unknown>)[f.name] ?? "");
  return { kind: c.kind, values };
}

const DECIMAL = /^[+-]?\d+(\.\d+)?$/;

/**
 * The form as WorkloadInput, exactly as the user sees it: a decimal number is sent as a number; anything
 * else, blank included, is sent as the text, so the schema refuses it beside its field ("Writers is
 * required", `Writers must be a whole number, not "abc"`) instead of filling in a default the user did not
 * see. Derived fields are left out, so the schema derives them; a switch is sent as true or false.
 */
export function toInput(kind: string, values: FormValues): WorkloadInput {
  const out: Record<string, unknown> = { kind };
  for (const f of fieldsOf(kind)) {
    if (f.derivedFrom) continue;
    const v = (values[f.name] ?? "").trim();
    if (v === "" && isOptional(f)) continue; // a blank optional field: left out, as the API takes it
    out[f.name] = f.control === "bool" ? v === "true" : f.control === "select" || f.control === "text" ? v : DECIMAL.test(v) ? Number(v) : v;
  }
  return out as WorkloadInput;
}

/** A choice or a text the config may leave out (no default: the synchronous commit's "the server's own", no phases):
 *  the form offers it blank, and blank leaves it out. */
export const isOptionalChoice = (f: FieldDef) => (f.control === "select" || f.control === "text") && f.default === undefined;
/** A field the config may leave out: an optional choice or text, or a number with no default (a long run's "until
 *  autovacuums" and its minimum, lib/workloads/long-run.ts): blank in the form means absent. */
const isOptional = (f: FieldDef) => isOptionalChoice(f) || (f.control === "int" && f.default === undefined);

/**
 * The form's input checked as the API checks it (lib/targets/launch.ts): the schema, then whether the workload
 * can split the run over its runner processes (lib/workloads/parts.ts), that message under the processes field.
 */
export function checkFormInput(input: WorkloadInput): ReturnType<typeof parseConfig> {
  const parsed = parseConfig(input);
  const split = parsed.ok ? partsProblem(parsed.config) : null;
  return split ? { ok: false, errors: { processes: split } } : parsed;
}

/** A preset's form values; a long one (a published window over 5 minutes) starts with the short window, and
 *  the form's Length choice offers the full one. */
export function presetValues(p: Preset): { kind: WorkloadConfig["kind"]; values: FormValues } {
  const f = toFormValues(WorkloadConfig.parse(p.config));
  if (isLongPreset(p)) f.values.durationSeconds = String(SHORT_WINDOW_SECONDS);
  return f;
}

/** Whether a preset's own window would make a run longer than 5 minutes (the form then starts it short). */
export function isLongPreset(p: Preset): boolean {
  return runTimeOf(WorkloadConfig.parse(p.config)).total > LONG_RUN_SECONDS;
}

/**
 * What the form holds once a workload is picked: its default preset, applied whole, so the preset the form
 * names is what its fields hold and nothing reads "(edited)" until the user edits a field. A workload whose
 * default preset is missing starts from its schema's defaults, named "custom".
 */
export function pickWorkload(kind: WorkloadKind): { kind: WorkloadKind; values: FormValues; presetId: string } {
  const id = workloadDefinition(kind)?.defaultPresetId;
  const p = id ? presetById(id) : undefined;
  if (p && WorkloadConfig.parse(p.config).kind === kind) return { ...presetValues(p), presetId: p.id };
  return { ...toFormValues(WorkloadConfig.parse({ kind })), presetId: "custom" };
}

/** The studies the workload picker groups by, in its order; a workload's is the study it reproduces. */
const PICKER_STUDIES = [
  { study: "kozlovski", label: "Kozlovski", topic: "Kafka is fast, I'll use Postgres" },
  { study: "yong", label: STUDIES.yong.short, topic: "Postgres as a cache, queue and search engine" },
  { study: "dbos", label: STUDIES.dbos.short, topic: "Does Postgres scale?" },
  { study: "libraries", label: "Queue libraries", topic: "the job queues teams ship: graphile-worker, pg-boss" },
  { study: "other", label: "Other", topic: "not from a published study" },
] as const;

/** Kozlovski's workloads are the reference tool's (its -mode); every other study's carry its published figures; a
 *  queue library's figures come from its own benchmarks or an independent harness. */
export function studyOf(d: WorkloadDefinition): (typeof PICKER_STUDIES)[number]["study"] {
  const study = d.published?.[0]?.study;
  if (study === "vendors" || study === "hardbyte") return "libraries";
  return study ?? (d.referenceMode ? "kozlovski" : "other");
}

/** The picker's groups: each study with its workloads, in registry order, each with its one-line purpose. */
export function workloadPickerGroups() {
  const defs = workloadDefinitions();
  return PICKER_STUDIES.map((s) => ({
    ...s,
    workloads: defs.filter((d) => studyOf(d) === s.study).map((d) => ({ kind: d.kind, title: d.title, purpose: d.purpose ?? d.description })),
  })).filter((g) => g.workloads.length > 0);
}
