"use client";
// "Delete these N runs" (issue 33): every run the list's filter matches, with their samples, after a confirmation
// that says how many. DELETE /api/runs takes the same filter and skips queued and running runs, saying how many.
import { useState } from "react";
import { countWords } from "@/lib/words";
import type { RunView } from "@/lib/runs/view";

const ACTIVE = new Set(["queued", "running"]);

/** `filter`: the list's filter as a query string (components/runs/query.ts filterString); `runs`: the rows it matches. */
export function DeleteMatching({ filter, runs, onDeleted }: { filter: string; runs: RunView[]; onDeleted: () => void }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ text: string; bad?: boolean } | null>(null);
  const active = runs.filter((r) => ACTIVE.has(r.status)).length;
  const deletable = runs.length - active;

  const remove = async () => {
    setBusy(true);
    const r = await fetch(`/api/runs?${filter}`, { method: "DELETE" }).catch(() => null);
    setBusy(false);
    setAsking(false);
    const body = (await r?.json().catch(() => null)) as { deleted?: number; skipped?: number; error?: string } | null;
    if (!r?.ok || typeof body?.deleted !== "number")
      return setOutcome({
        bad: true,
        text: body?.error ?? (r ? `the server answered HTTP ${r.status}` : "The app did not answer. Is `npm start` still running?"),
      });
    const skipped = body.skipped ? `; ${countWords(body.skipped, "queued or running run")} kept: cancel ${body.skipped === 1 ? "it" : "them"} first` : "";
    setOutcome({ text: `Deleted ${countWords(body.deleted, "run")} and ${body.deleted === 1 ? "its" : "their"} samples${skipped}.` });
    onDeleted();
  };

  if (!filter) return null; // every run at once is not offered: filter first
  return (
    <div className="delete-matching">
      {outcome && (
        <p className={outcome.bad ? "field-error" : "small"} role="status" data-testid="delete-outcome">
          {outcome.text}
        </p>
      )}
      {!asking ? (
        <button
          type="button"
          className="btn danger"
          disabled={deletable === 0}
          onClick={() => (setOutcome(null), setAsking(true))}
          data-testid="delete-matching"
        >
          Delete these {countWords(deletable, "run")}
        </button>
      ) : (
        <div className="alert warn" role="alertdialog" aria-labelledby="delete-matching-title" data-testid="confirm-delete">
          <p id="delete-matching-title" style={{ margin: 0 }}>
            <strong>Delete {countWords(deletable, "run")} and their samples?</strong> This cannot be undone.
            {active > 0 &&
              ` ${countWords(active, "queued or running run")} of this filter ${active === 1 ? "is" : "are"} kept: cancel ${active === 1 ? "it" : "them"} first.`}
          </p>
          <div className="row" style={{ marginTop: 8 }}>
            <button type="button" className="btn danger" onClick={() => void remove()} disabled={busy} data-testid="confirm-delete-yes">
              {busy ? "Deleting…" : `Yes, delete ${countWords(deletable, "run")}`}
            </button>
            <button type="button" className="btn" onClick={() => setAsking(false)}>
              Go back
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
