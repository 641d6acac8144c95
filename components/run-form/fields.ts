// The knobs of the New run form: hints and layout per field, and the conversion between the form's text
// inputs and the WorkloadInput that lib/workloads.ts parses (the same schema as the API and the CLI).
// Labels and units come from lib/workloads.ts (FIELD_TEXT), so the schema's messages use the same words.
import { FIELD_TEXT, fieldLabel, type FieldName, type WorkloadConfig, type WorkloadInput, type WorkloadKind } from "@/lib/workloads";

export interface FieldSpec {
  name: FieldName;
  label: string;
  hint: string;
  unit?: string;
  kind: WorkloadKind;
  group: "load" | "batches" | "timing";
  /** Shown as text, never asked: the schema derives it from this other field. */
  derivedFrom?: FieldName;
}

type Row = [name: FieldName, hint: string, kinds: WorkloadKind[], group: FieldSpec["group"], derivedFrom?: FieldName];
const ROWS: Row[] = [
  ["writers", "clients inserting messages, one connection each", ["pubsub", "queue"], "load"],
  ["partitions", "one table per partition; writer w writes to partition w mod P", ["pubsub"], "load"],
  ["consumerGroups", "each group reads every message (fan-out)", ["pubsub"], "load"],
  // The reference tool requires one reader per partition in each group, so asking for it would only let
  // the two disagree.
  ["readers", "one per partition in each group, as the reference tool requires", ["pubsub"], "load", "partitions"],
  ["readers", "clients dequeuing with SKIP LOCKED, one connection each", ["queue"], "load"],
  ["throttleWritesPerSec", "global; 0 = as fast as possible", ["pubsub", "queue"], "load"],
  ["payloadBytes", "random bytes per message", ["pubsub", "queue"], "batches"],
  ["writeBatch", "messages per INSERT transaction", ["pubsub"], "batches"],
  ["readBatch", "most messages claimed per poll", ["pubsub"], "batches"],
  ["warmupSeconds", "load before measuring; left out of the results", ["pubsub", "queue"], "timing"],
  ["durationSeconds", "the window the results cover", ["pubsub", "queue"], "timing"],
  ["reportIntervalSeconds", "the CLI's live line; the browser always gets every second", ["pubsub", "queue"], "timing"],
];

export const FIELDS: FieldSpec[] = ROWS.flatMap(([name, hint, kinds, group, derivedFrom]) =>
  kinds.map((kind) => ({ name, label: fieldLabel(name, kind), unit: (FIELD_TEXT[name] as { unit?: string }).unit, hint, kind, group, derivedFrom })),
);

/** The fields of one workload, in the form's order. */
export function fieldsOf(kind: WorkloadKind): FieldSpec[] {
  return FIELDS.filter((f) => f.kind === kind);
}

export const GROUP_LABEL = { load: "Load", batches: "Messages and batches", timing: "Timing" } as const;

export type FormValues = Record<string, string>;

/** Text values for every field the user types (the form always shows every knob). */
export function toFormValues(c: WorkloadConfig): { kind: WorkloadKind; values: FormValues; tuneTableVacuum: boolean } {
  const values: FormValues = {};
  for (const f of fieldsOf(c.kind)) if (!f.derivedFrom) values[f.name] = String((c as Record<string, unknown>)[f.name] ?? "");
  return { kind: c.kind, values, tuneTableVacuum: c.kind === "queue" ? c.tuneTableVacuum : false };
}

const DECIMAL = /^[+-]?\d+(\.\d+)?$/;

/**
 * The form as WorkloadInput, exactly as the user sees it: a decimal number is sent as a number; anything
 * else, blank included, is sent as the text, so the schema refuses it beside its field ("Writers is
 * required", `Writers must be a whole number, not "abc"`) instead of filling in a default the user did not
 * see. Derived fields are left out, so the schema derives them.
 */
export function toInput(kind: WorkloadKind, values: FormValues, tuneTableVacuum: boolean): WorkloadInput {
  const out: Record<string, unknown> = { kind };
  for (const f of fieldsOf(kind)) {
    if (f.derivedFrom) continue;
    const v = (values[f.name] ?? "").trim();
    out[f.name] = DECIMAL.test(v) ? Number(v) : v;
  }
  if (kind === "queue") out.tuneTableVacuum = tuneTableVacuum;
  return out as WorkloadInput;
}
