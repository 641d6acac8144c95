// The /runs view's query (filters and sort), shared by the server page that reads it from the URL and
// the table that writes it back. The filters are applied in SQL (lib/runs/list-filter.ts), the sort in the table.
import { FILTER_KEYS } from "@/lib/runs/list-filter";
import type { WorkloadKind } from "@/lib/workloads/config";
// rate1, rate2, p99: the headline's first and second declared rates and its p99 (lib/runs/view.ts RunHeadline).
export const SORT_KEYS = ["date", "status", "workload", "knobs", "rate1", "rate2", "p99", "target"] as const;
/** Sort keys of addresses saved before the headline followed each workload's operations. */
export const LEGACY_SORT_KEYS: Record<string, SortKey> = { write: "rate1", read: "rate2", e2e: "p99" };
export type SortKey = (typeof SORT_KEYS)[number];
export interface RunsQuery {
  workload: "" | WorkloadKind;
  status: string;
  /** A target's name as the runs stored it. */
  target: string;
  tag: string;
  /** Searched in names and notes, case-insensitive. */
  q: string;
  /** Created from / to these days (YYYY-MM-DD, UTC), both included. */
  from: string;
  to: string;
  sort: SortKey;
  dir: "asc" | "desc";
}

/** The filter keys of a query, in the address's order: the ones GET and DELETE /api/runs read. */
const QUERY_FILTERS = FILTER_KEYS;

/** The query as the address's search string (no "?"): the filters given, then the sort when not the default. */
export function queryString(q: RunsQuery): string {
  const p = new URLSearchParams();
  for (const k of QUERY_FILTERS) if (q[k]) p.set(k, q[k]);
  if (q.sort !== "date" || q.dir !== "desc") p.set("sort", q.sort), p.set("dir", q.dir);
  return p.toString();
}

/** The filters only (what GET and DELETE /api/runs take). */
export function filterString(q: RunsQuery): string {
  const p = new URLSearchParams();
  for (const k of QUERY_FILTERS) if (q[k]) p.set(k, q[k]);
  return p.toString();
}
