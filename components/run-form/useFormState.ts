// The New run form's state: which workload and preset, the values as typed, which fields were touched, and the
// server's field errors; and what follows from them: the input as sent, its parse by the one schema
// (lib/workloads/config.ts), each field's message, the total time. Changing the preset or the workload resets
// the fields to it; typing marks the preset "(edited)" and withdraws the server's message for that field.
import { useMemo, useState } from "react";
import { LONG_RUN_SECONDS, type Preset, presetById, type WorkloadConfig, type WorkloadKind, runTimeOf } from "@/lib/workloads/config";
import { checkFormInput, type FormValues, isLongPreset, pickWorkload, presetValues, toFormValues, toInput } from "./fields";

export interface RunFormInitial {
  config: WorkloadConfig;
  presetId: string | null;
  targetId: string;
  /** Why the form picked targetId rather than the default (a three-node published scenario on the embedded replicated target). */
  targetReason?: string;
  /** The run this form was opened from ("Edit and run"), shown as a note. */
  fromRunId?: string;
  /** Another study's published result this form was opened from ("Run this here", lib/references/published.ts): its fit
   *  warnings are shown as a reference preset's are, while the config is not switched to a preset. */
  published?: { id: string; label: string };
}

/** Field name → message; "_" is a message about no one field, "connections" and "targetId" the target's. */
export type FieldErrors = Record<string, string>;

/** The preset whose published window would make a long run, or null: the form then offers a short one. */
function longPreset(id: string | null): Preset | null {
  const p = id ? presetById(id) : undefined;
  return p && isLongPreset(p) ? p : null;
}

export function useFormState(initial: RunFormInitial) {
  const initialPreset = initial.presetId ? presetById(initial.presetId) : undefined;
  const start = initialPreset ? presetValues(initialPreset) : toFormValues(initial.config);
  const [kind, setKind] = useState<WorkloadKind>(start.kind);
  const [values, setValues] = useState<FormValues>(start.values);
  const [presetId, setPresetId] = useState<string>(initial.presetId ?? "custom");
  const [edited, setEdited] = useState(false);
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});

  const input = useMemo(() => toInput(kind, values), [kind, values]);
  const parsed = useMemo(() => checkFormInput(input), [input]);
  const clientErrors: FieldErrors = parsed.ok ? {} : parsed.errors;
  // A field's own message waits until it is left or the form is sent; the server's is shown at once.
  const errorFor = (name: string): string | undefined => serverErrors[name] ?? (touched.has(name) || submitted ? clientErrors[name] : undefined);
  const total = parsed.ok ? runTimeOf(parsed.config).total : null;

  const clearServer = (name: string) =>
    setServerErrors((e) => {
      if (!(name in e) && !("connections" in e) && !("_" in e)) return e;
      const { [name]: _drop, connections: _c, _: _g, ...rest } = e;
      return rest;
    });

  const setField = (name: string, v: string) => {
    setValues((old) => ({ ...old, [name]: v }));
    setEdited(true);
    clearServer(name);
  };

  const touch = (name: string) => setTouched((t) => new Set(t).add(name));

  /** The Length choice of a long preset: its shape with the short window, or its full published window. */
  const setWindow = (seconds: number) => {
    setValues((old) => ({ ...old, durationSeconds: String(seconds) }));
    clearServer("durationSeconds");
  };

  /** Fields, preset and workload at once, as a fresh start: nothing edited, touched or refused yet. */
  const reset = (next: { kind: WorkloadKind; values: FormValues }) => {
    setKind(next.kind);
    setValues(next.values);
    setEdited(false);
    setTouched(new Set());
    setServerErrors({});
  };

  const applyPreset = (id: string) => {
    setPresetId(id);
    const p = presetById(id);
    if (p) reset(presetValues(p));
  };

  const switchKind = (k: WorkloadKind) => {
    if (k === kind) return;
    // The workload's default preset, applied whole: the preset named is what the fields hold (pickWorkload).
    const picked = pickWorkload(k);
    reset(picked);
    setPresetId(picked.presetId);
  };

  return {
    kind,
    values,
    presetId,
    preset: presetById(presetId),
    long: longPreset(presetId),
    edited,
    submitted,
    setSubmitted,
    serverErrors,
    setServerErrors,
    clearServer,
    input,
    parsed,
    clientErrors,
    errorFor,
    total,
    isLong: total !== null && total > LONG_RUN_SECONDS,
    setField,
    touch,
    setWindow,
    applyPreset,
    switchKind,
  };
}

export type FormState = ReturnType<typeof useFormState>;
