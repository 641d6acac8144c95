// "What makes this comparison unfair": the notes of lib/compare/notes.ts contextNotes, ranked (NOTE_RANKS), the
// ones that change the reading most shown and the rest folded under "N more".
import { type ContextNote, TOP_NOTES } from "@/lib/compare/notes";

function Note({ n }: { n: ContextNote }) {
  return (
    <li data-topic={n.topic} data-rank={n.rank} className={n.severity}>
      <span className={`badge ${n.severity === "warn" ? "warn" : "neutral"}`}>{n.topic}</span> <span>{n.text}</span>
    </li>
  );
}

export function ContextPanel({ notes }: { notes: ContextNote[] }) {
  const top = notes.slice(0, TOP_NOTES);
  const rest = notes.slice(TOP_NOTES);
  return (
    <section className="panel context-panel" aria-labelledby="context-h" data-testid="context-panel">
      <h2 id="context-h">What makes this comparison unfair</h2>
      {notes.length === 0 ? (
        <p className="muted small" style={{ margin: 0 }}>
          Same source, same setup: nothing found that makes these numbers incomparable.
        </p>
      ) : (
        <>
          <ul className="context-notes" data-testid="context-top">
            {top.map((n, i) => (
              <Note key={i} n={n} />
            ))}
          </ul>
          {rest.length > 0 && (
            <details data-testid="context-more">
              <summary>
                {rest.length} more <span className="hint">(less likely to change the reading)</span>
              </summary>
              <ul className="context-notes">
                {rest.map((n, i) => (
                  <Note key={i} n={n} />
                ))}
              </ul>
            </details>
          )}
        </>
      )}
    </section>
  );
}
