// The knobs of the New run form: labels and hints per field, and the conversion between the form's text
// inputs and the WorkloadInput that lib/workloads.ts parses (the same schema as the API and the CLI).
import { parseConfig, type WorkloadConfig, type WorkloadInput, type WorkloadKind } from "@/lib/workloads";

export interface FieldSpec {
  name: string;
  label: string;
  hint: string;
  unit?: string;
  kinds: WorkloadKind[];
  group: "load" | "batches" | "timing";
}

export const FIELDS: FieldSpec[] = [
  { name: "writers", label: "Writers", hint: "clients inserting messages, one connection each", kinds: ["pubsub", "queue"], group: "load" },
  { name: "partitions", label: "Partitions", hint: "one table per partition; writer w writes to partition w mod P", kinds: ["pubsub"], group: "load" },
  { name: "consumerGroups", label: "Consumer groups", hint: "each group reads every message (fan-out)", kinds: ["pubsub"], group: "load" },
  { name: "readers", label: "Readers per group", hint: "one per partition, as in the reference tool", kinds: ["pubsub"], group: "load" },
  { name: "readers", label: "Readers", hint: "clients dequeuing with SKIP LOCKED, one connection each", kinds: ["queue"], group: "load" },
  { name: "throttleWritesPerSec", label: "Write limit", unit: "msg/s", hint: "global; 0 = as fast as possible", kinds: ["pubsub", "queue"], group: "load" },
  { name: "payloadBytes", label: "Payload", unit: "bytes", hint: "random bytes per message", kinds: ["pubsub", "queue"], group: "batches" },
  { name: "writeBatch", label: "Write batch", unit: "msgs", hint: "messages per INSERT transaction", kinds: ["pubsub"], group: "batches" },
  { name: "readBatch", label: "Read batch", unit: "msgs", hint: "most messages claimed per poll", kinds: ["pubsub"], group: "batches" },
  { name: "warmupSeconds", label: "Warm-up", unit: "s", hint: "load before measuring; left out of the results", kinds: ["pubsub", "queue"], group: "timing" },
  { name: "durationSeconds", label: "Measured duration", unit: "s", hint: "the window the results cover", kinds: ["pubsub", "queue"], group: "timing" },
  { name: "reportIntervalSeconds", label: "CLI report every", unit: "s", hint: "the CLI's live line; the browser always gets every second", kinds: ["pubsub", "queue"], group: "timing" },
];

export const GROUP_LABEL = { load: "Load", batches: "Messages and batches", timing: "Timing" } as const;

export type FormValues = Record<string, string>;

/** Text values for every numeric field of a parsed config (the form always shows every knob). */
export function toFormValues(c: WorkloadConfig): { kind: WorkloadKind; values: FormValues; tuneTableVacuum: boolean } {
  const values: FormValues = {};
  for (const f of FIELDS) if (f.kinds.includes(c.kind)) values[f.name] = String((c as Record<string, unknown>)[f.name] ?? "");
  return { kind: c.kind, values, tuneTableVacuum: c.kind === "queue" ? c.tuneTableVacuum : false };
}

/** The form as WorkloadInput: numbers where the text is a number, the text itself otherwise (so the
 *  schema reports "writers must be a number"), and empty fields left out (so the schema's default applies). */
export function toInput(kind: WorkloadKind, values: FormValues, tuneTableVacuum: boolean): WorkloadInput {
  const out: Record<string, unknown> = { kind };
  for (const f of FIELDS) {
    if (!f.kinds.includes(kind)) continue;
    const v = (values[f.name] ?? "").trim();
    if (v === "") continue;
    const n = Number(v);
    out[f.name] = Number.isFinite(n) ? n : v;
  }
  if (kind === "queue") out.tuneTableVacuum = tuneTableVacuum;
  return out as WorkloadInput;
}

/**
 * Errors for every bad field at once. Zod runs the cross-field checks (readers = partitions, throttle ≥
 * batch) only once each field is valid on its own, so a second pass with the invalid fields left at their
 * defaults finds the cross-field problems among the remaining ones. Messages are the schema's own.
 */
export function validate(input: WorkloadInput): { ok: true; config: WorkloadConfig } | { ok: false; errors: Record<string, string> } {
  const first = parseConfig(input);
  if (first.ok) return first;
  const rest: Record<string, unknown> = { ...input };
  for (const k of Object.keys(first.errors)) if (k !== "kind") delete rest[k];
  const second = parseConfig(rest);
  return { ok: false, errors: second.ok ? first.errors : { ...second.errors, ...first.errors } };
}
