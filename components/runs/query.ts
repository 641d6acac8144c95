// The /runs view's query (filters and sort), shared by the server page that reads it from the URL and
// the table that writes it back.
import type { WorkloadKind } from "@/lib/workloads/config";
// rate1, rate2, p99: the headline's first and second declared rates and its p99 (lib/runs/view.ts RunHeadline).
export const SORT_KEYS = ["date", "status", "workload", "knobs", "rate1", "rate2", "p99", "target"] as const;
/** Sort keys of addresses saved before the headline followed each workload's operations. */
export const LEGACY_SORT_KEYS: Record<string, SortKey> = { write: "rate1", read: "rate2", e2e: "p99" };
export type SortKey = (typeof SORT_KEYS)[number];
export interface RunsQuery {
  workload: "" | WorkloadKind;
  status: string;
  sort: SortKey;
  dir: "asc" | "desc";
}
