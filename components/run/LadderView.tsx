"use client";
// The page of a synchronous commit ladder: its runs (one per level and round, in the balanced order recorded with
// the group) followed until every one ends, then side by side and as charts, for each level: the commit's and the
// end-to-end latency at p50 and p99, the throughput, the SyncRep waits and each standby's lag, with the intervals
// across repeats, what a commit waited for, and the 2016 ladder beside them with its version and caveats. The
// figures are computed by the server (lib/ladder/stats.ts) from the runs' measured summaries.
import Link from "next/link";
import { ladderOrderText, type LadderSlot } from "@/lib/ladder/order";
import type { LadderStats } from "@/lib/ladder/stats";
import { fmtStandbyLag, ladderCells } from "@/lib/ladder/text";
import type { RunView } from "@/lib/runs/view";
import { AbProgressBar } from "./AbView";
import { LadderCharts } from "./LadderCharts";
import { SetRunsTable } from "./SetRunsTable";
import { useGroupRuns } from "./useGroupRuns";
import { SetLabels } from "./SetLabels";
import type { Labels } from "@/lib/runs/labels";

export function LadderView({
  groupId,
  slots,
  initial,
  stats,
  labels,
}: {
  groupId: string;
  labels: Labels;
  slots: LadderSlot[];
  initial: (RunView | null)[];
  stats: LadderStats | null;
}) {
  const { views, problem, done, now } = useGroupRuns(initial, !!stats);
  const first = views.find((v) => v);
  const levels = [...new Set(slots.map((s) => s.level))];
  const rounds = Math.max(0, ...slots.map((s) => s.round));
  return (
    <main className="stack">
      <h1>Synchronous commit ladder: {first?.workload}</h1>
      <SetLabels initial={labels} endpoint={`/api/runs/ladder/${groupId}`} what="ladder" />
      <section className="panel">
        <h2>
          {levels.length} level{levels.length === 1 ? "" : "s"} × {rounds} repeat{rounds === 1 ? "" : "s"}
        </h2>
        <p className="hint" data-testid="ladder-order">
          One config at each synchronous_commit level, run one at a time on {first?.targetLabel}, in the balanced order {ladderOrderText(slots)}, so no level
          always runs first on a cold cache or last on a full table; each is an ordinary run with its own page. Ladder {groupId}.
        </p>
        <SetRunsTable head={["round", "level"]} slots={slots.map((s) => ({ group: s.round, name: s.level, runId: s.runId }))} views={views} prefix="ladder" />
        <AbProgressBar views={views} now={now} label="Ladder progress" />
        {problem && <p className="hint">{problem}</p>}
      </section>
      {done && !stats && (
        <p className="field-error" role="alert">
          Every run has ended, but none completed: there is nothing to show. Each run&apos;s page says what happened.
        </p>
      )}
      {stats && <LadderResults stats={stats} slots={slots} />}
    </main>
  );
}

/** The table's columns of words; the others hold figures. */
const TEXT_COLUMNS = new Set(["commit waits for", "2016 ladder"]);

function LadderResults({ stats, slots }: { stats: LadderStats; slots: LadderSlot[] }) {
  const { head, rows } = ladderCells(stats);
  return (
    <section className="panel" data-testid="ladder-results">
      <h2>What each level costs</h2>
      <table className="data" data-testid="ladder-table">
        <caption className="hint">
          Each level over its {stats.repeats} repeat{stats.repeats === 1 ? "" : "s"}: latencies pooled from the repeats&apos; merged histograms (percentiles are
          never averaged), throughput over all their measured seconds, the share of the run&apos;s active backends waiting on SyncRep; in brackets the 95 %
          interval of the repeats&apos; own figures. &quot;vs {stats.base ?? "—"}&quot;: each ladder&apos;s throughput relative to that level, ours and the 2016
          one.
        </caption>
        <thead>
          <tr>
            {head.map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((cells, i) => (
            <tr key={cells[0]} data-testid={`ladder-row-${stats.levels[i].level}`}>
              <th scope="row">{cells[0]}</th>
              {cells.slice(1).map((c, j) => (
                <td key={head[j + 1]} className={TEXT_COLUMNS.has(head[j + 1]) ? undefined : "num"}>
                  {c}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <StandbyLags stats={stats} />
      <LadderCharts stats={stats} />
      <ul data-testid="ladder-notes">
        {stats.notes.map((n) => (
          <li key={n}>{n}</li>
        ))}
      </ul>
      <ReferenceLadder stats={stats} />
      <p>
        <Link href={`/compare?ids=${slots.map((s) => s.runId).join(",")}`} data-testid="ladder-compare-link">
          Open the full comparison
        </Link>{" "}
        <span className="hint">(every run, metric, config and environment)</span>
      </p>
    </section>
  );
}

/** Each standby's lag at each level, or, plainly, that the target had none. */
function StandbyLags({ stats }: { stats: LadderStats }) {
  if (stats.standbys !== "some")
    return (
      <p data-testid="ladder-standbys">
        <strong>{stats.standbys === "none" ? "No standbys" : "Standbys unknown"}</strong>:{" "}
        {stats.standbys === "none"
          ? "the target had none, so remote_write, on and remote_apply waited for the local WAL flush only, as local did, and no lag is shown."
          : "no replication readings (telemetry off, or runs stored before it was recorded)."}
      </p>
    );
  return (
    <div data-testid="ladder-standbys">
      <h3>Lag per standby</h3>
      <p className="hint">
        Each repeat&apos;s median lag in time over its measured window (the lowest–highest of the repeats), and the largest any second showed.
      </p>
      <table className="data compact">
        <tbody>
          {stats.levels.map((l) => (
            <tr key={l.level} data-testid={`ladder-lag-${l.level}`}>
              <th scope="row">{l.level}</th>
              <td>{l.standbys.length ? l.standbys.map((s) => <div key={s.name}>{fmtStandbyLag(s)}</div>) : "no standby seen"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The 2016 ladder as published, labelled with its version, source and what keeps it from comparing. */
function ReferenceLadder({ stats }: { stats: LadderStats }) {
  const ref = stats.reference;
  return (
    <div data-testid="ladder-reference">
      <h3>The 2016 ladder: {ref.label}</h3>
      <table className="data compact">
        <thead>
          <tr>
            <th scope="col">synchronous_commit</th>
            <th scope="col">replica</th>
            <th scope="col">waits as our</th>
            <th scope="col">TPS</th>
          </tr>
        </thead>
        <tbody>
          {ref.rows.map((r) => (
            <tr key={`${r.level}-${r.replica}`}>
              <th scope="row">{r.level}</th>
              <td>{r.replica ?? "not stated"}</td>
              <td>{r.waitsAs}</td>
              <td className="num">{r.tps.toLocaleString("en-US")}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint">
        {ref.author}, {ref.published}: <a href={ref.url}>{ref.url}</a>. Published, not measured here:
      </p>
      <ul className="hint" data-testid="ladder-reference-caveats">
        {ref.caveats.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
    </div>
  );
}
