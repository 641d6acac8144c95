// Import: reads the text output of the reference Go tool (pg-queue-pubsub-benchmark, `pg_msg_bench`) — its live
// report lines and its final summary — into an ImportedSummary that compares like a run, always labelled
// "imported". The output's semantics are the tool's, not ours (read from the tool's source):
// rates are totals ÷ the *configured* duration, percentiles cover the whole run (no warm-up), and in pubsub mode
// the base summary's read/e2e latencies print 0s and mean nothing (§2.5), so read/e2e come from the aggregate block.
// A line that cannot be read is reported by number and content: "line 12: expected 'P50: <duration>' but found …".
import { z } from "zod";
import type { FieldDef } from "../../workloads/types";
import { ToolWorkload, toolWorkloads, workloadDefinitions, type WorkloadKind } from "../workloads/config";
import { parseGoDuration } from "../duration";
import { maskUrl } from "../targets/pgurl";

/** A Go time.Duration as printed ("19.202047ms") and its value in milliseconds. */
export const ImportedDuration = z.object({ raw: z.string(), ms: z.number() });
export const ImportedLatency = z.object({ p50: ImportedDuration, p95: ImportedDuration, p99: ImportedDuration });
export type ImportedLatency = z.infer<typeof ImportedLatency>;

export const IMPORT_CONFIG_FIELDS = [
  "writers",
  "readers",
  "consumerGroups",
  "partitions",
  "writeBatch",
  "readBatch",
  "payloadBytes",
  "durationSeconds",
  "throttleWritesPerSec",
  "reportIntervalSeconds",
  "tuneTableVacuum",
] as const;
export type ImportConfigField = (typeof IMPORT_CONFIG_FIELDS)[number];
/** Where a config value came from: the command line, the output itself, inferred from the output, or the tool's default. */
export const ConfigSource = z.enum(["command", "output", "inferred", "default"]);
export type ConfigSource = z.infer<typeof ConfigSource>;

export const ImportedGroup = z.object({
  group: z.number().int(),
  reads: z.number().int(),
  readErrors: z.number().int(),
  updates: z.number().int(),
  claimErrors: z.number().int(),
  emptyClaims: z.number().int(),
  avgPollSize: z.number(),
  msgPerSec: z.number(),
  latencyMs: z.object({ read: ImportedLatency, e2e: ImportedLatency }),
});

export const ImportedInterval = z.object({
  /** "hh:mm:ss" as printed. */
  time: z.string(),
  /** Seconds since the start of the load: the report time minus the first report's, plus one report interval. */
  elapsedSec: z.number(),
  writeMsgPerSec: z.number(),
  readMsgPerSec: z.number(),
  /** queue: QDepth; pubsub: the largest group's QueueDepth. */
  backlog: z.number().int(),
});

export const ImportedSummary = z.object({
  schemaVersion: z.literal(1),
  tool: z.literal("pg-queue-pubsub-benchmark"),
  workload: ToolWorkload,
  /** Config as far as it is known; a missing field is unknown (never guessed). */
  config: z.object({
    writers: z.number().int().optional(),
    readers: z.number().int().optional(),
    consumerGroups: z.number().int().optional(),
    partitions: z.number().int().optional(),
    writeBatch: z.number().int().optional(),
    readBatch: z.number().int().optional(),
    payloadBytes: z.number().int().optional(),
    durationSeconds: z.number().optional(),
    throttleWritesPerSec: z.number().optional(),
    reportIntervalSeconds: z.number().optional(),
    tuneTableVacuum: z.boolean().optional(),
  }),
  configSources: z.record(z.string(), ConfigSource),
  /** The command line, if one was given or found in the text (password masked). */
  command: z.string().nullable(),
  totals: z.object({
    writes: z.number().int(),
    reads: z.number().int(),
    updates: z.number().int(),
    writeErrors: z.number().int(),
    readErrors: z.number().int(),
  }),
  /** As the tool printed them: total ÷ configured duration. */
  throughput: z.object({ writeMsgPerSec: z.number(), readMsgPerSec: z.number() }),
  latencyMs: z.object({ write: ImportedLatency, read: ImportedLatency.nullable(), e2e: ImportedLatency.nullable() }),
  groups: z.array(ImportedGroup),
  pubsub: z.object({ claimErrors: z.number().int(), emptyClaims: z.number().int(), avgPollSize: z.number(), deliverySemantics: z.string() }).nullable(),
  intervals: z.array(ImportedInterval),
  /** What the numbers mean (the tool's semantics), shown beside them. */
  notes: z.array(z.string()),
});
export type ImportedSummary = z.infer<typeof ImportedSummary>;

export class ImportError extends Error {
  constructor(
    message: string,
    public line?: number,
  ) {
    super(line ? `line ${line}: ${message}` : message);
  }
}

export { parseGoDuration } from "../duration";

const num = (s: string) => Number(s.replace(/,/g, ""));

/**
 * Masks a password given on a pasted command line (a --password flag, or a connection string in any libpq
 * form: lib/targets/pgurl.ts maskUrl), so it is never stored nor repeated in an error.
 */
export function maskSecrets(text: string): string {
  return maskUrl(text.replace(/(-{1,2}password(?:=|\s+))("[^"]*"|'[^']*'|\S+)/g, "$1****"));
}

interface Line {
  n: number;
  text: string;
}

class Reader {
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

const INT = "(-?[\\d,]+)";
const FLOAT = "(-?[\\d,]*\\.?\\d+)";

function latencyBlock(r: Reader, header: Line): ImportedLatency {
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

function field(r: Reader, label: string, valueRe: string, after: Line, unit = ""): { m: RegExpExecArray; line: Line } {
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
function readsBlock(r: Reader, header: Line, labels: { reads: string; errors: string; updates: string; claimErrors: string; emptyClaims: string }) {
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

const TOOL_DEFAULTS = {
  writers: 4,
  readers: 4,
  partitions: 10,
  consumerGroups: 1,
  writeBatch: 100,
  readBatch: 100,
  payloadBytes: 1024,
  durationSeconds: 30,
  reportIntervalSeconds: 5,
  throttleWritesPerSec: 0,
  tuneTableVacuum: false,
} as const;

/** pg_msg_bench's workload flags, from the field tables of the workloads it has (importFlag), and its -mode values. */
function referenceFlags(): { fields: Map<string, FieldDef>; modes: string[] } {
  const fields = new Map<string, FieldDef>();
  const modes: string[] = [];
  for (const d of workloadDefinitions()) {
    if (!d.referenceMode) continue;
    modes.push(d.referenceMode);
    for (const f of d.fields) if (f.importFlag && !fields.has(f.importFlag)) fields.set(f.importFlag, f);
  }
  return { fields, modes };
}
const IGNORED_FLAGS = new Set(["host", "port", "db", "user", "password"]);

/** Parses a `pg_msg_bench` command line (Go flag syntax: -f=v, --f=v, -f v; bare boolean flags). */
export function parseCommand(
  cmd: string,
  lineNo?: number,
): { mode?: ImportedSummary["workload"]; config: Partial<Record<ImportConfigField, number | boolean>> } {
  const flags = referenceFlags();
  const tokens = cmd
    .replace(/\\\s*\n/g, " ")
    .trim()
    .split(/\s+/);
  const start = tokens.findIndex((t) => /pg_msg_bench$|^go$/.test(t));
  const args = tokens.slice(start >= 0 ? (tokens[start] === "go" ? start + 3 : start + 1) : 0);
  const config: Partial<Record<ImportConfigField, number | boolean>> = {};
  let mode: ImportedSummary["workload"] | undefined;
  for (let i = 0; i < args.length; i++) {
    const m = /^--?([\w-]+)(?:=(.*))?$/.exec(args[i]);
    if (!m) throw new ImportError(`could not read the command line at '${args[i]}': expected flags such as --writers=10`, lineNo);
    const name = m[1];
    const f = flags.fields.get(name);
    if (!f && name !== "mode") {
      if (IGNORED_FLAGS.has(name)) {
        if (m[2] === undefined) i++;
        continue;
      }
      throw new ImportError(
        `unknown flag '--${name}' on the command line (pg_msg_bench has ${[...flags.fields.keys(), "mode"].map((n) => `-${n}`).join(", ")})`,
        lineNo,
      );
    }
    const field = f?.name as ImportConfigField;
    if (f?.control === "bool") {
      config[field] = m[2] === undefined ? true : m[2] === "true";
      continue;
    }
    const v = m[2] ?? args[++i];
    if (v === undefined) throw new ImportError(`flag '--${name}' has no value`, lineNo);
    if (!f) {
      if (!flags.modes.includes(v)) throw new ImportError(`--mode must be ${flags.modes.join(" or ")}, found '${v}'`, lineNo);
      mode = workloadDefinitions().find((d) => d.referenceMode === v)!.kind as ImportedSummary["workload"];
    } else if (f.cli?.duration) {
      const ms = parseGoDuration(v);
      if (ms === null || ms <= 0) throw new ImportError(`--${name} must be a Go duration such as 30s, found '${v}'`, lineNo);
      config[field] = ms / 1000;
    } else {
      if (!/^\d+$/.test(v)) throw new ImportError(`--${name} must be a whole number, found '${v}'`, lineNo);
      config[field] = Number(v);
    }
  }
  return { mode, config };
}

// ---------- impossible figures ----------
// A text whose numbers cannot all be true (an edited or mixed-up paste) is refused, naming the line, rather than
// compared. Negative counts, rates and latencies and percentiles out of order are caught where they are read
// (field, latencyBlock, the live lines); what needs the whole text is checked here.

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
const quote = (l: Line) => `'${l.text.trim()}'`;

interface LiveLine {
  line: number;
  w: number;
  r: number;
  totalW?: number;
  totalR?: number;
}

function checkConsistency(
  summary: {
    totals: ImportedSummary["totals"];
    throughput: ImportedSummary["throughput"];
    lines: { writes: Line; reads: Line; writeRate: Line; readRate: Line };
  },
  pubsub: { durationLine: Line; groups: { reads: number }[]; aggregate: ReturnType<typeof readsBlock> | null } | null,
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

const secondsOfDay = (t: string) => {
  const [h, m, s] = t.split(":").map(Number);
  return h * 3600 + m * 60 + s;
};

/**
 * Parses the tool's output. `command` (optional) is the command line used, for the config the output does
 * not print; a command line found in the text itself is used too. Throws ImportError naming the bad line.
 */
export function parseToolOutput(text: string, opts: { command?: string } = {}): ImportedSummary {
  if (!text.trim()) throw new ImportError("the text is empty: paste the whole output of pg_msg_bench, from its first line to '… benchmark complete'");
  const lines: Line[] = text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((t, i) => ({ n: i + 1, text: t.replace(/\s+$/, "") }));

  // Commands may span lines with trailing backslashes; join them before reading.
  let commandText: string | null = opts.command?.trim() ? opts.command.trim() : null;
  let commandLine: number | undefined;

  /** Live report lines; pubsub ones also carry TotalW and the sum of the groups' TotR (cumulative counts). */
  const live: { time: string; line: number; w: number; r: number; backlog: number; totalW?: number; totalR?: number }[] = [];
  const logHints: { partitions?: number; writers?: number; readBatch?: number } = {};
  let summary: {
    totals: ImportedSummary["totals"];
    throughput: ImportedSummary["throughput"];
    latency: { write: ImportedLatency; read: ImportedLatency; e2e: ImportedLatency };
    line: number;
    lines: { writes: Line; reads: Line; writeRate: Line; readRate: Line };
  } | null = null;
  let pubsub: {
    semantics: string;
    partitions: number;
    durationSeconds: number;
    durationLine: Line;
    groups: z.infer<typeof ImportedGroup>[];
    aggregate: ReturnType<typeof readsBlock> | null;
  } | null = null;
  // The tool's two modes are our workloads with its -mode (toolWorkloads): named by their definitions here.
  const tool = toolWorkloads();
  const FANOUT = tool.fanout.kind as WorkloadKind;
  const QUEUE = tool.queue.kind as WorkloadKind;
  let modeSeen: WorkloadKind | undefined;

  const r = new Reader(lines);
  while (r.peek()) {
    const l = r.next()!;
    const t = l.text.trim();
    if (t === "") continue;

    // A pasted command line (possibly "$ ./pg_msg_bench … \" continued on the next lines).
    if (/^(\$\s*)?(\S*pg_msg_bench|go run)\b/.test(t)) {
      let cmd = t;
      while (cmd.endsWith("\\") && r.peek()) cmd = `${cmd.slice(0, -1)} ${r.next()!.text.trim()}`;
      if (!opts.command?.trim()) {
        commandText = cmd.replace(/^\$\s*/, "");
        commandLine = l.n;
      }
      continue;
    }

    // Go log lines: "2026/11/22 04:35:18 [pub info] …", "… [consumer g3 r3 p4] claim err: …", "… benchmark complete".
    if (/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} /.test(t)) {
      const created = /successfully created (\d+) topicpartitions/.exec(t);
      if (created) logHints.partitions = Number(created[1]);
      const prod = /producers per partition \[([^\]]*)\]/.exec(t);
      if (prod) logHints.writers = [...prod[1].matchAll(/p\d+=(\d+)/g)].reduce((a, m) => a + Number(m[1]), 0);
      const batch = /\bbatch=(\d+)\)/.exec(t);
      if (batch) logHints.readBatch = Number(batch[1]);
      if (/pubsub benchmark complete|\[pub info\]|\[consumer g/.test(t)) modeSeen ??= FANOUT;
      if (/queue benchmark complete/.test(t)) modeSeen ??= QUEUE;
      continue;
    }

    // Live report, queue: "[04:36:04] W: 3465/s R: 1358/s QDepth: 10546 Err(W/R): 0/0"
    // (Rates are read with a sign so that a negative one is refused as impossible, not as unreadable.)
    let m = /^\[(\d{2}:\d{2}:\d{2})\] W: (-?\d+)\/s R: (-?\d+)\/s QDepth: (-?\d+) Err\(W\/R\): (\d+)\/(\d+)$/.exec(t);
    if (m) {
      modeSeen ??= QUEUE;
      if (num(m[2]) < 0 || num(m[3]) < 0) throw new ImportError(`'${t}' is impossible: a rate cannot be negative`, l.n);
      live.push({ time: m[1], line: l.n, w: num(m[2]), r: num(m[3]), backlog: num(m[4]) });
      continue;
    }
    // Live report, pubsub: "[04:35:24] W: 6960/s TotalW:34800", then the group table and "TotalR: …".
    m = /^\[(\d{2}:\d{2}:\d{2})\] W: (-?\d+)\/s TotalW:\s*(-?\d+)$/.exec(t);
    if (m) {
      modeSeen ??= FANOUT;
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
        live.push({ time: m[1], line: l.n, w: num(m[2]), r: num(tot[1]), backlog: Math.max(depthMax, Number(tot[3])), totalW: num(m[3]), totalR: totR });
        break;
      }
      continue;
    }

    if (t === "=== Summary ===") {
      if (summary) throw new ImportError("a second '=== Summary ===' block: paste the output of one run at a time", l.n);
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
      summary = {
        totals: { writes: num(tw.m[1]), reads: num(tr.m[1]), updates: num(tu.m[1]), writeErrors: num(we.m[1]), readErrors: num(re.m[1]) },
        throughput: { writeMsgPerSec: num(aw.m[1]), readMsgPerSec: num(ar.m[1]) },
        latency: { write, read, e2e },
        line: l.n,
        lines: { writes: tw.line, reads: tr.line, writeRate: aw.line, readRate: ar.line },
      };
      continue;
    }

    if (t === "=== PubSub Summary ===") {
      modeSeen = FANOUT;
      const ds = field(r, "Delivery Semantics", "(.+)", l);
      const np = field(r, "Number of partitions", INT, ds.line);
      const du = r.expect(/^Duration:\s*(\S+)(?:\s+\(([\d.]+)s\))?$/, "Duration: <duration> (<seconds>s)", np.line);
      const durMs = parseGoDuration(du[1]);
      if (durMs === null) throw new ImportError(`expected 'Duration: <duration>' but found 'Duration: ${du[1]}'`, r.lines[r.i - 1].n);
      pubsub = {
        semantics: ds.m[1],
        partitions: num(np.m[1]),
        durationSeconds: du[2] ? Number(du[2]) : durMs / 1000,
        durationLine: r.lines[r.i - 1],
        groups: [],
        aggregate: null,
      };
      continue;
    }

    m = /^-- Consumer Group (\d+) --$/.exec(t);
    if (m) {
      if (!pubsub) throw new ImportError("a '-- Consumer Group --' block before '=== PubSub Summary ==='", l.n);
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
      pubsub.groups.push({ group: Number(m[1]), ...counts, latencyMs: { read, e2e } });
      continue;
    }

    if (t === "=== Aggregate Across All Groups ===") {
      if (!pubsub) throw new ImportError("'=== Aggregate Across All Groups ===' before '=== PubSub Summary ==='", l.n);
      pubsub.aggregate = readsBlock(r, l, {
        reads: "Total Reads Completed",
        errors: "Total Read Errors",
        updates: "Total Updates",
        claimErrors: "Total Claim Errors",
        emptyClaims: "Total Empty Claims",
      });
      continue;
    }

    throw new ImportError(
      `could not read '${t.length > 120 ? `${t.slice(0, 117)}…` : t}': expected a live report line ('[hh:mm:ss] W: …'), a log line, the command line or a summary block of pg_msg_bench`,
      l.n,
    );
  }

  if (!summary)
    throw new ImportError(
      live.length
        ? `no '=== Summary ===' block after the ${live.length} live report line${live.length > 1 ? "s" : ""}: paste the whole output, including the final summary (the run may have been stopped early)`
        : "no '=== Summary ===' block: this does not look like the output of pg_msg_bench",
    );

  // The command line fills in what the output does not print; flags it omits take the tool's defaults.
  let cmd: ReturnType<typeof parseCommand> | null = null;
  if (commandText) cmd = parseCommand(commandText, commandLine);
  const workload: WorkloadKind = pubsub ? FANOUT : (modeSeen ?? cmd?.mode ?? QUEUE);
  if (cmd?.mode && cmd.mode !== workload)
    throw new ImportError(`the command line says --mode=${cmd.mode}, but the output is of a ${workload} run`, commandLine);
  if (workload === FANOUT && !pubsub)
    throw new ImportError("this is a pubsub run's output, but its '=== PubSub Summary ===' block is missing: paste the whole output");
  if (pubsub && !pubsub.aggregate)
    throw new ImportError("the '=== Aggregate Across All Groups ===' block is missing after the pubsub summary: paste the whole output");

  const config: ImportedSummary["config"] = {};
  const sources: Record<string, ConfigSource> = {};
  const set = <K extends ImportConfigField>(k: K, v: ImportedSummary["config"][K] | undefined, src: ConfigSource) => {
    if (v === undefined || config[k] !== undefined) return;
    config[k] = v;
    sources[k] = src;
  };
  if (cmd) for (const [k, v] of Object.entries(cmd.config)) set(k as ImportConfigField, v as never, "command");
  if (pubsub) {
    set("partitions", pubsub.partitions, "output");
    set("consumerGroups", pubsub.groups.length, "output");
    set("durationSeconds", pubsub.durationSeconds, "output");
    // The tool refuses to run unless readers (per group) == partitions (pubsub_runner.go L55-58).
    set("readers", config.partitions ?? pubsub.partitions, "inferred");
  }
  if (logHints.writers) set("writers", logHints.writers, "output");
  if (logHints.readBatch && workload === FANOUT) set("readBatch", logHints.readBatch, "inferred");
  if (workload === QUEUE && summary.throughput.writeMsgPerSec > 0) {
    // The queue summary prints no duration; its rates are totals ÷ the configured duration, so that divides back.
    const d = summary.totals.writes / summary.throughput.writeMsgPerSec;
    if (Math.abs(d - Math.round(d)) < 0.05) set("durationSeconds", Math.round(d), "inferred");
  }
  if (live.length >= 2) set("reportIntervalSeconds", (secondsOfDay(live[1].time) - secondsOfDay(live[0].time) + 86400) % 86400, "inferred");
  if (cmd) {
    // The fields the reference tool's flags set for this workload (its field table's importFlag).
    const fields = (workloadDefinitions().find((d) => d.referenceMode === workload)?.fields ?? [])
      .filter((f) => f.importFlag)
      .map((f) => f.name as ImportConfigField);
    for (const k of fields) set(k, TOOL_DEFAULTS[k] as never, "default");
  }

  checkConsistency(summary, pubsub, live, config.durationSeconds, sources.durationSeconds);

  const notes: string[] = [
    "Imported from the reference tool's output: its numbers, its semantics. Rates are totals ÷ the configured duration (whose clock starts before table setup), not the real measuring window.",
    "Percentiles cover the whole run, start-up and shutdown included (the tool has no warm-up); only p50, p95 and p99 are printed.",
  ];
  if (workload === FANOUT)
    notes.push(
      "pubsub: write latency is from the base summary (one sample per batch); read and e2e are from 'Aggregate Across All Groups' — the base summary's read/e2e latencies print 0s in pubsub mode and are ignored. Read msg/s sums all consumer groups.",
    );
  if (workload === QUEUE)
    notes.push("queue: write latency includes failed inserts; e2e is only right if the server's TimeZone is UTC (created_at is TIMESTAMP without time zone).");
  if (config.payloadBytes === undefined) notes.push("Payload size unknown (no command line given): MiB/s are not shown. Add the command line to fill it in.");
  if (config.throttleWritesPerSec)
    notes.push(`Writes were throttled to ${config.throttleWritesPerSec} msg/s by a token bucket with a one-second burst at start.`);

  const first = live[0] ? secondsOfDay(live[0].time) : 0;
  const step = config.reportIntervalSeconds ?? 0;
  const intervals = live.map((x) => ({
    time: x.time,
    elapsedSec: ((secondsOfDay(x.time) - first + 86400) % 86400) + step,
    writeMsgPerSec: x.w,
    readMsgPerSec: x.r,
    backlog: x.backlog,
  }));

  const agg = pubsub?.aggregate;
  return ImportedSummary.parse({
    schemaVersion: 1,
    tool: "pg-queue-pubsub-benchmark",
    workload,
    config,
    configSources: sources,
    command: commandText ? maskSecrets(commandText) : null,
    totals: agg ? { ...summary.totals, reads: agg.reads, updates: agg.updates, readErrors: agg.readErrors } : summary.totals,
    throughput: agg ? { writeMsgPerSec: summary.throughput.writeMsgPerSec, readMsgPerSec: agg.msgPerSec } : summary.throughput,
    latencyMs: agg ? { write: summary.latency.write, read: agg.read, e2e: agg.e2e } : summary.latency,
    groups: pubsub?.groups ?? [],
    pubsub: agg ? { claimErrors: agg.claimErrors, emptyClaims: agg.emptyClaims, avgPollSize: agg.avgPollSize, deliverySemantics: pubsub!.semantics } : null,
    intervals,
    notes,
  });
}
