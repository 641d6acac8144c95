// The comparison as JSON (GET /api/compare?format=json and the CLI's --format json).
import type { Comparison } from "./compare";
import { delta } from "./deltas";

/** JSON: the items (without the heavy distribution/time series unless asked) and the computed rows and notes. */
export function toJson(cmp: Comparison, opts: { url?: string; generatedAt?: string; full?: boolean } = {}) {
  return {
    generatedAt: opts.generatedAt ?? null,
    url: opts.url ?? null,
    baseline: cmp.baseline >= 0 ? cmp.items[cmp.baseline].key : null,
    items: cmp.items.map((c) => (opts.full ? c : { ...c, distribution: undefined, overTime: undefined })),
    results: cmp.results.map((r) => ({
      ...r,
      deltas: r.values.map((v) => (cmp.baseline >= 0 ? delta(v, r.values[cmp.baseline], r.better) : null)),
    })),
    config: cmp.config,
    env: cmp.env,
    notes: cmp.notes,
    // Runs of different queue-like workloads: each row with where its numbers come from or why one is missing.
    sustained: cmp.sustained,
  };
}
