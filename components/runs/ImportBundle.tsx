"use client";
// Import a bundle (lib/bundle/): a run's or a comparison's .json file exported by another instance of the product.
// Its runs join the list, marked imported; the answer says where to open them and which ids had to change.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { refusalText } from "@/lib/api/payloads";

/** `onImported`: asks the list shown beside it for its rows again (components/runs/useRunsRows.ts reload). */
export function ImportBundle({ onImported }: { onImported?: () => void }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string; url?: string } | null>(null);
  const send = async (file: File) => {
    setBusy(true);
    setResult(null);
    const r = await fetch("/api/imports/bundle", { method: "POST", headers: { "content-type": "application/json" }, body: await file.text() }).catch(
      () => null,
    );
    setBusy(false);
    if (r?.status === 201) {
      const body = (await r.json()) as { message: string; url: string };
      setResult({ ok: true, text: body.message, url: body.url });
      onImported?.();
      router.refresh(); // the filters' counts and choices, rendered by the server
      return;
    }
    setResult({ ok: false, text: r ? await refusalText(r) : "the app did not answer; try again" });
  };
  return (
    <details className="panel" data-testid="import-bundle">
      <summary>Import a bundle from another instance</summary>
      <p className="hint">
        A run&rsquo;s or a comparison&rsquo;s bundle (the .json its page exports): its runs join this list, marked imported, and open like local ones.
      </p>
      <label className="row small">
        Bundle file{" "}
        <input
          type="file"
          accept="application/json,.json"
          disabled={busy}
          data-testid="bundle-file"
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) void send(f);
            e.target.value = "";
          }}
        />
      </label>
      {busy && <p className="hint">Importing…</p>}
      {result && (
        <p className={result.ok ? "small" : "field-error"} role={result.ok ? "status" : "alert"} data-testid="bundle-result" style={{ whiteSpace: "pre-line" }}>
          {result.text}
          {result.url && (
            <>
              {" "}
              <a href={result.url}>Open</a>
            </>
          )}
        </p>
      )}
    </details>
  );
}
