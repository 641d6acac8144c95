"use client";
// "Import reference-tool output": paste or upload the text of pg_msg_bench; it becomes an imported result and
// joins the comparison. A text that cannot be read gets the parser's message naming the line.
import { useRef, useState } from "react";

export function ImportPanel({ onImported, open = false }: { onImported: (id: string) => void; open?: boolean }) {
  const [text, setText] = useState("");
  const [label, setLabel] = useState("");
  const [command, setCommand] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);

  async function readFile(f: File | undefined) {
    if (!f) return;
    setError(null);
    setText(await f.text());
    if (!label) setLabel(f.name.replace(/\.(txt|log)$/i, ""));
  }

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const res = await fetch("/api/imports", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ text, label: label || undefined, command: command || undefined }),
      });
      const body = await res.json().catch(() => ({}));
      if (!res.ok) {
        setError(body.error ?? `the import failed (HTTP ${res.status})`);
        return;
      }
      setText("");
      setLabel("");
      setCommand("");
      if (fileRef.current) fileRef.current.value = "";
      onImported(body.id);
    } catch (err) {
      setError(`the import could not be sent: ${(err as Error).message}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <details className="panel import-panel" open={open} data-testid="import-panel">
      <summary>
        <strong>Import reference-tool output</strong> <span className="hint">paste or upload what pg_msg_bench printed</span>
      </summary>
      <form onSubmit={submit} className="stack import-form">
        <p className="hint" style={{ margin: 0 }}>
          The whole text output of <code>pg_msg_bench</code> (its live lines and the final <code>=== Summary ===</code>; for pub/sub also the group and
          aggregate blocks). It is kept as the tool reported it and labelled <em>imported</em>.
        </p>
        <div className="grid grid-2">
          <label className="field">
            <span>Label</span>
            <input value={label} onChange={(e) => setLabel(e.target.value)} placeholder="e.g. my 16-core box, pub/sub" maxLength={120} />
          </label>
          <label className="field">
            <span>
              Command line <span className="hint">(optional: fills in writers, batches, payload, throttle)</span>
            </span>
            <input value={command} onChange={(e) => setCommand(e.target.value)} placeholder="./pg_msg_bench --mode=pubsub --writers=10 …" />
          </label>
        </div>
        <label className="field">
          <span>Output</span>
          <textarea
            value={text}
            onChange={(e) => setText(e.target.value)}
            rows={8}
            spellCheck={false}
            className="mono"
            aria-invalid={error ? "true" : undefined}
            placeholder={"[04:36:04] W: 3465/s R: 1358/s QDepth: 10546 Err(W/R): 0/0\n…\n=== Summary ===\nTotal Writes: 89218\n…"}
          />
        </label>
        {error && (
          <div className="alert bad" role="alert" data-testid="import-error">
            {error}
          </div>
        )}
        <div className="row">
          <label className="btn">
            Upload a file…
            <input
              ref={fileRef}
              type="file"
              accept=".txt,.log,text/plain"
              className="sr-only"
              onChange={(e) => void readFile(e.target.files?.[0])}
              data-testid="import-file"
            />
          </label>
          <button type="submit" className="btn primary" disabled={busy || !text.trim()}>
            {busy ? "Importing…" : "Import and compare"}
          </button>
        </div>
      </form>
    </details>
  );
}
