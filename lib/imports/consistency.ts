// Impossible figures: a text whose numbers cannot all be true (an edited or mixed-up paste) is refused, naming the
// line, rather than compared. Negative counts, rates and latencies and percentiles out of order are caught where
// they are read (grammar.ts, the live lines in sections.ts); what needs the whole text is checked here.
import { type Line, quote, type ReadsBlock } from "./grammar";
import { type ConfigSource, ImportError, type ImportedSummary } from "./summary";

/**
 * The tool prints each average rate as total ÷ duration with 2 decimals: beyond rounding, 1% apart means the
 * total, the rate or the duration is not the run's.
 */
const RATE_TOTAL_TOLERANCE = 0.01;
/**
 * The summary's average rate and the mean of the live lines' rates may differ by this factor at most. They differ
 * for known reasons (table set-up counted in the tool's duration, its one-second burst at start, the last partial
 * interval that no live line reports) by a few percent in real outputs (fixtures/kozlovski/tool-output: 1.3% and
 * 5.4%); a factor of 1.5 is far beyond that, so more means the summary and the live lines are not of one run.
 */
export const LIVE_RATE_FACTOR = 1.5;
/** With fewer live lines, the unreported last interval weighs too much in the comparison: it is skipped. */
const MIN_LIVE_LINES = 3;

const fmtN = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 2 });
interface LiveLine {
  line: number;
  w: number;
  r: number;
  totalW?: number;
  totalR?: number;
}

export function checkConsistency(
  summary: {
    totals: ImportedSummary["totals"];
    throughput: ImportedSummary["throughput"];
    lines: { writes: Line; reads: Line; writeRate: Line; readRate: Line };
  },
  pubsub: { durationLine: Line; groups: { reads: number }[]; aggregate: ReadsBlock | null } | null,
  live: LiveLine[],
  durationSeconds: number | undefined,
  durationSource: ConfigSource | undefined,
) {
  const agg = pubsub?.aggregate ?? null;
  // pubsub: reads and their rate are the aggregate block's (all groups); the base summary's are not used.
  const writes = {
    total: summary.totals.writes,
    totalLine: summary.lines.writes,
    rate: summary.throughput.writeMsgPerSec,
    rateLine: summary.lines.writeRate,
    live: "W",
  };
  const reads = agg
    ? { total: agg.reads, totalLine: agg.lines.reads, rate: agg.msgPerSec, rateLine: agg.lines.throughput, live: "TotalR" }
    : { total: summary.totals.reads, totalLine: summary.lines.reads, rate: summary.throughput.readMsgPerSec, rateLine: summary.lines.readRate, live: "R" };

  // The aggregate block sums the consumer groups.
  if (agg && pubsub!.groups.length) {
    const sum = pubsub!.groups.reduce((a, g) => a + g.reads, 0);
    if (sum !== agg.reads)
      throw new ImportError(
        `${quote(agg.lines.reads)} is not the sum of the ${pubsub!.groups.length} consumer groups' 'Reads Completed' (${fmtN(sum)})`,
        agg.lines.reads.n,
      );
  }

  // Each average rate is total ÷ duration, when the duration is known other than from these very numbers.
  if (durationSeconds && (durationSource === "output" || durationSource === "command")) {
    const from =
      durationSource === "output" ? `${quote(pubsub!.durationLine)} (line ${pubsub!.durationLine.n})` : `the command line's --duration (${durationSeconds} s)`;
    for (const x of [writes, reads]) {
      const expected = x.total / durationSeconds;
      if (Math.abs(x.rate - expected) > Math.max(RATE_TOTAL_TOLERANCE * expected, 0.01))
        throw new ImportError(
          `${quote(x.rateLine)} contradicts ${quote(x.totalLine)} (line ${x.totalLine.n}) over ${from}: the tool prints total ÷ duration, which is ${fmtN(expected)}`,
          x.rateLine.n,
        );
    }
  }

  // The live lines' running totals (pubsub) cannot exceed the final ones.
  const last = live[live.length - 1];
  if (last?.totalW !== undefined && last.totalW > writes.total)
    throw new ImportError(
      `${quote(writes.totalLine)} is below the TotalW:${last.totalW} printed live on line ${last.line}: a total cannot shrink`,
      writes.totalLine.n,
    );
  if (agg && last?.totalR !== undefined && last.totalR > reads.total)
    throw new ImportError(
      `${quote(reads.totalLine)} is below the ${fmtN(last.totalR)} reads the groups' TotR added up to live on line ${last.line}: a total cannot shrink`,
      reads.totalLine.n,
    );

  // The summary's average rates agree with what the live lines report, within LIVE_RATE_FACTOR.
  if (live.length >= MIN_LIVE_LINES) {
    const span = `lines ${live[0].line}–${last.line}`;
    for (const [x, rates] of [
      [writes, live.map((l) => l.w)],
      [reads, live.map((l) => l.r)],
    ] as const) {
      const mean = rates.reduce((a, b) => a + b, 0) / rates.length;
      if (Math.max(mean, x.rate) < 1) continue; // nothing moved: no rate to compare
      if (x.rate > mean * LIVE_RATE_FACTOR || x.rate < mean / LIVE_RATE_FACTOR)
        throw new ImportError(
          `${quote(x.rateLine)} contradicts the live report (${span}), whose ${x.live} rates average ${fmtN(mean)}/s: a run's average lies within a factor of ${LIVE_RATE_FACTOR} of them (set-up time, the start burst and the unreported last interval move it a few percent), so these are not one run's numbers. Paste one run's output as printed`,
          x.rateLine.n,
        );
    }
  }
}
