"use client";
// A run's (or a set's) name, tags and notes on its page, with Edit: an inline form that saves with PATCH and shows
// each refusal beside its field (issue 33). The same schema as the API's checks it before it is sent
// (lib/runs/labels.ts), so the words are the server's.
import { useState } from "react";
import { type Labels, MAX_NAME, MAX_NOTES, parseLabels } from "@/lib/runs/labels";

type Errors = Partial<Record<"name" | "tags" | "notes" | "_", string>>;

/** `endpoint`: where PATCH {name, notes, tags} goes; `onSaved` gets the labels as stored. `what`: "run", "A/B"…, for the words. */
export function LabelsEditor({ labels, endpoint, what, onSaved }: { labels: Labels; endpoint: string; what: string; onSaved: (l: Labels) => void }) {
  const [editing, setEditing] = useState(false);
  return (
    <div className="labels" data-testid="labels">
      {editing ? (
        <LabelsForm labels={labels} endpoint={endpoint} onDone={() => setEditing(false)} onSaved={onSaved} />
      ) : (
        <>
          <div className="row small">
            {labels.tags.map((t) => (
              <span key={t} className="badge neutral tag" data-testid="tag">
                {t}
              </span>
            ))}
            <button type="button" className="btn small" onClick={() => setEditing(true)} data-testid="edit-labels">
              {labels.name || labels.tags.length || labels.notes ? "Edit name, tags, notes" : `Name this ${what}`}
            </button>
          </div>
          {labels.notes && (
            <p className="notes small" data-testid="notes">
              {labels.notes}
            </p>
          )}
        </>
      )}
    </div>
  );
}

function LabelsForm({ labels, endpoint, onDone, onSaved }: { labels: Labels; endpoint: string; onDone: () => void; onSaved: (l: Labels) => void }) {
  const [name, setName] = useState(labels.name ?? "");
  const [tags, setTags] = useState(labels.tags.join(", "));
  const [notes, setNotes] = useState(labels.notes ?? "");
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    // Blank fields are sent as "": the server then removes that label.
    const body = { name, tags, notes };
    const checked = parseLabels(body);
    if (!checked.ok) return setErrors(checked.fields);
    setSaving(true);
    const r = await fetch(endpoint, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).catch(() => null);
    setSaving(false);
    if (!r) return setErrors({ _: "The app did not answer. Is `npm start` still running?" });
    const answer = (await r.json().catch(() => ({}))) as Partial<Labels> & { error?: string; fields?: Errors };
    if (!r.ok) return setErrors(answer.fields ?? { _: answer.error ?? `the server answered HTTP ${r.status}` });
    onSaved({ name: answer.name ?? null, notes: answer.notes ?? null, tags: answer.tags ?? [] });
    onDone();
  };

  return (
    <form className="labels-form stack" onSubmit={save} aria-label="Name, tags and notes" noValidate>
      <LabelRow id="l-name" label="Name" err={errors.name}>
        <input
          id="l-name"
          type="text"
          value={name}
          maxLength={MAX_NAME + 20}
          onChange={(e) => setName(e.target.value)}
          aria-invalid={errors.name ? true : undefined}
          aria-describedby="l-name-msg"
        />
      </LabelRow>
      <LabelRow id="l-tags" label="Tags (commas or spaces)" err={errors.tags}>
        <input
          id="l-tags"
          type="text"
          value={tags}
          onChange={(e) => setTags(e.target.value)}
          aria-invalid={errors.tags ? true : undefined}
          aria-describedby="l-tags-msg"
        />
      </LabelRow>
      <LabelRow id="l-notes" label="Notes" err={errors.notes}>
        <textarea
          id="l-notes"
          rows={4}
          value={notes}
          maxLength={MAX_NOTES + 100}
          onChange={(e) => setNotes(e.target.value)}
          aria-invalid={errors.notes ? true : undefined}
          aria-describedby="l-notes-msg"
        />
      </LabelRow>
      {errors._ && (
        <p className="field-error" role="alert">
          {errors._}
        </p>
      )}
      <div className="row">
        <button type="submit" className="btn primary small" disabled={saving} data-testid="save-labels">
          {saving ? "Saving…" : "Save"}
        </button>
        <button type="button" className="btn small" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function LabelRow({ id, label, err, children }: { id: string; label: string; err?: string; children: React.ReactNode }) {
  return (
    <div className="fieldbox">
      <label htmlFor={id}>{label}</label>
      {children}
      {err && (
        <span className="field-error" id={`${id}-msg`} role="alert">
          {err}
        </span>
      )}
    </div>
  );
}
