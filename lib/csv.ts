// The one CSV writer (samples export, comparison export). Escaping as RFC 4180: a field holding a comma, a
// double quote, CR or LF is quoted, its quotes doubled. Records end with LF rather than RFC 4180's CRLF: every
// spreadsheet and pandas read both, and LF keeps the files diff- and grep-friendly.

export type CsvValue = string | number | boolean | null | undefined;

/** One field: empty for null/undefined or a non-finite number, quoted when it must be. */
export function csvCell(v: CsvValue): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "number" && !Number.isFinite(v)) return "";
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Header and rows as CSV text, ending with a newline. */
export function toCsvText(rows: CsvValue[][]): string {
  return `${rows.map((r) => r.map(csvCell).join(",")).join("\n")}\n`;
}
