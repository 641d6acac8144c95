// Text output of the CLI and the bench scripts: the live line and the final summary table.
import type { LatencyStats } from "../lib/measurement/metrics";
import type { RunSummary } from "../lib/measurement/summary";
import type { LabelsInput } from "../lib/runs/labels";
import { fmtLatency, knobsParts } from "../lib/runs/format";
import { definitionOf } from "../lib/workloads/config";
import { msText, num } from "../lib/number-text";
import { countWords, plural, unitWords } from "../lib/words";
import { counterOf, type MetricModel, groupsOf, latencyMetrics, latencyOf, rateOperations, throughputOf } from "../lib/measurement/operations";
import { telemetryText } from "../lib/telemetry/report";
import { phaseReportLines } from "../lib/phases/words";
import { verificationLine } from "../lib/measurement/verification";
import { clientNumbers } from "../lib/measurement/runner-load";
import { keepUpOf, RUNNER_ROLE_WORDS, runnerLoadOf } from "../lib/measurement/headline";
import { partsLines } from "../lib/measurement/part-view";
import type { Report } from "./core/stats";

const int = (n: number) => Math.round(n).toLocaleString("en-US");
// The number formatters the bench scripts import from here too.
export { msText, num };

/** The CLI's line per report interval; the latencies are the workload's charted ones ("write", "read", "e2e"). */
export function liveLine(r: Report, kind: string): string {
  const model = definitionOf({ kind }).metrics;
  const pct = (name: string, s?: LatencyStats) => (s ? `  ${name} p50 ${fmtLatency(s.p50)} p99 ${fmtLatency(s.p99)}` : "");
  // A broker (it declares a backlog) as the reference tool prints it, W and R; any other workload's declared rates
  // (a cache's gets and sets, an insert benchmark's inserts).
  const broker = !!model.backlog;
  const rates = broker
    ? `W ${int(r.writesPerSec).padStart(7)}/s  R ${int(r.readsPerSec).padStart(8)}/s`
    : rateOperations(model)
        .map((o) => `${o.label} ${int(r.rates[o.name] ?? 0)}/s`)
        .join("  ");
  return (
    `[${num(r.elapsedSec, 0).padStart(5)}s ${r.phase.padEnd(9)}] ${rates}` +
    (model.backlog ? `  ${model.backlog.label.toLowerCase()} ${int(r.backlog).padStart(6)}` : "") +
    `${latencyMetrics(model)
      .filter((m) => m.chart)
      .map((m) => pct(m.name, r.latencyMs[m.name]))
      .join("")}` +
    (r.errors ? `  errors ${int(r.errors)}` : "") +
    (r.runnerLoad
      ? `  runner cpu ${num(100 * r.runnerLoad.cpuCores, 0)}% loop max ${fmtLatency(r.runnerLoad.loopDelayMaxMs)}${r.runnerLoad.clientBound ? "  (its delay in these latencies)" : ""}`
      : "")
  );
}

/** The whole run's counts of the declared rate operations, what was left waiting and the drain. */
function wholeRun(t: NonNullable<RunSummary["totals"]>, model: MetricModel): string {
  const counts = rateOperations(model)
    .filter((o) => t.operations[o.name] !== undefined)
    .map((o) => `${int(t.operations[o.name])} ${plural(o.label)}`)
    .join(", ");
  const unread = t.measures.unreadAtEnd;
  const left = unread && model.backlog ? `, ${int(unread)} ${model.backlog.unit} unread at the end` : "";
  const drain = t.measures.drainSeconds;
  return `${counts}${left}${drain !== undefined ? `; drain ${num(drain, 1)} s` : ""}`;
}

function table(rows: string[][], rightAlignFrom = 1): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => (r[c] ?? "").length)));
  return rows.map((r) => r.map((cell, c) => (c < rightAlignFrom ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join("  ")).join("\n");
}

export function summaryText(s: RunSummary, targetLabel: string, labels?: LabelsInput): string {
  const out: string[] = [];
  const c = s.config;
  const def = definitionOf(c);
  out.push(`=== ${labels?.name ? `${labels.name}: ` : ""}${s.workload} on ${targetLabel} ===`);
  if (labels?.tags?.length) out.push(`tags: ${labels.tags.join(", ")}`);
  if (labels?.notes) out.push(`notes: ${labels.notes.replace(/\n/g, "\n       ")}`);
  // The back-off it really slept is in the manifest (runs recorded before it was a setting slept the nominal one).
  // Workloads without readers (DBOS's) have no back-off to name.
  const pollers = def.backoff !== undefined;
  const backoff = s.manifest.backoff ? `${s.manifest.backoff} back-off` : "nominal back-off (recorded before it was a setting)";
  out.push([...knobsParts(c).filter((p) => !/back-off$/.test(p)), ...(pollers ? [backoff] : [])].join(", "));
  out.push(`measured window ${num(s.window.measuredSeconds, 2)} s (warm-up ${s.window.warmupSeconds} s excluded; rates are per real second of the window)`);
  out.push("");
  // One row per operation with a rate, as the workload declares them; a per-group one lists its groups.
  const ops = rateOperations(def.metrics);
  const counters = [...new Map(ops.flatMap((o) => o.counters ?? []).map((c) => [c.key, c])).values()];
  const unit = ops[0] ? `${ops[0].unit}/s` : "/s";
  // MiB/s are of message payloads: a workload without a payload has none.
  const bytes = def.payloadBytes !== undefined;
  const tp: string[][] = [["", unit, ...(bytes ? ["MiB/s"] : []), "count", "errors", ...counters.map((c) => c.label)]];
  for (const o of ops) {
    const t = throughputOf(s, o.name);
    const n = (v: number | undefined, f: (x: number) => string) => (v === undefined ? "–" : f(v));
    const groups = o.perGroup ? groupsOf(s) : [];
    tp.push([
      o.perGroup ? `${plural(o.label)} (${countWords(groups.length, "group")})` : plural(o.label),
      n(t?.perSecond, num),
      ...(bytes ? [n(t?.mibPerSec, (x) => num(x, 2))] : []),
      n(t?.count, int),
      o.errors ? n(t?.errors, int) : "",
      ...counters.map((c) => ((o.counters ?? []).some((x) => x.key === c.key) ? n(counterOf(s, o.name, c.key), int) : "")),
    ]);
    for (const g of groups) {
      const gt = throughputOf(g, o.name);
      tp.push([
        `  ${g.group}`,
        n(gt?.perSecond, num),
        ...(bytes ? [n(gt?.mibPerSec, (x) => num(x, 2))] : []),
        n(gt?.count, int),
        n(gt?.errors, int),
        ...counters.map((c) => n(counterOf(g, o.name, c.key), int)),
      ]);
    }
  }
  out.push(table(tp));
  out.push("");
  // Each cell carries its unit: a stalled tail reads "16.2 s" beside a p50 of "0.412 ms".
  const lt: string[][] = [["latency", "p50", "p90", "p95", "p99", "p99.9", "max", "mean", "samples"]];
  // What the workload declares, in its order. An operation with a rate counts messages while its latency may
  // count batches or polls, so its row says what one sample times ("write (per batch)").
  const model = def.metrics;
  const counted = new Set(model.operations.filter((o) => o.rate).map((o) => o.name));
  for (const m of latencyMetrics(model)) {
    const v = latencyOf(s, m.name);
    const label = counted.has(m.name) ? `${m.label} (${m.latencySample})` : m.label;
    if (v) lt.push([label, ...[v.p50, v.p90, v.p95, v.p99, v.p999, v.max, v.mean].map((x) => fmtLatency(x)), int(v.count)]);
  }
  out.push(table(lt));
  out.push("");
  const v = s.verification;
  // In the workload's own unit and checks, as the run page says it.
  // Nothing lost is not everything kept up: the consumers' pace and the backlog beside it, as the run page says.
  const keep = keepUpOf(s);
  out.push(`${v.ok ? (keep && !keep.keptUp ? "verification: OK (nothing lost)" : "verification: OK") : "verification FAILED"}: ${verificationLine(v)}`);
  for (const p of v.problems.slice(0, 10)) out.push(`  - ${p}`);
  if (v.problems.length > 10) out.push(`  … and ${v.problems.length - 10} more`);
  if (keep) out.push(`consumers: ${keep.keptUp ? "" : "NOT KEPT UP: "}${keep.text}`);
  if (s.totals) out.push(`whole run (warm-up + window + drain): ${wholeRun(s.totals, model)}`);
  const m = s.manifest;
  const coreShare = s.window.measuredSeconds > 0 ? (100 * m.runnerCpuSeconds) / s.window.measuredSeconds : 0;
  out.push(
    `runner CPU: ${num(m.runnerCpuSeconds, 2)} s in the window = ${num(coreShare)}% of one core${m.runnerCpuMsPer1000 ? `; ${fmtLatency(m.runnerCpuMsPer1000.ms)} per 1,000 ${unitWords(m.runnerCpuMsPer1000.unit)}` : ""}`,
  );
  const l = s.runnerLoad;
  const runner = runnerLoadOf(s);
  if (l)
    out.push(
      `runner event loop: delay p50 ${fmtLatency(l.loopDelayMs.p50)} p99 ${fmtLatency(l.loopDelayMs.p99)} max ${fmtLatency(l.loopDelayMs.max)} (${fmtLatency(l.exposedDelayMs)} or more over 1% of the time), busiest second ${num(100 * l.maxCpuCores)}% of one core${clientNumbers(l)} → ${runner.role === "none" ? RUNNER_ROLE_WORDS.none : `${RUNNER_ROLE_WORDS[runner.role]} (see the note)`}${l.rule ? "" : " (as stored, by the earlier rule)"}`,
    );
  // A run over several runner processes: one line per part, the worst named (none for one process).
  out.push(...partsLines(s));
  out.push(
    `Postgres ${m.postgresVersion}, max_connections ${m.maxConnections}; runner ${m.runnerCores} × ${m.runnerCpuModel}, Node ${m.nodeVersion}` +
      (m.targetOnRunnerMachine ? "; Postgres runs on the runner's machine (they share its cores)" : ""),
  );
  if (s.phases?.length) {
    out.push("");
    for (const p of s.phases) out.push(...phaseReportLines(p));
  }
  if (s.telemetry) {
    out.push("");
    out.push(telemetryText(s.telemetry));
  }
  for (const n of s.notes ?? []) out.push(`note: ${n}`);
  return out.join("\n");
}
