// "What makes this comparison unfair": the notes of lib/compare/notes.ts contextNotes, warnings first.
import type { ContextNote } from "@/lib/compare/notes";

export function ContextPanel({ notes }: { notes: ContextNote[] }) {
  const sorted = [...notes].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === "warn" ? -1 : 1));
  return (
    <section className="panel context-panel" aria-labelledby="context-h" data-testid="context-panel">
      <h2 id="context-h">What makes this comparison unfair</h2>
      {sorted.length === 0 ? (
        <p className="muted small" style={{ margin: 0 }}>
          Same source, same setup: nothing found that makes these numbers incomparable.
        </p>
      ) : (
        <ul className="context-notes">
          {sorted.map((n, i) => (
            <li key={i} data-topic={n.topic} className={n.severity}>
              <span className={`badge ${n.severity === "warn" ? "warn" : "neutral"}`}>{n.topic}</span> <span>{n.text}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
