// The /runs view's query (filters and sort), shared by the server page that reads it from the URL and
// the table that writes it back.
import type { WorkloadKind } from "@/lib/workloads";
export const SORT_KEYS = ["date", "status", "workload", "knobs", "write", "read", "e2e", "target"] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export interface RunsQuery {
  workload: "" | WorkloadKind;
  status: string;
  sort: SortKey;
  dir: "asc" | "desc";
}
