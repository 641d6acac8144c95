// The change of a value against the baseline: difference, ratio, percent, and whether it is better in the row's sense.
import type { ResultRow } from "./rows";

export interface Delta {
  /** value − baseline */
  diff: number;
  /** value ÷ baseline (null when the baseline is 0) */
  ratio: number | null;
  /** (value − baseline) ÷ baseline, in % */
  pct: number | null;
  /** Whether this is better than the baseline in the row's sense (null when equal). */
  better: boolean | null;
}

export function delta(value: number | null, base: number | null, better: ResultRow["better"] = "higher"): Delta | null {
  if (value === null || base === null || !Number.isFinite(value) || !Number.isFinite(base)) return null;
  const diff = value - base;
  const ratio = base === 0 ? null : value / base;
  return {
    diff,
    ratio,
    pct: ratio === null ? null : (ratio - 1) * 100,
    better: diff === 0 || better === "neither" ? null : better === "higher" ? diff > 0 : diff < 0,
  };
}
