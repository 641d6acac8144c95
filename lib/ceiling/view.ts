// A ceiling search as the API and the pages show it: its row, its steps as judged, the step in progress.
// Browser-safe types; toCeilingView is applied on the server to a row of lib/ceiling/store.ts.
import { FINAL_STATUSES, type RunStatus } from "../measurement/metrics";
import { knobsParts } from "../runs/format";
import type { WorkloadConfig } from "../workloads/config";
import type { CeilingStep, SearchOutcome, StepProgress } from "./step";
import type { CeilingSettings } from "./settings";
import type { Labels } from "../runs/labels";

export interface CeilingView {
  id: string;
  workload: string;
  config: WorkloadConfig;
  settings: CeilingSettings;
  targetId: string | null;
  targetLabel: string;
  status: RunStatus;
  cancelRequested: boolean;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  error: string | null;
  progress: StepProgress | null;
  result: SearchOutcome | null;
  steps: CeilingStep[];
  /** What a person calls the search (lib/runs/labels.ts). */
  labels: Labels;
}

interface Row {
  id: string;
  workload: string;
  config: unknown;
  settings: unknown;
  targetId: string | null;
  targetLabel: string;
  status: string;
  cancelRequested: boolean;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  error: string | null;
  progress: unknown;
  result: unknown;
  steps: { step: unknown }[];
  name?: string | null;
  notes?: string | null;
  tags?: string[];
}

export function toCeilingView(r: Row): CeilingView {
  return {
    id: r.id,
    workload: r.workload,
    config: r.config as WorkloadConfig,
    settings: r.settings as CeilingSettings,
    targetId: r.targetId,
    targetLabel: r.targetLabel,
    status: r.status as RunStatus,
    cancelRequested: r.cancelRequested,
    createdAt: r.createdAt.toISOString(),
    startedAt: r.startedAt?.toISOString() ?? null,
    finishedAt: r.finishedAt?.toISOString() ?? null,
    error: r.error,
    progress: (r.progress as StepProgress | null) ?? null,
    result: (r.result as SearchOutcome | null) ?? null,
    steps: r.steps.map((s) => s.step as CeilingStep),
    // Rows built by hand in older tests lack them.
    labels: { name: r.name ?? null, notes: r.notes ?? null, tags: r.tags ?? [] },
  };
}

export const isFinalSearch = (v: Pick<CeilingView, "status">) => FINAL_STATUSES.includes(v.status);

/** The config in words without what each step sets: its rate, in whatever unit the workload paces ("2,900 msg/s
 *  limit", "open loop 100 req/s", "100 inserts/s", "1,000 workflows/s target"), and its measured window. */
export const searchKnobs = (c: WorkloadConfig): string =>
  knobsParts(c)
    .filter((p) => !/^unthrottled$|\d [a-z]+\/s\b|s measured$/.test(p))
    .join(" · ");
