"use client";
// The page of a repeated set: its runs (one config, N times, one after the other on one target) followed until every
// one ends, then each figure (each counted operation's rate, each latency's p50 and p99) pooled over the repeats
// (histograms merged: percentiles are never averaged), the median of the repeats' own figures with the interval of
// that median and its confidence, and how far apart they landed. The figures are computed by the server
// (lib/repeat/stats.ts) from the runs' measured summaries; the CLI prints the same (`--repeat N`).
import Link from "next/link";
import { figureText, intervalText } from "@/lib/gate/gate";
import type { RepeatRow } from "@/lib/repeat/stats";
import type { RunView } from "@/lib/runs/view";
import { AbProgressBar } from "./AbView";
import { SetRunsTable } from "./SetRunsTable";
import { useGroupRuns } from "./useGroupRuns";
import { SetLabels } from "./SetLabels";
import type { Labels } from "@/lib/runs/labels";

export function RepeatView({
  groupId,
  labels,
  runIds,
  initial,
  rows,
  completed,
}: {
  groupId: string;
  labels: Labels;
  runIds: string[];
  initial: (RunView | null)[];
  /** Null until every run has ended; then the completed runs' figures. */
  rows: RepeatRow[] | null;
  completed: number;
}) {
  const { views, problem, done, now } = useGroupRuns(initial, rows !== null);
  const first = views.find((v) => v);
  return (
    <main className="stack">
      <h1>Repeated: {first?.workload}</h1>
      <SetLabels initial={labels} endpoint={`/api/runs/repeat/${groupId}`} what="set" />
      <section className="panel">
        <h2>{runIds.length} runs of one config</h2>
        <p className="hint" data-testid="repeat-about">
          The same config run {runIds.length} times, one after the other on {first?.targetLabel}, each an ordinary run with its own page: how far apart they
          land is the noise a single run cannot show. Set {groupId}.
        </p>
        <SetRunsTable
          head={["#", "repeat"]}
          slots={runIds.map((runId, i) => ({ group: i + 1, name: `repeat ${i + 1}`, runId }))}
          views={views}
          prefix="repeat"
        />
        <AbProgressBar views={views} now={now} label="Set progress" />
        {problem && <p className="hint">{problem}</p>}
      </section>
      {done && rows !== null && completed < 2 && (
        <p className="field-error" role="alert">
          Every run has ended, but {completed === 0 ? "none" : "only one"} completed: a spread needs two. Each run&apos;s page says what happened.
        </p>
      )}
      {rows !== null && completed >= 2 && <RepeatResults rows={rows} completed={completed} runIds={runIds} />}
    </main>
  );
}

function RepeatResults({ rows, completed, runIds }: { rows: RepeatRow[]; completed: number; runIds: string[] }) {
  const confidence = rows[0]?.interval?.confidence;
  return (
    <section className="panel" data-testid="repeat-results">
      <h2>Each figure over {completed} repeats</h2>
      <div className="table-wrap">
        <table className="data" data-testid="repeat-table">
          <caption className="hint">
            Pooled: every repeat&apos;s histograms merged, a rate as all items over all seconds. Median: of the repeats&apos; own figures, with the interval of
            that median from their order statistics (no shape assumed){confidence !== undefined ? `, here at ${Math.floor(confidence * 1000) / 10} %` : ""}
            {completed < 6 ? `: ${completed} repeats can only give [min, max]; 6 reach 95 %` : ""}. Spread: max − min, as % of the median.
          </caption>
          <thead>
            <tr>
              <th scope="col">figure</th>
              <th scope="col" className="num">
                pooled
              </th>
              <th scope="col" className="num">
                median
              </th>
              <th scope="col" className="num">
                interval of the median
              </th>
              <th scope="col" className="num">
                min–max
              </th>
              <th scope="col" className="num">
                spread
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.metric} data-testid={`repeat-row-${r.metric}`}>
                <th scope="row">
                  <code>{r.metric}</code>
                </th>
                <td className="num">{figureText(r.pooled, r.unit)}</td>
                <td className="num">{r.interval ? figureText(r.interval.median, r.unit) : "–"}</td>
                <td className="num">{r.interval ? intervalText(r.interval, r.unit) : "–"}</td>
                <td className="num">{`${figureText(r.min, r.unit).replace(` ${r.unit}`, "")}–${figureText(r.max, r.unit)}`}</td>
                <td className="num">{r.spreadPct === null ? "–" : `${r.spreadPct.toFixed(1)} %`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p>
        <Link href={`/compare?ids=${runIds.join(",")}`} data-testid="repeat-compare-link">
          Open the full comparison
        </Link>{" "}
        <span className="hint">(every run, metric, config and environment)</span>
      </p>
    </section>
  );
}
