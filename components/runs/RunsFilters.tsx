"use client";
// The runs list's filters (issue 33): workload, status, target, tag, created from/to, and a search of names and
// notes. Each change goes to the address (components/runs/RunsTable.tsx), whose query the server applies in SQL.
import { useEffect, useState } from "react";
import { RUN_STATUSES } from "@/lib/measurement/metrics";
import { workloadDefinitions } from "@/lib/workloads/config";
import type { RunsQuery } from "./query";

/** The choices the stored runs offer: the targets and tags they use (the one filtered by is kept if none has it now). */
export interface RunsFacets {
  total: number;
  targets: string[];
  tags: string[];
}

const SEARCH_PAUSE_MS = 300;

export function RunsFilters({ q, setQ, facets }: { q: RunsQuery; setQ: (q: RunsQuery) => void; facets: RunsFacets }) {
  const withCurrent = (list: string[], v: string) => (v && !list.includes(v) ? [v, ...list] : list);
  return (
    <div className="row runs-filters">
      <Choice
        label="Workload"
        aria="Filter by workload"
        value={q.workload}
        options={workloadDefinitions().map((d) => d.kind)}
        onChange={(v) => setQ({ ...q, workload: v as RunsQuery["workload"] })}
      />
      <Choice label="Status" aria="Filter by status" value={q.status} options={[...RUN_STATUSES]} onChange={(v) => setQ({ ...q, status: v })} />
      <Choice
        label="Target"
        aria="Filter by target"
        value={q.target}
        options={withCurrent(facets.targets, q.target)}
        onChange={(v) => setQ({ ...q, target: v })}
      />
      <Choice label="Tag" aria="Filter by tag" value={q.tag} options={withCurrent(facets.tags, q.tag)} onChange={(v) => setQ({ ...q, tag: v })} />
      <label className="inline-field">
        From
        <input type="date" value={q.from} max={q.to || undefined} onChange={(e) => setQ({ ...q, from: e.target.value })} aria-label="Created from (UTC day)" />
      </label>
      <label className="inline-field">
        To
        <input type="date" value={q.to} min={q.from || undefined} onChange={(e) => setQ({ ...q, to: e.target.value })} aria-label="Created to (UTC day)" />
      </label>
      <Search q={q} setQ={setQ} />
    </div>
  );
}

function Choice({ label, aria, value, options, onChange }: { label: string; aria: string; value: string; options: string[]; onChange: (v: string) => void }) {
  return (
    <label className="inline-field">
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value)} aria-label={aria}>
        <option value="">all</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The search box: applied once typing pauses, so the list is not asked again at every key. */
function Search({ q, setQ }: { q: RunsQuery; setQ: (q: RunsQuery) => void }) {
  const [text, setText] = useState(q.q);
  useEffect(() => {
    if (text.trim() === q.q) return;
    const t = setTimeout(() => setQ({ ...q, q: text.trim() }), SEARCH_PAUSE_MS);
    return () => clearTimeout(t);
  }, [text, q, setQ]);
  return (
    <label className="inline-field">
      Search
      <input type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="names and notes" aria-label="Search names and notes" />
    </label>
  );
}
