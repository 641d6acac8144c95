// How compare writes its numbers: thousands separators, latencies with their unit, deltas, config cells; "—" for
// what a source does not publish.
import { fmtChange, fmtLatency, fmtMs as fmtMsOf } from "../runs/format";
import type { Cell } from "./comparable";
import type { Delta } from "./deltas";
import type { ResultRow } from "./rows";

/** Thousands separators, at most `digits` decimals; "—" for unknown. */
export function fmtNum(v: number | null | undefined, digits = 2): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return "—";
  return v.toLocaleString("en-US", { maximumFractionDigits: digits });
}
/** Latency in ms as a bare number (a chart's axis); "—" when a source does not publish it. */
export const fmtMs = (v: number | null | undefined) => fmtMsOf(v, "—");
/** A latency with its unit, "—" when a source does not publish it: "8.76 ms", "16.2 s" (lib/runs/numbers.ts). */
export const fmtLat = (v: number | null | undefined) => fmtLatency(v, "—");
export const fmtValue = (v: number | null | undefined, unit: ResultRow["unit"]) => (unit === "ms" ? fmtLat(v) : fmtNum(v, 2));
export function fmtCell(v: Cell): string {
  if (v === null) return "—";
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (typeof v === "number") return fmtNum(v, 2);
  return v;
}
/** A config cell with how it is known: "200 (inferred)". */
export const fmtAnnotated = (v: Cell, note: string | null | undefined) => (note && v !== null ? `${fmtCell(v)} (${note})` : fmtCell(v));
/** The change against the baseline as a reader takes it (lib/runs/numbers.ts fmtChange): within ±50 % a percentage
 *  ("−13.2 %", "+39.5 %"), beyond it a factor above 1, × larger and ÷ smaller than the baseline ("×2,250", "÷3.1"). */
export function fmtDelta(d: Delta | null): string {
  return d?.pct == null ? "—" : fmtChange(d.pct);
}
