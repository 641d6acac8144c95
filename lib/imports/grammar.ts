// The line grammar of pg_msg_bench's output: a reader over numbered lines that names what it expected where a
// line does not match, and the blocks the tool prints the same way in several places (a field, a latency block
// of P50/P95/P99, a consumer group's or the aggregate's reads). Negative counts, rates and latencies and
// percentiles out of order are refused where they are read.
import { parseGoDuration } from "../duration";
import { type ImportedLatency, ImportError } from "./summary";

export const num = (s: string) => Number(s.replace(/,/g, ""));

export interface Line {
  n: number;
  text: string;
}

export class Reader {
  i = 0;
  constructor(public lines: Line[]) {}
  peek(): Line | undefined {
    return this.lines[this.i];
  }
  next(): Line | undefined {
    return this.lines[this.i++];
  }
  /** The next non-blank line, which must match `re`; otherwise an ImportError naming what was expected. */
  expect(re: RegExp, what: string, after: Line): RegExpExecArray {
    while (this.peek() && this.peek()!.text.trim() === "") this.i++;
    const l = this.next();
    if (!l) throw new ImportError(`expected '${what}' after this line, but the text ends there (was it cut off?)`, after.n);
    const m = re.exec(l.text.trim());
    if (!m) throw new ImportError(`expected '${what}' but found '${l.text.trim()}'`, l.n);
    return m;
  }
}

export const INT = "(-?[\\d,]+)";
export const FLOAT = "(-?[\\d,]*\\.?\\d+)";

export function latencyBlock(r: Reader, header: Line): ImportedLatency {
  const out: Record<string, { raw: string; ms: number }> = {};
  let prev: Line | null = null;
  let prevMs = 0;
  for (const p of ["P50", "P95", "P99"]) {
    const m = r.expect(new RegExp(`^${p}:\\s*(\\S+)$`), `${p}: <duration>`, r.lines[r.i - 1] ?? header);
    const ms = parseGoDuration(m[1]);
    const l = r.lines[r.i - 1];
    if (ms === null) throw new ImportError(`expected '${p}: <duration>' but found '${l.text.trim()}' (a duration as Go prints it, such as 19.202047ms)`, l.n);
    if (ms < 0) throw new ImportError(`'${l.text.trim()}' under '${header.text.trim()}' is impossible: a latency cannot be negative`, l.n);
    // Percentiles of one histogram never decrease: P50 ≤ P95 ≤ P99.
    if (prev && ms < prevMs)
      throw new ImportError(
        `'${l.text.trim()}' under '${header.text.trim()}' is below '${prev.text.trim()}' (line ${prev.n}): percentiles cannot decrease (P50 ≤ P95 ≤ P99)`,
        l.n,
      );
    out[p.toLowerCase()] = { raw: m[1], ms };
    prev = l;
    prevMs = ms;
  }
  return out as ImportedLatency;
}

export function field(r: Reader, label: string, valueRe: string, after: Line, unit = ""): { m: RegExpExecArray; line: Line } {
  const re = new RegExp(`^${label.replace(/[()]/g, "\\$&")}:\\s*${valueRe}${unit ? `\\s*${unit}` : ""}$`);
  const numeric = valueRe === INT || valueRe === FLOAT;
  const m = r.expect(re, `${label}: <${numeric ? "number" : "text"}>${unit ? ` ${unit}` : ""}`, after);
  const line = r.lines[r.i - 1];
  // Every number the tool prints in a field is a count, a rate or a size: none can be negative.
  if (numeric && num(m[1]) < 0)
    throw new ImportError(`'${line.text.trim()}' is impossible: ${unit.includes("/sec") ? "a rate" : "a count"} cannot be negative`, line.n);
  return { m, line };
}

/**
 * A consumer-group block and the aggregate block print the same fields in the same order, under labels that
 * differ ("Reads Completed" vs "Total Reads Completed", "Updates Completed" vs "Total Updates").
 */
export function readsBlock(r: Reader, header: Line, labels: { reads: string; errors: string; updates: string; claimErrors: string; emptyClaims: string }) {
  const rc = field(r, labels.reads, INT, header);
  const re = field(r, labels.errors, INT, rc.line);
  const uc = field(r, labels.updates, INT, re.line);
  const ce = field(r, labels.claimErrors, INT, uc.line);
  const ec = field(r, labels.emptyClaims, INT, ce.line);
  const ap = field(r, "Avg Poll Size", FLOAT, ec.line);
  const at = field(r, "Avg Throughput", FLOAT, ap.line, "reads/sec");
  r.expect(/^Read Latency.*:$/, "Read Latency (claim txn):", at.line);
  const read = latencyBlock(r, r.lines[r.i - 1]);
  r.expect(/^End-to-End Latency.*:$/, "End-to-End Latency (created_at → consumed):", r.lines[r.i - 1]);
  const e2e = latencyBlock(r, r.lines[r.i - 1]);
  return {
    /** Where the reads and the rate were printed, for the consistency checks' messages. */
    lines: { reads: rc.line, throughput: at.line },
    reads: num(rc.m[1]),
    readErrors: num(re.m[1]),
    updates: num(uc.m[1]),
    claimErrors: num(ce.m[1]),
    emptyClaims: num(ec.m[1]),
    avgPollSize: num(ap.m[1]),
    msgPerSec: num(at.m[1]),
    read,
    e2e,
  };
}

export type ReadsBlock = ReturnType<typeof readsBlock>;

/** A line as quoted in a message: 'Total Writes: 1,234'. */
export const quote = (l: Line) => `'${l.text.trim()}'`;

/** "hh:mm:ss" as seconds of the day. */
export const secondsOfDay = (t: string) => {
  const [h, m, s] = t.split(":").map(Number);
  return h * 3600 + m * 60 + s;
};
