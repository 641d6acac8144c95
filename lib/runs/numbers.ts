// How the product writes a latency, a change and a share: one formatter per kind of number, used by every page,
// the CLI and the exports' human text. No imports, so any module (telemetry, ceiling verdicts) can use them.

/**
 * Milliseconds as a bare number, to the microsecond (the histograms record µs), trailing zeros dropped, thousands
 * separated: 0.412, 3.185, 27.5, 10.65, 1,204.4. For a chart's ms axis; text a reader reads (tables, sentences,
 * tooltips) uses fmtLatency, which carries the unit and turns to seconds from a second on. `missing` is what an
 * unknown value shows ("–" on run pages, "—" where a source does not publish a figure).
 */
export function fmtMs(n: number | null | undefined, missing = "–"): string {
  if (n == null || !Number.isFinite(n)) return missing;
  return n.toLocaleString("en-US", { maximumFractionDigits: 3 });
}

/**
 * A latency with its unit, as a reader takes it in: milliseconds below a second ("0.412 ms", "27.5 ms",
 * "999.1 ms"), seconds from a second on, to three significant figures ("1.2 s", "16.2 s", "1,624 s", an hour
 * "3,600 s"), so a stalled request reads "16.2 s", never "16,244.735 ms". A negative one (a difference) keeps its
 * sign as a minus ("−1.2 s"). Rounded to the microsecond first: 999.9996 ms reads "1 s", never "1,000 ms".
 */
export function fmtLatency(ms: number | null | undefined, missing = "–"): string {
  if (ms == null || !Number.isFinite(ms)) return missing;
  const a = Math.round(Math.abs(ms) * 1000) / 1000;
  const sign = ms < 0 && a > 0 ? "−" : "";
  if (a < 1000) return `${sign}${fmtMs(a)} ms`;
  const s = a / 1000;
  const digits = s < 10 ? 2 : s < 100 ? 1 : 0;
  return `${sign}${s.toLocaleString("en-US", { maximumFractionDigits: digits })} s`;
}

/** Three latencies in one cell, "p50 / p95 / p99": each with its unit, as fmtLatency reads it. */
export const fmtLatencies = (values: (number | null | undefined)[], missing = "–"): string => values.map((v) => fmtLatency(v, missing)).join(" / ");

/** A share in percent, "12.5 %" ("0.42 %" below 1): how a ceiling's bracket width or a CPU share reads. */
export function fmtPercent(pct: number | null | undefined, missing = "–"): string {
  if (pct == null || !Number.isFinite(pct)) return missing;
  return `${pct.toLocaleString("en-US", { maximumFractionDigits: Math.abs(pct) < 1 ? 2 : 1 })} %`;
}

/**
 * A change in percent, as a reader takes it in: within ±50 % a percentage ("+5.2 %", "−13.2 %", "±0.0 %"), beyond
 * it a factor that is always above 1, "×" for larger and "÷" for smaller than the baseline: +125 % reads "×2.3",
 * −67.7 % (a value 3.1 times smaller) reads "÷3.1", 11.4 s against 5.07 ms reads "×2,250", never "−100.0 %" for a
 * value that is not zero. A factor has three significant figures and at most one decimal ("×1.6", "×34.2", "×134",
 * "×2,250"). A change to zero or across zero (ratio ≤ 0) has no factor and stays a percentage ("−100.0 %"). `of`
 * names the measure of a larger one ("×134 the requests/s"). "—" when there is no change to state (NaN, infinite).
 */
export function fmtChange(pct: number, of?: string): string {
  if (!Number.isFinite(pct)) return "—";
  const ratio = 1 + pct / 100;
  if (Math.abs(pct) > 50 && ratio > 0) {
    const factor = ratio >= 1 ? ratio : 1 / ratio;
    const text = Number(factor.toPrecision(3)).toLocaleString("en-US", { maximumFractionDigits: 1 });
    return ratio >= 1 ? `×${text}${of ? ` the ${of}` : ""}` : `÷${text}`;
  }
  const r = Math.round(pct * 10) / 10;
  return `${r > 0 ? "+" : r < 0 ? "−" : "±"}${Math.abs(r).toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 })} %`;
}
