"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";

export function DeleteImport({ id }: { id: string }) {
  const router = useRouter();
  const [confirm, setConfirm] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!confirm)
    return (
      <button type="button" className="btn danger" onClick={() => setConfirm(true)}>
        Delete
      </button>
    );
  return (
    <span className="row confirm">
      Delete this import?
      <button
        type="button"
        className="btn danger"
        onClick={async () => {
          const r = await fetch(`/api/imports/${id}`, { method: "DELETE" });
          if (r.ok) router.push("/compare");
          else setError((await r.json().catch(() => ({}))).error ?? `HTTP ${r.status}`);
        }}
      >
        Yes, delete
      </button>
      <button type="button" className="btn" onClick={() => setConfirm(false)}>
        Keep
      </button>
      {error && <span className="field-error">{error}</span>}
    </span>
  );
}
