"use client";
import { useEffect, useState } from "react";
import type { Health } from "@/lib/status/health";

const PARTS = [
  { key: "controlStore", label: "Control store", what: "where runs, samples and summaries are kept" },
  { key: "target", label: "Target", what: "the default Postgres under test" },
  { key: "runner", label: "Runner", what: "the process that executes workloads" },
] as const;

/** The three parts' status, refreshed every 3 s from GET /api/health. */
export function StatusPanel({ initial }: { initial: Health }) {
  const [health, setHealth] = useState(initial);
  const [stale, setStale] = useState(false);
  useEffect(() => {
    const t = setInterval(async () => {
      try {
        const r = await fetch("/api/health", { cache: "no-store" });
        setHealth(await r.json());
        setStale(false);
      } catch {
        setStale(true);
      }
    }, 3000);
    return () => clearInterval(t);
  }, []);
  return (
    <section aria-label="System status" className="stack">
      <div className="spread">
        <h2>Status</h2>
        <span className="muted small">{stale ? "app unreachable, retrying…" : `checked ${new Date(health.checkedAt).toLocaleTimeString()}`}</span>
      </div>
      <div className="grid grid-3">
        {PARTS.map((p) => {
          const s = health[p.key];
          return (
            <div key={p.key} className="panel status-card" data-testid={`status-${p.key}`} data-up={s.up ? "true" : "false"}>
              <div className="spread">
                <span className="label">{p.label}</span>
                <span className={`badge ${s.up ? "ok" : "bad"}`}>
                  <span className="dot" /> {s.up ? "up" : "down"}
                </span>
              </div>
              <span className="small">{s.detail}</span>
              <span className="hint">{p.what}</span>
            </div>
          );
        })}
      </div>
    </section>
  );
}
