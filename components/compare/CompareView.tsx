"use client";
// /compare: the whole view lives in the URL (ids, baseline, differences-only, log scale, chart metric and
// percentile), so a copied link opens the same view in any browser on the same server. Changing the
// selection reloads from the server; the other switches only rewrite the URL.
import { useRouter } from "next/navigation";
import "./compare.css";
import { useEffect, useMemo, useState, useTransition } from "react";
import type { Comparable } from "@/lib/compare/comparable";
import { buildComparison } from "@/lib/compare/compare";
import { compareUrl, viewQuery, type ViewState } from "@/lib/compare/view-state";
import type { Choice, LoadProblem } from "@/lib/compare/load";
import { CompareCharts } from "./CompareCharts";
import { ConfigTable } from "./ConfigTable";
import { ContextPanel } from "./ContextPanel";
import { ImportPanel } from "./ImportPanel";
import { Picker } from "./Picker";
import { ResultsTable } from "./ResultsTable";
import { SustainedTable } from "./SustainedTable";
import { ItemName, SourceBadge } from "./ui";

const SUGGESTIONS = [
  {
    label: "the three published pub/sub scenarios",
    ids: ["ref:pubsub-4vcpu-single-node", "ref:pubsub-4vcpu-three-node-sync-replicated", "ref:pubsub-96vcpu-single-node"],
  },
  {
    label: "the three published queue scenarios",
    ids: ["ref:queue-4vcpu-single-node", "ref:queue-4vcpu-three-node-sync-replicated", "ref:queue-96vcpu-single-node"],
  },
];

export function CompareView({ initial, items, problems, choices }: { initial: ViewState; items: Comparable[]; problems: LoadProblem[]; choices: Choice[] }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [view, setView] = useState<ViewState>(() => ({
    ...initial,
    ids: items.map((i) => i.key),
    base: initial.base && items.some((i) => i.key === initial.base) ? initial.base : null,
  }));
  const [copied, setCopied] = useState<"" | "ok" | "failed">("");
  const cmp = useMemo(() => buildComparison(items, view.base), [items, view.base]);
  const query = viewQuery(view);
  const [origin, setOrigin] = useState("");
  useEffect(() => setOrigin(window.location.origin), []);
  const link = compareUrl(origin, view);

  // Keep the address bar equal to what is shown (no server round trip for view switches).
  useEffect(() => {
    const want = `/compare${query ? `?${query}` : ""}`;
    if (window.location.pathname + window.location.search !== want) window.history.replaceState(null, "", want);
  }, [query]);

  const change = (v: Partial<ViewState>) => setView((s) => ({ ...s, ...v }));
  const select = (ids: string[]) => {
    const next = { ...view, ids, base: view.base && ids.includes(view.base) ? view.base : null };
    startTransition(() => router.push(`/compare?${viewQuery(next)}`));
  };

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(link);
      setCopied("ok");
    } catch {
      // Without clipboard permission (some browsers over plain http), select the link for a manual copy.
      const el = document.getElementById("share-link") as HTMLInputElement | null;
      el?.select();
      setCopied(document.execCommand?.("copy") ? "ok" : "failed");
    }
    setTimeout(() => setCopied(""), 2500);
  }

  // The whole view goes along, so the export's link is exactly the Copy link URL (lib/compare/view-state.ts compareUrl).
  const exportHref = (format: string) => `/api/compare?${query}&format=${format}&download=1`;

  return (
    <div className="stack compare-page" aria-busy={pending}>
      <section className="panel">
        <div className="spread">
          <h1 style={{ margin: 0 }}>Compare</h1>
          {items.length > 0 && (
            <div className="row share-row">
              <input
                id="share-link"
                className="share-link mono"
                readOnly
                value={link}
                aria-label="Link to this comparison"
                data-testid="share-link"
                onFocus={(e) => e.target.select()}
              />
              <button type="button" className="btn primary" onClick={copyLink} data-testid="copy-link">
                {copied === "ok" ? "Copied ✓" : copied === "failed" ? "Select and copy" : "Copy link"}
              </button>
              <span className="row export-links">
                <a className="btn" href={exportHref("md")} data-testid="export-md">
                  Markdown
                </a>
                <a className="btn" href={exportHref("csv")} data-testid="export-csv">
                  CSV
                </a>
                <a className="btn" href={exportHref("json")} data-testid="export-json">
                  JSON
                </a>
                <a className="btn" href={exportHref("html")} data-testid="export-html" title="one HTML file that opens offline: tables and charts">
                  HTML
                </a>
                <a className="btn" href={exportHref("bundle")} data-testid="export-bundle" title="the compared runs, to import into another instance">
                  Bundle
                </a>
              </span>
            </div>
          )}
        </div>
        <p className="muted small" style={{ margin: "8px 0 12px" }}>
          Put runs measured here beside imported outputs of the reference tool and the published results. Each keeps its own badge —{" "}
          <SourceBadge badge="measured" /> <SourceBadge badge="imported" /> <SourceBadge badge="published" /> — and its own semantics.
        </p>
        <div className="selected-items" data-testid="selected-items">
          {items.map((it, i) => (
            <span key={it.key} className="chip" data-key={it.key}>
              <ItemName item={it} index={i} /> <SourceBadge badge={it.badge} />
              <button type="button" className="chip-x" aria-label={`Remove ${it.label}`} onClick={() => select(view.ids.filter((k) => k !== it.key))}>
                ×
              </button>
            </span>
          ))}
        </div>
        <Picker choices={choices} selected={view.ids} onAdd={(k) => select([...view.ids, k])} />
        {pending && <p className="hint">Loading…</p>}
      </section>

      {problems.length > 0 && (
        <div className="alert warn" role="alert" data-testid="compare-problems">
          Left out of the comparison:
          <ul className="plain">
            {problems.map((p) => (
              <li key={p.key}>{p.message}</li>
            ))}
          </ul>
        </div>
      )}

      <ImportPanel open={items.length === 0} onImported={(id) => select([...view.ids, id])} />

      {items.length === 0 ? (
        <section className="panel">
          <h2>Nothing selected yet</h2>
          <p className="muted">Add items with the picker above, import a tool output, or start from:</p>
          <ul className="plain">
            {SUGGESTIONS.map((s) => (
              <li key={s.label}>
                <a href={`/compare?ids=${s.ids.join(",")}`}>{s.label}</a>
              </li>
            ))}
            <li>
              <a href="/runs">your stored runs</a> (select some and press Compare)
            </li>
          </ul>
        </section>
      ) : (
        <>
          <ContextPanel notes={cmp.notes} />
          {cmp.sustained && <SustainedTable table={cmp.sustained} />}
          <ResultsTable cmp={cmp} onBaseline={(k) => change({ base: k })} />
          <ConfigTable cmp={cmp} diffOnly={view.diff} onDiffOnly={(d) => change({ diff: d })} />
          <CompareCharts items={items} view={view} onChange={change} />
          {items.some((i) => i.notes.length) && (
            <section className="panel" aria-labelledby="meaning-h">
              <h2 id="meaning-h">What the numbers mean</h2>
              {items.map((it, i) =>
                it.notes.length ? (
                  <div key={it.key} className="item-notes">
                    <ItemName item={it} index={i} /> <SourceBadge badge={it.badge} />
                    <ul className="plain small">
                      {it.notes.map((n, j) => (
                        <li key={j}>{n}</li>
                      ))}
                    </ul>
                  </div>
                ) : null,
              )}
            </section>
          )}
        </>
      )}
    </div>
  );
}
