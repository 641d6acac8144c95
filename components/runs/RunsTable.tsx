"use client";
// Every run in one table: sortable by any column, filtered by workload, status, target, tag, date and a search of
// names and notes (kept in the URL so a view can be shared or reloaded; GET /api/runs applies them in SQL), with
// checkboxes to pick runs for the comparison page and "Delete these N runs" for the filter's runs.
import Link from "next/link";
import { ImportBundle } from "./ImportBundle";
import { Fragment, useEffect, useMemo, useState } from "react";
import { LocalTime } from "@/components/run/LocalTime";
import { fmtLatency, fmtRate, knobsLabel, knobsParts, STATUS_BADGE } from "@/lib/runs/format";
import type { RunView } from "@/lib/runs/view";
import { DeleteMatching } from "./DeleteMatching";
import { filterString, queryString, type RunsQuery, type SortKey } from "./query";
import { type RunsFacets, RunsFilters } from "./RunsFilters";
import { useRunsRows } from "./useRunsRows";

const COLUMNS: { key: SortKey; label: string; num?: boolean }[] = [
  { key: "status", label: "Status" },
  { key: "workload", label: "Workload" },
  { key: "knobs", label: "Knobs" },
  { key: "rate1", label: "Rate", num: true },
  { key: "rate2", label: "2nd rate", num: true },
  { key: "p99", label: "p99", num: true },
  { key: "target", label: "Target" },
  { key: "date", label: "Date" },
];

function sortValue(r: RunView, key: SortKey): string | number {
  switch (key) {
    case "date":
      return r.createdAt;
    case "status":
      return r.status;
    case "workload":
      return r.workload;
    case "knobs":
      return knobsLabel(r.config);
    case "rate1":
      return r.headline?.rates[0]?.perSec ?? -1;
    case "rate2":
      return r.headline?.rates[1]?.perSec ?? -1;
    case "p99":
      return r.headline?.latency?.p99Ms ?? Number.POSITIVE_INFINITY;
    case "target":
      return r.targetLabel;
  }
}

/** Column names when every shown run with a headline measures the same thing in that column. */
function headlineNames(rows: RunView[]): Partial<Record<SortKey, string>> {
  const one = (names: (string | undefined)[]): string | undefined => {
    const set = new Set(names.filter((n): n is string => n !== undefined));
    return set.size === 1 ? [...set][0] : undefined;
  };
  const heads = rows.flatMap((r) => (r.headline ? [r.headline] : []));
  const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  const rate = (k: number) => one(heads.map((h) => (h.rates[k] ? `${cap(h.rates[k].label)} ${h.rates[k].unit}` : undefined)));
  const p99 = one(heads.map((h) => (h.latency ? `${h.latency.label} p99` : undefined)));
  return { rate1: rate(0), rate2: rate(1), p99 };
}

type Column = (typeof COLUMNS)[number];

/** The filters and the sort, kept in the address bar (replaced, not pushed: the rows come from useRunsRows). */
function useRunsQuery(initial: RunsQuery) {
  const [q, setQ] = useState(initial);
  useEffect(() => {
    const qs = queryString(q);
    window.history.replaceState(null, "", qs ? `?${qs}` : window.location.pathname);
  }, [q]);
  return [q, setQ] as const;
}

export function RunsTable({ runs: initialRuns, initial, facets }: { runs: RunView[]; initial: RunsQuery; facets: RunsFacets }) {
  const [q, setQ] = useRunsQuery(initial);
  const { shown, problem, reload } = useRunsRows(initialRuns, filterString(initial), filterString(q));
  const runs = shown.runs;
  const [selected, setSelected] = useState<string[]>([]);

  const rows = useMemo(() => {
    const list = [...runs];
    const sign = q.dir === "asc" ? 1 : -1;
    return list.sort((a, b) => {
      const x = sortValue(a, q.sort);
      const y = sortValue(b, q.sort);
      return (x < y ? -1 : x > y ? 1 : 0) * sign || (a.createdAt < b.createdAt ? 1 : -1);
    });
  }, [runs, q]);

  // The headline columns are named after what the shown rows measure ("Write msg/s", "e2e p99") when they
  // all measure the same thing; over workloads that differ, each cell names its operation instead.
  const named = useMemo(() => headlineNames(rows), [rows]);
  const columns = COLUMNS.map((c) => (named[c.key] ? { ...c, label: named[c.key] as string } : c));

  const toggleSort = (key: SortKey) =>
    setQ((old) => ({
      ...old,
      sort: key,
      dir: old.sort === key ? (old.dir === "asc" ? "desc" : "asc") : key === "date" || key === "rate1" || key === "rate2" ? "desc" : "asc",
    }));
  const toggle = (id: string) => setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));
  return (
    <div className="stack">
      <RunsToolbar q={q} setQ={setQ} columns={columns} shown={rows.length} facets={facets} selected={selected} onClear={() => setSelected([])} />
      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
      <DeleteMatching filter={shown.filter} runs={runs} onDeleted={reload} />

      {facets.total === 0 ? (
        <div className="panel">
          <p style={{ marginTop: 0 }}>No runs yet.</p>
          <Link className="btn primary" href="/runs/new">
            Launch the first one
          </Link>
        </div>
      ) : rows.length === 0 ? (
        <p className="panel muted">No run matches these filters.</p>
      ) : (
        <div className="table-wrap panel flush">
          <table className="data runs-table" data-testid="runs-table">
            <thead>
              <tr>
                <th>
                  <span className="sr-only">Select</span>
                </th>
                <th>Run</th>
                {columns.map((c) => (
                  <SortHeader key={c.key} c={c} q={q} onSort={toggleSort} />
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <RunRow
                  key={r.id}
                  r={r}
                  columns={columns}
                  named={named}
                  selected={selected.includes(r.id)}
                  onToggle={() => toggle(r.id)}
                  onTag={(tag) => setQ({ ...q, tag })}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {/* Runs from another instance's bundle join this list (lib/bundle/): it asks for its rows again. */}
      <ImportBundle onImported={reload} />
    </div>
  );
}

/** The filters, the sort (as a menu on a phone), the count shown, and the selection to compare. */
function RunsToolbar({
  q,
  setQ,
  columns,
  shown,
  facets,
  selected,
  onClear,
}: {
  q: RunsQuery;
  setQ: (q: RunsQuery) => void;
  columns: Column[];
  shown: number;
  facets: RunsFacets;
  selected: string[];
  onClear: () => void;
}) {
  return (
    <div className="spread panel toolbar">
      <div className="row">
        <RunsFilters q={q} setQ={setQ} facets={facets} />
        <label className="inline-field phone-only">
          Sort
          <select
            value={`${q.sort}:${q.dir}`}
            onChange={(e) => {
              const [sort, dir] = e.target.value.split(":") as [SortKey, "asc" | "desc"];
              setQ({ ...q, sort, dir });
            }}
            aria-label="Sort runs"
          >
            {columns.flatMap((c) =>
              (["desc", "asc"] as const).map((d) => (
                <option key={`${c.key}:${d}`} value={`${c.key}:${d}`}>
                  {c.label} {d === "desc" ? "↓" : "↑"}
                </option>
              )),
            )}
          </select>
        </label>
        <span className="muted small" data-testid="runs-count">
          {shown} of {facets.total} runs
        </span>
      </div>
      <div className="row">
        {selected.length > 0 && (
          <button type="button" className="btn" onClick={onClear}>
            Clear selection
          </button>
        )}
        {selected.length >= 2 ? (
          <Link className="btn primary" href={`/compare?ids=${selected.map(encodeURIComponent).join(",")}`} data-testid="compare-selected">
            Compare selected ({selected.length})
          </Link>
        ) : (
          <span className="btn primary" aria-disabled="true" data-testid="compare-selected" title="Select two or more runs to compare them">
            Compare selected ({selected.length})
          </span>
        )}
      </div>
    </div>
  );
}

function SortHeader({ c, q, onSort }: { c: Column; q: RunsQuery; onSort: (key: SortKey) => void }) {
  return (
    <th className={c.num ? "num" : undefined} aria-sort={q.sort === c.key ? (q.dir === "asc" ? "ascending" : "descending") : undefined}>
      <button type="button" className="sort" onClick={() => onSort(c.key)}>
        {c.label}
        <span aria-hidden="true" className="sort-mark">
          {q.sort === c.key ? (q.dir === "asc" ? "▲" : "▼") : ""}
        </span>
      </button>
    </th>
  );
}

function RunRow({
  r,
  columns,
  named,
  selected,
  onToggle,
  onTag,
}: {
  r: RunView;
  columns: Column[];
  named: Partial<Record<SortKey, string>>;
  selected: boolean;
  onToggle: () => void;
  /** A tag clicked: the list filtered by it. */
  onTag: (tag: string) => void;
}) {
  return (
    <tr data-run-id={r.id} data-status={r.status} data-workload={r.workload} className={selected ? "selected" : undefined}>
      <td>
        <input type="checkbox" checked={selected} onChange={onToggle} aria-label={`Select run ${r.id}`} />
      </td>
      <td className="run-name">
        {/* A named run shows its name, its id below it, small; its tags after. */}
        <Link href={`/runs/${r.id}`} className={r.name ? undefined : "mono"}>
          {r.name ?? r.id}
        </Link>
        {r.name && <div className="mono muted small">{r.id}</div>}
        {r.tags.length > 0 && (
          <div className="row small" style={{ gap: 4 }}>
            {r.tags.map((t) => (
              <button key={t} type="button" className="badge neutral tag tag-filter" onClick={() => onTag(t)} title={`Show the runs tagged ${t}`}>
                {t}
              </button>
            ))}
          </div>
        )}
      </td>
      <td>
        <span className={`badge ${STATUS_BADGE[r.status] ?? ""}`}>{r.status}</span>
        {r.source === "import" && (
          <span className="badge neutral" title="imported from another instance's bundle" data-testid="imported-badge">
            imported
          </span>
        )}
        {r.headline && !r.headline.verified && (
          <span className="badge bad" title="verification failed">
            unverified
          </span>
        )}
      </td>
      <td>{r.workload}</td>
      <td className="small knobs">
        {/* Each knob stays whole unless longer than the cell; the cell wraps between them so the table fits a laptop's width. */}
        {knobsParts(r.config).map((k, i) => (
          <Fragment key={i}>
            {i > 0 && "\u00a0· "}
            <span className="knob">{k}</span>
          </Fragment>
        ))}
      </td>
      {([0, 1] as const).map((k) => {
        const rate = r.headline?.rates[k];
        return (
          <td key={k} className="num" data-label={rate ? `${rate.label} ${rate.unit}` : columns[3 + k].label}>
            {rate ? fmtRate(rate.perSec) : "–"}
            {rate && !named[k ? "rate2" : "rate1"] && <span className="muted small"> {rate.label}</span>}
          </td>
        );
      })}
      <td className="num" data-label={r.headline?.latency ? `${r.headline.latency.label} p99` : "p99"}>
        {fmtLatency(r.headline?.latency?.p99Ms)}
        {r.headline?.latency && !named.p99 && <span className="muted small"> {r.headline.latency.label}</span>}
      </td>
      <td className="small target">{r.targetLabel}</td>
      <td className="small nowrap">
        <LocalTime iso={r.createdAt} />
      </td>
    </tr>
  );
}
