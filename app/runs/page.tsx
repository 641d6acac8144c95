import type { Metadata } from "next";
import Link from "next/link";
import { LEGACY_SORT_KEYS, SORT_KEYS, type RunsQuery, type SortKey } from "@/components/runs/query";
import { ImportBundle } from "@/components/runs/ImportBundle";
import { RunsTable } from "@/components/runs/RunsTable";
import { RUN_STATUSES } from "@/lib/measurement/metrics";
import { listRunRows } from "@/lib/runs/store";
import { toRunView } from "@/lib/runs/view";
import { workloadDefinition, type WorkloadKind } from "@/lib/workloads/config";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Runs · pg-broker-bench" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

/** /runs[?workload=][&status=][&sort=&dir=]: every run kept in the control store. */
export default async function RunsRoute({ searchParams }: Props) {
  const q = await searchParams;
  const workload = one(q.workload);
  const status = one(q.status);
  const sort = LEGACY_SORT_KEYS[one(q.sort)] ?? one(q.sort);
  const initial: RunsQuery = {
    workload: workloadDefinition(workload) ? (workload as WorkloadKind) : "",
    status: (RUN_STATUSES as readonly string[]).includes(status) ? status : "",
    sort: (SORT_KEYS as readonly string[]).includes(sort) ? (sort as SortKey) : "date",
    dir: one(q.dir) === "asc" ? "asc" : "desc",
  };
  // Results imported from the reference tool belong to the comparison pages, not to this list; runs imported from
  // another instance's bundle are runs, listed here marked imported.
  const runs = (await listRunRows()).map((r) => toRunView(r));
  return (
    <div className="stack">
      <div className="spread">
        <h1 style={{ margin: 0 }}>Runs</h1>
        <Link className="btn primary" href="/runs/new">
          New run
        </Link>
      </div>
      <RunsTable runs={runs} initial={initial} />
      <ImportBundle />
    </div>
  );
}
