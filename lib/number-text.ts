// Numbers as the CLI, the bench scripts and a workload's own CLI text print them (runner/format.ts, the
// queued-workflows sweep). Browser-safe, imports nothing.

/** A number with `digits` decimals and thousands separators: "1,234.5". */
export const num = (n: number, digits = 1) => n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
/** Milliseconds with about 3 significant digits, for a column headed "(ms)" (the bench scripts' tables). */
export const msText = (v: number | undefined) => (v === undefined ? "–" : v >= 100 ? num(v, 0) : v >= 10 ? num(v, 1) : num(v, 2));
