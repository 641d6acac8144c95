"use client";
// What a user can do with a run: cancel it while it runs; run it again, edit a copy, download or delete it
// once it has finished. Every action says what it is doing and what went wrong.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { refusalText, RunCreated } from "@/lib/api/payloads";
import type { CliTarget } from "@/lib/targets/default-target";
import type { RunView } from "@/lib/runs/view";

const errorOf = refusalText;

export function CancelButton({ run, onRequested }: { run: RunView; onRequested: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const requested = run.cancelRequested || busy;
  return (
    <span className="row">
      <button
        type="button"
        className="btn danger"
        disabled={requested}
        onClick={async () => {
          setBusy(true);
          setError(null);
          const r = await fetch(`/api/runs/${run.id}/cancel`, { method: "POST" }).catch(() => null);
          if (!r?.ok) {
            setBusy(false);
            setError(r ? await errorOf(r) : "the app did not answer; try again");
            return;
          }
          onRequested();
        }}
      >
        {requested ? "Cancelling…" : "Cancel run"}
      </button>
      {requested && <span className="hint">the runner stops the load within ~2 s and cleans up the target</span>}
      {error && <span className="field-error">{error}</span>}
    </span>
  );
}

export function FinishedActions({ run }: { run: RunView }) {
  const router = useRouter();
  const [busy, setBusy] = useState<"again" | "delete" | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const runAgain = async () => {
    setBusy("again");
    setError(null);
    const r = await fetch("/api/runs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ config: run.config, targetId: run.targetId }),
    }).catch(() => null);
    if (r?.status === 201) {
      const created = RunCreated.safeParse(await r.json().catch(() => null));
      if (created.success) {
        router.push(created.data.url);
        return;
      }
      setBusy(null);
      setError("the run was queued but the answer did not say where; find it in the runs list");
      return;
    }
    setBusy(null);
    setError(r ? await errorOf(r) : "the app did not answer; try again");
  };

  const del = async () => {
    setBusy("delete");
    setError(null);
    const r = await fetch(`/api/runs/${run.id}`, { method: "DELETE" }).catch(() => null);
    if (r?.ok) {
      router.push("/runs");
      router.refresh();
      return;
    }
    setBusy(null);
    setError(r ? await errorOf(r) : "the app did not answer; try again");
  };

  const canRepeat = run.config !== null && run.targetId !== null;
  return (
    <div className="stack">
      <div className="row">
        <button type="button" className="btn primary" onClick={runAgain} disabled={!canRepeat || busy !== null}>
          {busy === "again" ? "Launching…" : "Run again"}
        </button>
        <Link className="btn" href={`/runs/new?from=${encodeURIComponent(run.id)}`}>
          Edit and run
        </Link>
        {run.summary && (
          <a className="btn" href={`/api/runs/${run.id}/summary`} download>
            Summary (JSON)
          </a>
        )}
        <a className="btn" href={`/api/runs/${run.id}/samples.csv`} download>
          Samples (CSV)
        </a>
        {/* One HTML file that opens anywhere, offline: charts, tables, verdict, manifest (components/report/). */}
        <a className="btn" href={`/api/runs/${run.id}/report.html`} download data-testid="export-html">
          Export HTML
        </a>
        {/* The run itself, to import into another instance (lib/bundle/): it appears there as an imported run. */}
        <a className="btn" href={`/api/runs/${run.id}/bundle`} download data-testid="export-bundle">
          Bundle (JSON)
        </a>
        {!confirming ? (
          <button type="button" className="btn danger" onClick={() => setConfirming(true)} disabled={busy !== null}>
            Delete
          </button>
        ) : (
          <span className="row confirm" role="group" aria-label="Confirm delete">
            <span className="small">Delete this run and its samples?</span>
            <button type="button" className="btn danger" onClick={del} disabled={busy !== null}>
              {busy === "delete" ? "Deleting…" : "Yes, delete"}
            </button>
            <button type="button" className="btn" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </span>
        )}
      </div>
      {!canRepeat && (
        <p className="hint">
          {run.config === null
            ? "This run's config was written by an older version and cannot be repeated as is."
            : `The target "${run.targetLabel}" has been deleted since; use "Edit and run" to pick one.`}
        </p>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

export function CliCommand({ command, target }: { command: string; target: CliTarget }) {
  const [copied, setCopied] = useState(false);
  return (
    <section className="panel" data-testid="cli-command">
      <div className="spread">
        <h2>Reproduce from a terminal</h2>
        <button
          type="button"
          className="btn"
          onClick={async () => {
            await navigator.clipboard?.writeText(command).catch(() => undefined);
            setCopied(true);
            setTimeout(() => setCopied(false), 1500);
          }}
        >
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
      <pre className="cmd">{command}</pre>
      {target.unknownTarget ? (
        <p className="hint">
          This run&rsquo;s target &ldquo;{target.unknownTarget}&rdquo; is not a saved target (any more): put its connection string in place of the &lt;…&gt;.
        </p>
      ) : (
        target.targetUrl?.includes("****") && (
          <p className="hint">
            The password is masked (****): type the target&rsquo;s password in its place, inside the quotes (a <code>&apos;</code> in it as{" "}
            <code>&apos;\&apos;&apos;</code>).
          </p>
        )
      )}
      {target.env && Object.keys(target.env).length > 0 && (
        <p className="hint">
          The app runs with its own {Object.keys(target.env).join(" and ")}: the command carries {Object.keys(target.env).length > 1 ? "them" : "it"} so it uses
          the same embedded Postgres.
        </p>
      )}
    </section>
  );
}
