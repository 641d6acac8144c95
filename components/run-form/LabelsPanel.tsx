// The New run form's name, tags and notes (issue 33): what the run is called in the runs list and in comparisons.
// Checked as typed with the schema the API and the CLI use (lib/runs/labels.ts); the server's refusal of one is shown
// beside it like any field's.
import { useState } from "react";
import { MAX_NAME, parseLabels } from "@/lib/runs/labels";
import type { FormState } from "./useFormState";

export interface LabelsText {
  name: string;
  tags: string;
  notes: string;
}

/** The labels as typed, and their check: the body's name/tags/notes (blank ones left out), or a message per field. */
export function useLabels() {
  const [text, setText] = useState<LabelsText>({ name: "", tags: "", notes: "" });
  const given = Object.fromEntries(Object.entries(text).filter(([, v]) => v.trim() !== ""));
  const parsed = parseLabels(given);
  return { text, setText, body: given, errors: parsed.ok ? {} : parsed.fields };
}
export type LabelsState = ReturnType<typeof useLabels>;

export function LabelsPanel({ labels, form }: { labels: LabelsState; form: FormState }) {
  const { text, setText } = labels;
  const err = (k: keyof LabelsText) => form.serverErrors[k] ?? labels.errors[k];
  return (
    <section className="panel">
      <h2>Name and tags</h2>
      <div className="form-grid">
        <LabelField
          id="f-run-name"
          label="Run name"
          err={err("name")}
          hint={`How the runs list and comparisons call it (up to ${MAX_NAME} characters); else its id.`}
        >
          <input
            id="f-run-name"
            type="text"
            autoComplete="off"
            value={text.name}
            aria-invalid={err("name") ? true : undefined}
            aria-describedby="f-run-name-msg"
            onChange={(e) => setText({ ...text, name: e.target.value })}
          />
        </LabelField>
        <LabelField id="f-run-tags" label="Tags" err={err("tags")} hint="Parted by commas or spaces: letters, digits and - _ . : (pg18, wal:sync).">
          <input
            id="f-run-tags"
            type="text"
            autoComplete="off"
            value={text.tags}
            aria-invalid={err("tags") ? true : undefined}
            aria-describedby="f-run-tags-msg"
            onChange={(e) => setText({ ...text, tags: e.target.value })}
          />
        </LabelField>
      </div>
    </section>
  );
}

function LabelField({ id, label, err, hint, children }: { id: string; label: string; err?: string; hint: string; children: React.ReactNode }) {
  return (
    <div className="fieldbox">
      <label htmlFor={id}>{label}</label>
      {children}
      {err ? (
        <span className="field-error" id={`${id}-msg`} role="alert">
          {err}
        </span>
      ) : (
        <span className="hint" id={`${id}-msg`}>
          {hint}
        </span>
      )}
    </div>
  );
}
