// Saving a target from the New run form (POST /api/targets: checked by connecting once, the password kept on the
// server) and forgetting the saved one selected (DELETE /api/targets/:id).
import { useState } from "react";
import type { PublicTarget } from "@/lib/targets/store";

export function AddTarget({
  savedSelected,
  onAdded,
  onDeleted,
}: {
  savedSelected: PublicTarget | null;
  onAdded: (t: PublicTarget) => void;
  onDeleted: (id: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [note, setNote] = useState<string | null>(null);
  const [warning, setWarning] = useState<string | null>(null);

  const save = async () => {
    setBusy(true);
    setErrors({});
    setNote(null);
    setWarning(null);
    const r = await fetch("/api/targets", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: name || undefined, connectionString: url }),
    }).catch(() => null);
    setBusy(false);
    const body = r ? await r.json().catch(() => ({})) : {};
    if (r?.status === 201) {
      onAdded(body.target);
      setNote(`Saved "${body.target.name}" (PostgreSQL ${body.serverVersion}). The password stays on the server.`);
      setWarning(Array.isArray(body.warnings) && body.warnings.length ? body.warnings.join("; ") : null);
      setName("");
      setUrl("");
      setOpen(false);
      return;
    }
    setErrors(body.fields ?? { _: body.error ?? "the app did not answer" });
  };

  const forget = async () => {
    if (!savedSelected) return;
    setBusy(true);
    setWarning(null);
    const r = await fetch(`/api/targets/${encodeURIComponent(savedSelected.id)}`, { method: "DELETE" }).catch(() => null);
    setBusy(false);
    if (r?.ok) {
      onDeleted(savedSelected.id);
      setNote(`Forgot "${savedSelected.name}".`);
    } else setNote(r ? ((await r.json().catch(() => ({}))).error ?? `HTTP ${r.status}`) : "the app did not answer");
  };

  return (
    <div className="stack add-target">
      <div className="row">
        <button type="button" className="btn" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
          {open ? "Close" : "Add a target…"}
        </button>
        {savedSelected && (
          <button type="button" className="btn danger" onClick={forget} disabled={busy}>
            Forget this target
          </button>
        )}
      </div>
      {note && (
        <p className="hint" role="status">
          {note}
        </p>
      )}
      {warning && (
        <div className="alert warn small" role="alert" data-testid="target-warning">
          Warning: {warning}.
        </div>
      )}
      {open && (
        <div className="stack" data-testid="add-target">
          <div className="fieldbox">
            <label htmlFor="t-name">Name</label>
            <input
              id="t-name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="e.g. staging (default: host/database)"
              aria-invalid={errors.name ? true : undefined}
            />
            {errors.name && <span className="field-error">{errors.name}</span>}
          </div>
          <div className="fieldbox">
            <label htmlFor="t-url">Connection string</label>
            <input
              id="t-url"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder="postgresql://user:password@host:5432/database"
              autoComplete="off"
              spellCheck={false}
              aria-invalid={errors.connectionString ? true : undefined}
            />
            {errors.connectionString ? (
              <span className="field-error" role="alert">
                {errors.connectionString}
              </span>
            ) : (
              <span className="hint">Checked by connecting once. Kept on the server; the browser only ever sees it masked.</span>
            )}
          </div>
          {errors._ && <span className="field-error">{errors._}</span>}
          <div>
            <button type="button" className="btn primary" onClick={save} disabled={busy || !url.trim()}>
              {busy ? "Connecting…" : "Check and save"}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
