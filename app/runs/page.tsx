import type { Metadata } from "next";
import Link from "next/link";
import { LEGACY_SORT_KEYS, SORT_KEYS, type RunsQuery, type SortKey } from "@/components/runs/query";
import { RunsTable } from "@/components/runs/RunsTable";
import { parseListQuery, type RunListFilter } from "@/lib/runs/list-filter";
import { listRunRows, runsListFacets } from "@/lib/runs/store";
import { toRunView } from "@/lib/runs/view";
import type { WorkloadKind } from "@/lib/workloads/config";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Runs · pg-broker-bench" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

/** The filter of the address, or none and the problem when a part of it is not one (an old link, a hand-typed day). */
function filterOf(q: Record<string, string | string[] | undefined>): { filter: RunListFilter; problem: string | null } {
  const params = new URLSearchParams(Object.entries(q).map(([k, v]) => [k, one(v)]));
  const parsed = parseListQuery(params);
  return parsed.ok ? { filter: parsed.filter, problem: null } : { filter: {}, problem: `${Object.values(parsed.fields)[0]}. Showing every run.` };
}

/** /runs[?workload=][&status=][&target=][&tag=][&q=][&from=&to=][&sort=&dir=]: the runs kept in the control store. */
export default async function RunsRoute({ searchParams }: Props) {
  const q = await searchParams;
  const { filter, problem } = filterOf(q);
  const sort = LEGACY_SORT_KEYS[one(q.sort)] ?? one(q.sort);
  const initial: RunsQuery = {
    workload: (filter.workload ?? "") as "" | WorkloadKind,
    status: filter.statuses?.join(",") ?? "",
    target: filter.target ?? "",
    tag: filter.tag ?? "",
    q: filter.text ?? "",
    from: filter.from ?? "",
    to: filter.to ?? "",
    sort: (SORT_KEYS as readonly string[]).includes(sort) ? (sort as SortKey) : "date",
    dir: one(q.dir) === "asc" ? "asc" : "desc",
  };
  // The filters are applied in SQL, so the rows shown are the rows "Delete these N runs" deletes. Results
  // imported from the reference tool belong to the comparison pages, not to this list; runs imported from another
  // instance's bundle are runs, listed here marked imported.
  const [rows, facets] = await Promise.all([listRunRows(filter), runsListFacets()]);
  return (
    <div className="stack">
      <div className="spread">
        <h1 style={{ margin: 0 }}>Runs</h1>
        <Link className="btn primary" href="/runs/new">
          New run
        </Link>
      </div>
      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
      <RunsTable runs={rows.map((r) => toRunView(r))} initial={initial} facets={facets} />
    </div>
  );
}
