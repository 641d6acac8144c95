// The sections of pg_msg_bench's output, each read by its own reader: the command line, the Go log lines, the live
// report lines (queue and pubsub), and the summary blocks (the base summary, the pubsub summary, each consumer
// group, the aggregate across groups). scanOutput reads every line into a Scan; a line no section reads is refused.
import type { z } from "zod";
import { parseGoDuration } from "../duration";
import type { WorkloadKind } from "../workloads/config";
import { field, FLOAT, INT, type Line, latencyBlock, num, type ReadsBlock, Reader, readsBlock } from "./grammar";
import { type ImportedGroup, type ImportedLatency, ImportError, type ImportedSummary } from "./summary";

/** A live report line; pubsub ones also carry TotalW and the sum of the groups' TotR (cumulative counts). */
export interface LiveReport {
  time: string;
  line: number;
  w: number;
  r: number;
  backlog: number;
  totalW?: number;
  totalR?: number;
}

/** The base '=== Summary ===' block, with the lines its figures were read from (for the consistency checks). */
export interface SummaryBlock {
  totals: ImportedSummary["totals"];
  throughput: ImportedSummary["throughput"];
  latency: { write: ImportedLatency; read: ImportedLatency; e2e: ImportedLatency };
  line: number;
  lines: { writes: Line; reads: Line; writeRate: Line; readRate: Line };
}

/** '=== PubSub Summary ===' and the consumer-group and aggregate blocks under it. */
export interface PubsubBlock {
  semantics: string;
  partitions: number;
  durationSeconds: number;
  durationLine: Line;
  groups: z.infer<typeof ImportedGroup>[];
  aggregate: ReadsBlock | null;
}

/** What the sections found in the text. */
export interface Scan {
  /** The tool's two modes, as our workloads (toolWorkloads). */
  fanout: WorkloadKind;
  queue: WorkloadKind;
  /** A command line was given beside the text: one found in the text is then not used. */
  commandGiven: boolean;
  commandText: string | null;
  commandLine?: number;
  live: LiveReport[];
  logHints: { partitions?: number; writers?: number; readBatch?: number };
  summary: SummaryBlock | null;
  pubsub: PubsubBlock | null;
  modeSeen?: WorkloadKind;
}

/** A pasted command line (possibly "$ ./pg_msg_bench … \" continued on the next lines). */
function commandLine(t: string, l: Line, r: Reader, s: Scan): boolean {
  if (/^(\$\s*)?(\S*pg_msg_bench|go run)\b/.test(t)) {
    let cmd = t;
    while (cmd.endsWith("\\") && r.peek()) cmd = `${cmd.slice(0, -1)} ${r.next()!.text.trim()}`;
    if (!s.commandGiven) {
      s.commandText = cmd.replace(/^\$\s*/, "");
      s.commandLine = l.n;
    }
    return true;
  }
  return false;
}

/** Go log lines: "2026/11/22 04:35:18 [pub info] …", "… [consumer g3 r3 p4] claim err: …", "… benchmark complete". */
function logLine(t: string, _l: Line, _r: Reader, s: Scan): boolean {
  if (/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} /.test(t)) {
    const created = /successfully created (\d+) topicpartitions/.exec(t);
    if (created) s.logHints.partitions = Number(created[1]);
    const prod = /producers per partition \[([^\]]*)\]/.exec(t);
    if (prod) s.logHints.writers = [...prod[1].matchAll(/p\d+=(\d+)/g)].reduce((a, m) => a + Number(m[1]), 0);
    const batch = /\bbatch=(\d+)\)/.exec(t);
    if (batch) s.logHints.readBatch = Number(batch[1]);
    if (/pubsub benchmark complete|\[pub info\]|\[consumer g/.test(t)) s.modeSeen ??= s.fanout;
    if (/queue benchmark complete/.test(t)) s.modeSeen ??= s.queue;
    return true;
  }
  return false;
}

/** Live report, queue: "[04:36:04] W: 3465/s R: 1358/s QDepth: 10546 Err(W/R): 0/0". */
function liveQueue(t: string, l: Line, _r: Reader, s: Scan): boolean {
  // Rates are read with a sign so that a negative one is refused as impossible, not as unreadable.
  const m = /^\[(\d{2}:\d{2}:\d{2})\] W: (-?\d+)\/s R: (-?\d+)\/s QDepth: (-?\d+) Err\(W\/R\): (\d+)\/(\d+)$/.exec(t);
  if (m) {
    s.modeSeen ??= s.queue;
    if (num(m[2]) < 0 || num(m[3]) < 0) throw new ImportError(`'${t}' is impossible: a rate cannot be negative`, l.n);
    s.live.push({ time: m[1], line: l.n, w: num(m[2]), r: num(m[3]), backlog: num(m[4]) });
    return true;
  }
  return false;
}

/** Live report, pubsub: "[04:35:24] W: 6960/s TotalW:34800", then the group table and "TotalR: …". */
function livePubsub(t: string, l: Line, r: Reader, s: Scan): boolean {
  const m = /^\[(\d{2}:\d{2}:\d{2})\] W: (-?\d+)\/s TotalW:\s*(-?\d+)$/.exec(t);
  if (m) {
    s.modeSeen ??= s.fanout;
    if (num(m[2]) < 0 || num(m[3]) < 0) throw new ImportError(`'${t}' is impossible: ${num(m[2]) < 0 ? "a rate" : "a count"} cannot be negative`, l.n);
    r.expect(/^Group\s+R\/s\s+TotR\s+Err\s+Empty\s+AvgPoll\s+QueueDepth$/, "Group  R/s  TotR  Err  Empty  AvgPoll  QueueDepth", l);
    let depthMax = 0;
    let totR = 0;
    for (;;) {
      while (r.peek() && r.peek()!.text.trim() === "") r.i++;
      const g = r.peek();
      if (!g) throw new ImportError("expected the group rows and 'TotalR: <n>/s QueueDepth(min=…, max=…)' after this report, but the text ends", l.n);
      const gt = g.text.trim();
      const row = /^(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+(?:\.\d+)?)\s+(-?\d+)$/.exec(gt);
      if (row) {
        r.i++;
        depthMax = Math.max(depthMax, Number(row[7]));
        totR += Number(row[3]);
        continue;
      }
      const tot = /^TotalR: (-?\d+)\/s QueueDepth\(min=(-?\d+), max=(-?\d+)\)$/.exec(gt);
      if (!tot)
        throw new ImportError(
          `expected a group row '<group> <R/s> <TotR> <Err> <Empty> <AvgPoll> <QueueDepth>' or 'TotalR: <n>/s QueueDepth(min=…, max=…)' but found '${gt}'`,
          g.n,
        );
      r.i++;
      if (num(tot[1]) < 0) throw new ImportError(`'${gt}' is impossible: a rate cannot be negative`, g.n);
      s.live.push({ time: m[1], line: l.n, w: num(m[2]), r: num(tot[1]), backlog: Math.max(depthMax, Number(tot[3])), totalW: num(m[3]), totalR: totR });
      break;
    }
    return true;
  }
  return false;
}

/** The base '=== Summary ===' block: totals, average rates, write/read/end-to-end latencies. */
function summaryBlock(t: string, l: Line, r: Reader, s: Scan): boolean {
  if (t === "=== Summary ===") {
    if (s.summary) throw new ImportError("a second '=== Summary ===' block: paste the output of one run at a time", l.n);
    const tw = field(r, "Total Writes", INT, l);
    const tr = field(r, "Total Reads", INT, tw.line);
    const tu = field(r, "Total Updates", INT, tr.line);
    const we = field(r, "Write Errors", INT, tu.line);
    const re = field(r, "Read Errors", INT, we.line);
    const aw = field(r, "Avg Write Throughput", FLOAT, re.line, "rows/sec");
    const ar = field(r, "Avg Read Throughput", FLOAT, aw.line, "rows/sec");
    r.expect(/^Write Latencies.*:$/, "Write Latencies (INSERT only):", ar.line);
    const write = latencyBlock(r, r.lines[r.i - 1]);
    r.expect(/^Read Latencies.*:$/, "Read Latencies (…):", r.lines[r.i - 1]);
    const read = latencyBlock(r, r.lines[r.i - 1]);
    r.expect(/^End-to-End Latencies.*:$/, "End-to-End Latencies (created_at → consumed):", r.lines[r.i - 1]);
    const e2e = latencyBlock(r, r.lines[r.i - 1]);
    s.summary = {
      totals: { writes: num(tw.m[1]), reads: num(tr.m[1]), updates: num(tu.m[1]), writeErrors: num(we.m[1]), readErrors: num(re.m[1]) },
      throughput: { writeMsgPerSec: num(aw.m[1]), readMsgPerSec: num(ar.m[1]) },
      latency: { write, read, e2e },
      line: l.n,
      lines: { writes: tw.line, reads: tr.line, writeRate: aw.line, readRate: ar.line },
    };
    return true;
  }
  return false;
}

/** '=== PubSub Summary ===': delivery semantics, partitions, duration. */
function pubsubSummary(t: string, l: Line, r: Reader, s: Scan): boolean {
  if (t === "=== PubSub Summary ===") {
    s.modeSeen = s.fanout;
    const ds = field(r, "Delivery Semantics", "(.+)", l);
    const np = field(r, "Number of partitions", INT, ds.line);
    const du = r.expect(/^Duration:\s*(\S+)(?:\s+\(([\d.]+)s\))?$/, "Duration: <duration> (<seconds>s)", np.line);
    const durMs = parseGoDuration(du[1]);
    if (durMs === null) throw new ImportError(`expected 'Duration: <duration>' but found 'Duration: ${du[1]}'`, r.lines[r.i - 1].n);
    s.pubsub = {
      semantics: ds.m[1],
      partitions: num(np.m[1]),
      durationSeconds: du[2] ? Number(du[2]) : durMs / 1000,
      durationLine: r.lines[r.i - 1],
      groups: [],
      aggregate: null,
    };
    return true;
  }
  return false;
}

/** '-- Consumer Group <n> --': one group's reads and latencies. */
function consumerGroup(t: string, l: Line, r: Reader, s: Scan): boolean {
  const m = /^-- Consumer Group (\d+) --$/.exec(t);
  if (m) {
    if (!s.pubsub) throw new ImportError("a '-- Consumer Group --' block before '=== PubSub Summary ==='", l.n);
    const {
      read,
      e2e,
      lines: _lines,
      ...counts
    } = readsBlock(r, l, {
      reads: "Reads Completed",
      errors: "Read Errors",
      updates: "Updates Completed",
      claimErrors: "Claim Errors",
      emptyClaims: "Empty Claims",
    });
    s.pubsub.groups.push({ group: Number(m[1]), ...counts, latencyMs: { read, e2e } });
    return true;
  }
  return false;
}

/** '=== Aggregate Across All Groups ===': the reads and latencies of all groups. */
function aggregate(t: string, l: Line, r: Reader, s: Scan): boolean {
  if (t === "=== Aggregate Across All Groups ===") {
    if (!s.pubsub) throw new ImportError("'=== Aggregate Across All Groups ===' before '=== PubSub Summary ==='", l.n);
    s.pubsub.aggregate = readsBlock(r, l, {
      reads: "Total Reads Completed",
      errors: "Total Read Errors",
      updates: "Total Updates",
      claimErrors: "Total Claim Errors",
      emptyClaims: "Total Empty Claims",
    });
    return true;
  }
  return false;
}

/** The sections, in the order a line is offered to them. */
const SECTIONS = [commandLine, logLine, liveQueue, livePubsub, summaryBlock, pubsubSummary, consumerGroup, aggregate];

/** Reads every line of the output into a Scan; a line that no section reads is refused, naming it. */
export function scanOutput(lines: Line[], scan: Scan): Scan {
  const r = new Reader(lines);
  while (r.peek()) {
    const l = r.next()!;
    const t = l.text.trim();
    if (t === "") continue;
    if (SECTIONS.some((read) => read(t, l, r, scan))) continue;
    throw new ImportError(
      `could not read '${t.length > 120 ? `${t.slice(0, 117)}…` : t}': expected a live report line ('[hh:mm:ss] W: …'), a log line, the command line or a summary block of pg_msg_bench`,
      l.n,
    );
  }
  return scan;
}
