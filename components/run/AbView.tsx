"use client";
// The page of "Run baseline and modded": an A/B of N pairs followed until every run ends, then each measure of
// all requests (p50, p95, average, requests/s) per variant, pooled over its runs with their range, the delta,
// the 95 % interval of the pair differences and whether it is "within noise"; beside them, the work each variant
// did, flagged runs, and the published pair (one run each); a measure whose interval is too wide to resolve its
// difference says how many pairs or how long a window would. While the runs go: a progress bar and the time left,
// from the runs' own times (lib/compare/ab-progress.ts), ticking each second. The figures are computed by the
// server (lib/compare/ab-stats.ts) from the runs' measured summaries.
import Link from "next/link";
import { fmtDelta, fmtFigure } from "@/lib/compare/ab";
import { type AbSlot, orderText } from "@/lib/compare/ab-order";
import { abProgress } from "@/lib/compare/ab-progress";
import { type AbStats, fmtInterval, fmtPooled } from "@/lib/compare/ab-stats";
import { fmtDuration } from "@/lib/runs/format";
import type { RunView } from "@/lib/runs/view";
import { SetRunsTable } from "./SetRunsTable";
import { SetLabels } from "./SetLabels";
import type { Labels } from "@/lib/runs/labels";
import { useGroupRuns } from "./useGroupRuns";

/** `labels`: the recorded group's (an older link's pair has none, and nothing to save them to). */
export function AbView({
  groupId,
  slots,
  initial,
  stats,
  exportHref,
  labels,
}: {
  groupId: string | null;
  slots: AbSlot[];
  initial: (RunView | null)[];
  stats: AbStats | null;
  /** Where the page's report downloads (its exported report itself has none). */
  exportHref?: string;
  labels?: Labels;
}) {
  const { views, problem, done, now } = useGroupRuns(initial, !!stats);
  const first = views.find((v) => v);
  const loop = first?.config ? ((first.config as { load?: string }).load === "rate" ? "open loop" : "closed loop") : null;
  const pairs = new Set(slots.map((s) => s.pair)).size;
  return (
    <main className="stack">
      <h1>
        Baseline and modded: {first?.workload}
        {loop ? ` (${loop})` : ""}
      </h1>
      {groupId && labels && <SetLabels initial={labels} endpoint={`/api/runs/ab/${groupId}`} what="A/B" />}
      <section className="panel">
        <h2>
          {pairs} pair{pairs === 1 ? "" : "s"} of runs
        </h2>
        <p className="hint" data-testid="ab-order">
          Run one at a time on {first?.targetLabel}, with the same load, in the balanced order {orderText(slots)} (A baseline, B modded) so neither variant
          always goes first; each is an ordinary run with its own page.{groupId ? ` A/B ${groupId}.` : ""}
        </p>
        <SetRunsTable head={["pair", "variant"]} slots={slots.map((s) => ({ group: s.pair, name: s.variant, runId: s.runId }))} views={views} prefix="ab" />
        <AbProgressBar views={views} now={now} />
        {problem && <p className="hint">{problem}</p>}
      </section>
      {done && !stats && (
        <p className="field-error" role="alert">
          Every run has ended, but no pair completed both its runs: there is nothing to compare. Each run&apos;s page says what happened.
        </p>
      )}
      {stats && <AbResults stats={stats} slots={slots} />}
      {stats && exportHref && (
        <p className="row">
          {/* One HTML file that opens anywhere, offline (components/report/). */}
          <a className="btn" href={exportHref} download data-testid="export-html">
            Export HTML
          </a>
        </p>
      )}
    </main>
  );
}

/** Seconds a run takes beyond its load, to a tenth below 10 s ("0.3s"), else as fmtDuration ("12s", "1m 05s"). */
const fmtOverhead = (s: number) => (s < 10 ? `${s.toFixed(1)}s` : fmtDuration(s));

/** Runs done of total, and the time left: measured where it can be, a lower bound until a run has finished. The
 *  synchronous commit ladder's page shows its runs' progress with it too (`label` names the set). */
export function AbProgressBar({ views, now, label = "A/B progress" }: { views: (RunView | null)[]; now: number | null; label?: string }) {
  const p = abProgress(views, now ?? 0);
  const pct = Math.round(p.fraction * 1000) / 10;
  const left =
    p.leftSeconds === null
      ? `all ended, ${fmtDuration(p.spentSeconds)} in all`
      : p.leftIsLowerBound
        ? `at least ${fmtDuration(p.leftSeconds)} left (the runs' planned load; what a run takes beyond it, set-up and checks, is measured once the first ends)`
        : `about ${fmtDuration(p.leftSeconds)} left (the planned load of the runs to come, plus ${fmtOverhead(p.overheadSeconds ?? 0)} each: what the finished runs took beyond theirs)`;
  return (
    <div className="progress-wrap" data-testid="ab-progress">
      <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-label={label}>
        <div className="progress-bar" style={{ width: `${pct}%` }} />
      </div>
      <div className="spread small">
        <span data-testid="ab-progress-label">
          {p.done} of {p.total} runs done
        </span>
        <span className="muted" data-testid="ab-time-left">
          {left}
        </span>
      </div>
    </div>
  );
}

function AbResults({ stats, slots }: { stats: AbStats; slots: AbSlot[] }) {
  const pub = stats.published;
  const firstBaseline = slots.find((s) => s.variant === "baseline")?.runId ?? slots[0].runId;
  const ids = [...slots.map((s) => s.runId), ...(pub ? [pub.baseline.id, pub.modded.id] : [])];
  return (
    <section className="panel" data-testid="ab-comparison">
      <h2>Baseline → modded, with its noise</h2>
      <table className="data" data-testid="ab-table">
        <caption className="hint">
          All requests, pool wait included, timed from the runner straight to Postgres, over {stats.pairs} pair{stats.pairs === 1 ? "" : "s"}. Each
          variant&apos;s figure is pooled over its runs (latencies from their merged histograms) with the runs&apos; range in brackets; the interval is the 95 %
          t-interval of the modded − baseline difference across pairs, as % of the baseline. An interval that includes zero is within noise.
        </caption>
        <thead>
          <tr>
            <th scope="col">all requests</th>
            <th scope="col">baseline</th>
            <th scope="col">modded</th>
            <th scope="col">delta</th>
            <th scope="col">95 % interval of the difference</th>
            <th scope="col">result</th>
          </tr>
        </thead>
        <tbody>
          {stats.rows.map((r) => (
            <tr key={r.key} data-testid={`ab-row-${r.key}`}>
              <th scope="row">{r.label}</th>
              <td className="num">{fmtPooled(r.baseline, r.unit)}</td>
              <td className="num">{fmtPooled(r.modded, r.unit)}</td>
              <td className="num" data-testid={`ab-delta-${r.key}`}>
                {fmtDelta(r.deltaPct, r.label)}
              </td>
              <td className="num" data-testid={`ab-ci-${r.key}`}>
                {fmtInterval(r)}
              </td>
              <td data-testid={`ab-finding-${r.key}`}>{r.finding ?? "no interval (one pair)"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {stats.advice.length > 0 && (
        <div className="alert warn" data-testid="ab-advice">
          <h3 style={{ margin: 0 }}>Too wide to resolve</h3>
          <ul>
            {stats.advice.map((a) => (
              <li key={a}>{a}</li>
            ))}
          </ul>
          <p className="hint" data-testid="ab-advice-basis">
            {stats.adviceBasis}
          </p>
        </div>
      )}
      <ul data-testid="ab-notes">
        {stats.notes.map((n) => (
          <li key={n}>{n}</li>
        ))}
      </ul>
      {pub ? (
        <div data-testid="ab-published">
          <h3>Published pair (one run each)</h3>
          <table className="data compact">
            <thead>
              <tr>
                <th scope="col">all requests</th>
                <th scope="col">published baseline</th>
                <th scope="col">published modded</th>
                <th scope="col">published delta</th>
              </tr>
            </thead>
            <tbody>
              {stats.rows.map((r) => (
                <tr key={r.key}>
                  <th scope="row">{r.label}</th>
                  <td className="num">{fmtFigure(r.published?.baseline ?? null, r.unit)}</td>
                  <td className="num">{fmtFigure(r.published?.modded ?? null, r.unit)}</td>
                  <td className="num">{fmtDelta(r.published?.deltaPct ?? null, r.label)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="hint">
            {pub.baseline.title}; {pub.modded.title}. {pub.baseline.loadModel}; {pub.baseline.server}. Measured {pub.baseline.measuredThrough ?? "as ours"}, so
            compare the deltas, not the absolute figures; one run each, with no spread, so its deltas may be noise too.
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
        <Link href={`/compare?ids=${ids.join(",")}&base=${firstBaseline}`} data-testid="ab-compare-link">
          Open the full comparison
        </Link>{" "}
        <span className="hint">(every run, metric, config and environment, the first baseline as compare&apos;s baseline)</span>
      </p>
    </section>
  );
}
