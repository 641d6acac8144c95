// The knobs of the New run form, from each workload's field table (workloads/<kind>/definition.ts), and the
// conversion between the form's inputs and the WorkloadInput that lib/workloads/config.ts parses (the same schema as
// the API and the CLI). Labels and units are the field table's, so the schema's messages use the same words.
import { workloadDefinition, type WorkloadConfig, type WorkloadInput } from "@/lib/workloads/config";
import type { FieldDef } from "@/workloads/types";

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
    out[f.name] = f.control === "bool" ? v === "true" : f.control === "select" || f.control === "text" ? v : DECIMAL.test(v) ? Number(v) : v;
  }
  return out as WorkloadInput;
}
