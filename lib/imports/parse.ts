// Import: reads the text output of the reference Go tool (pg-queue-pubsub-benchmark, `pg_msg_bench`) — its live
// report lines and its final summary — into an ImportedSummary that compares like a run, always labelled
// "imported". The output's semantics are the tool's, not ours (read from the tool's source):
// rates are totals ÷ the *configured* duration, percentiles cover the whole run (no warm-up), and in pubsub mode
// the base summary's read/e2e latencies print 0s and mean nothing (§2.5), so read/e2e come from the aggregate block.
// A line that cannot be read is reported by number and content: "line 12: expected 'P50: <duration>' but found …".
// The parts: the stored shape (summary.ts), the line grammar (grammar.ts), the sections of the output (sections.ts),
// the command line (command.ts), the checks of impossible figures (consistency.ts); here, their assembly.
import { toolWorkloads, type WorkloadKind, workloadDefinitions } from "../workloads/config";
import { maskSecrets, type ParsedCommand, parseCommand, TOOL_DEFAULTS } from "./command";
import { checkConsistency } from "./consistency";
import { type Line, secondsOfDay } from "./grammar";
import { type LiveReport, type Scan, type SummaryBlock, scanOutput } from "./sections";
import { type ConfigSource, type ImportConfigField, ImportError, ImportedSummary } from "./summary";

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
  // The tool's two modes are our workloads with its -mode (toolWorkloads): named by their definitions here.
  const tool = toolWorkloads();
  const scan = scanOutput(lines, {
    fanout: tool.fanout.kind as WorkloadKind,
    queue: tool.queue.kind as WorkloadKind,
    commandGiven: !!opts.command?.trim(),
    commandText: opts.command?.trim() ? opts.command.trim() : null,
    live: [],
    logHints: {},
    summary: null,
    pubsub: null,
  });
  const { summary, pubsub, live, commandText, commandLine } = scan;
  if (!summary)
    throw new ImportError(
      live.length
        ? `no '=== Summary ===' block after the ${live.length} live report line${live.length > 1 ? "s" : ""}: paste the whole output, including the final summary (the run may have been stopped early)`
        : "no '=== Summary ===' block: this does not look like the output of pg_msg_bench",
    );

  // The command line fills in what the output does not print; flags it omits take the tool's defaults.
  const cmd = commandText ? parseCommand(commandText, commandLine) : null;
  const workload = workloadOf(scan, cmd);
  const { config, sources } = configOf(scan, summary, cmd, workload);
  checkConsistency(summary, pubsub, live, config.durationSeconds, sources.durationSeconds);

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
    intervals: intervalsOf(live, config.reportIntervalSeconds ?? 0),
    notes: notesOf(scan, workload, config),
  });
}

/** Which of the tool's modes the output is of, checked against the command line and the blocks it must have. */
function workloadOf(scan: Scan, cmd: ParsedCommand | null): WorkloadKind {
  const { pubsub, fanout: FANOUT, queue: QUEUE, modeSeen, commandLine } = scan;
  const workload: WorkloadKind = pubsub ? FANOUT : (modeSeen ?? cmd?.mode ?? QUEUE);
  if (cmd?.mode && cmd.mode !== workload)
    throw new ImportError(`the command line says --mode=${cmd.mode}, but the output is of a ${workload} run`, commandLine);
  if (workload === FANOUT && !pubsub)
    throw new ImportError("this is a pubsub run's output, but its '=== PubSub Summary ===' block is missing: paste the whole output");
  if (pubsub && !pubsub.aggregate)
    throw new ImportError("the '=== Aggregate Across All Groups ===' block is missing after the pubsub summary: paste the whole output");
  return workload;
}

/**
 * The run's config as far as it is known, each value with where it came from: the command line first, then what
 * the output prints, then what it implies, then (with a command line) the tool's defaults for the flags left out.
 */
function configOf(scan: Scan, summary: SummaryBlock, cmd: ParsedCommand | null, workload: WorkloadKind) {
  const { pubsub, logHints, live, fanout: FANOUT, queue: QUEUE } = scan;
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
  return { config, sources };
}

/** What the numbers mean (the tool's semantics), shown beside them. */
function notesOf(scan: Scan, workload: WorkloadKind, config: ImportedSummary["config"]): string[] {
  const { fanout: FANOUT, queue: QUEUE } = scan;
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
  return notes;
}

/** The live report lines as intervals, timed from the load's start (the first report is one interval in). */
function intervalsOf(live: LiveReport[], step: number): ImportedSummary["intervals"] {
  const first = live[0] ? secondsOfDay(live[0].time) : 0;
  return live.map((x) => ({
    time: x.time,
    elapsedSec: ((secondsOfDay(x.time) - first + 86400) % 86400) + step,
    writeMsgPerSec: x.w,
    readMsgPerSec: x.r,
    backlog: x.backlog,
  }));
}
