"use client";
// The page of "Run baseline and modded": both runs followed until they end, then the article's comparison of
// the pair (p50, p95, average, requests/s of all requests, baseline first, with deltas) and, when the config has
// the published shape, the published pair beside it. Every figure is the runs' measured summary.
import Link from "next/link";
import { useEffect, useState } from "react";
import { abCompareHref, abRows, fmtDelta, fmtFigure, publishedPairFor } from "@/lib/compare/ab";
import type { RunView } from "@/lib/runs/view";
import { VARIANTS, type Variant } from "@/workloads/yong/fields";

type Pair = Record<Variant, RunView>;
const FINAL = new Set(["completed", "failed", "cancelled", "interrupted"]);

export function AbView({ initial }: { initial: Pair }) {
  const [pair, setPair] = useState<Pair>(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const done = VARIANTS.every((v) => FINAL.has(pair[v].status));

  useEffect(() => {
    if (done) return;
    let stop = false;
    const poll = async () => {
      try {
        const views = await Promise.all(
          VARIANTS.map(async (v) => {
            const r = await fetch(`/api/runs/${pair[v].id}`, { cache: "no-store" });
            if (!r.ok) throw new Error(`run ${pair[v].id}: HTTP ${r.status}`);
            return (await r.json()) as RunView;
          }),
        );
        if (!stop) {
          setPair({ baseline: views[0], modded: views[1] });
          setProblem(null);
        }
      } catch (err) {
        if (!stop) setProblem(`Could not read the runs' progress (${(err as Error).message}); retrying.`);
      }
    };
    const t = setInterval(poll, 1000);
    return () => {
      stop = true;
      clearInterval(t);
    };
  }, [done, pair]);

  const b = pair.baseline;
  const m = pair.modded;
  const bothCompleted = b.status === "completed" && m.status === "completed" && b.summary && m.summary;
  const pub = b.config ? publishedPairFor(b.config as never) : null;
  const rows = bothCompleted ? abRows(b.summary!, m.summary!, pub) : null;

  return (
    <main className="stack">
      <h1>
        Baseline and modded: {b.workload}
        {b.config ? ` (${(b.config as { load?: string }).load === "rate" ? "open loop" : "closed loop"})` : ""}
      </h1>
      <section className="panel">
        <h2>The two runs</h2>
        <p className="hint">Run one after the other on {b.targetLabel}, with the same load; each is an ordinary run with its own page.</p>
        <table className="data compact" data-testid="ab-runs">
          <tbody>
            {VARIANTS.map((v) => (
              <tr key={v} data-testid={`ab-run-${v}`}>
                <th scope="row">{v}</th>
                <td>
                  <Link href={`/runs/${pair[v].id}`}>{pair[v].id}</Link>
                </td>
                <td data-testid={`ab-status-${v}`}>
                  {pair[v].status}
                  {pair[v].status === "running" && pair[v].phase ? ` (${pair[v].phase})` : ""}
                </td>
                <td>{pair[v].error ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {problem && <p className="hint">{problem}</p>}
      </section>
      {done && !rows && (
        <p className="field-error" role="alert">
          Both runs have ended, but not both completed: there is no pair to compare. Each run's page says what happened.
        </p>
      )}
      {rows && (
        <section className="panel" data-testid="ab-comparison">
          <h2>Baseline → modded</h2>
          <table className="data" data-testid="ab-table">
            <caption className="hint">
              All requests, pool wait included, timed from the runner straight to Postgres; deltas are modded against baseline.
              {pub ? ` Published: ${pub.baseline.measuredThrough ?? "as ours"}, so compare the deltas, not the absolute figures.` : ""}
            </caption>
            <thead>
              <tr>
                <th scope="col">all requests</th>
                <th scope="col">baseline</th>
                <th scope="col">modded</th>
                <th scope="col">delta</th>
                {pub && (
                  <>
                    <th scope="col">published baseline</th>
                    <th scope="col">published modded</th>
                    <th scope="col">published delta</th>
                  </>
                )}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.key} data-testid={`ab-row-${r.key}`}>
                  <th scope="row">{r.label}</th>
                  <td className="num">{fmtFigure(r.ours.baseline, r.unit)}</td>
                  <td className="num">{fmtFigure(r.ours.modded, r.unit)}</td>
                  <td className="num" data-testid={`ab-delta-${r.key}`}>
                    {fmtDelta(r.ours.deltaPct, r.label)}
                  </td>
                  {r.published && (
                    <>
                      <td className="num">{fmtFigure(r.published.baseline, r.unit)}</td>
                      <td className="num">{fmtFigure(r.published.modded, r.unit)}</td>
                      <td className="num">{fmtDelta(r.published.deltaPct, r.label)}</td>
                    </>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
          {pub ? (
            <div data-testid="ab-published">
              <p className="hint">
                Published pair: {pub.baseline.title}; {pub.modded.title}. {pub.baseline.loadModel}; {pub.baseline.server}.
              </p>
              <ul className="hint">
                {pub.modded.caveats.map((c) => (
                  <li key={c.text}>
                    {c.text} <span className="muted">({c.by === "author" ? "the author" : "found by us"})</span>
                  </li>
                ))}
              </ul>
            </div>
          ) : (
            <p className="hint" data-testid="ab-published">
              No published pair has this config&apos;s shape (the article&apos;s VUs, think time, mix and pool): its presets do.
            </p>
          )}
          <p>
            <Link href={abCompareHref(b.id, m.id, pub)} data-testid="ab-compare-link">
              Open the full comparison
            </Link>{" "}
            <span className="hint">(every metric, config and environment, baseline first)</span>
          </p>
        </section>
      )}
    </main>
  );
}
