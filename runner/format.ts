// Text output of the CLI and the bench scripts: the live line and the final summary table.
import type { LatencyStats } from "../lib/measurement/metrics";
import type { RunSummary } from "../lib/measurement/summary";
import { fmtLatency, knobsParts } from "../lib/runs/format";
import { definitionOf } from "../lib/workloads/config";
import { counterOf, countsMessages, latencyMetrics, rateOperations, throughputOf } from "../lib/measurement/operations";
import { telemetryText } from "../lib/telemetry/report";
import { verificationLine } from "../lib/measurement/verification";
import type { Report } from "./stats";

const int = (n: number) => Math.round(n).toLocaleString("en-US");
export const num = (n: number, digits = 1) => n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
/** Milliseconds with about 3 significant digits, for a column headed "(ms)" (the bench scripts' tables). */
export const msText = (v: number | undefined) => (v === undefined ? "–" : v >= 100 ? num(v, 0) : v >= 10 ? num(v, 1) : num(v, 2));

/** The CLI's line per report interval; the latencies are the workload's charted ones ("write", "read", "e2e"). */
export function liveLine(r: Report, kind: string): string {
  const model = definitionOf({ kind }).metrics;
  const pct = (name: string, s?: LatencyStats) => (s ? `  ${name} p50 ${fmtLatency(s.p50)} p99 ${fmtLatency(s.p99)}` : "");
  // A message broker's writes and reads; any other workload's declared rates (a cache's gets and sets).
  const broker = countsMessages(model);
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
      ? `  runner cpu ${num(100 * r.runnerLoad.cpuCores, 0)}% loop max ${fmtLatency(r.runnerLoad.loopDelayMaxMs)}${r.runnerLoad.clientBound ? "  CLIENT-BOUND" : ""}`
      : "")
  );
}

/** "gets", "all requests": a rate row's name. */
// "searches", "publishes"; a label that is plural or a participle already ("rows returned") stays.
const plural = (label: string) => (/(s|ed)$/.test(label) ? label : /(ch|sh|x|z)$/.test(label) ? `${label}es` : `${label}s`);

const numberAt = (o: object, key: string): number | undefined => {
  const v = (o as Record<string, unknown>)[key];
  return typeof v === "number" ? v : undefined;
};

function table(rows: string[][], rightAlignFrom = 1): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => (r[c] ?? "").length)));
  return rows.map((r) => r.map((cell, c) => (c < rightAlignFrom ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join("  ")).join("\n");
}

export function summaryText(s: RunSummary, targetLabel: string): string {
  const out: string[] = [];
  const c = s.config;
  const def = definitionOf(c);
  out.push(`=== ${s.workload} on ${targetLabel} ===`);
  // The back-off it really slept is in the manifest (runs recorded before it was a setting slept the nominal one).
  // Workloads without readers (DBOS's) have no back-off to name.
  const pollers = def.backoff !== undefined;
  const backoff = s.manifest.backoff ? `${s.manifest.backoff} back-off` : "nominal back-off (recorded before it was a setting)";
  const broker = countsMessages(def.metrics);
  out.push([...knobsParts(c).filter((p) => !/back-off$/.test(p)), ...(pollers ? [backoff] : [])].join(", "));
  out.push(`measured window ${num(s.window.measuredSeconds, 2)} s (warm-up ${s.window.warmupSeconds} s excluded; rates are per real second of the window)`);
  out.push("");
  // One row per operation with a rate, as the workload declares them; a per-group one lists its groups.
  const ops = rateOperations(def.metrics);
  const counters = [...new Map(ops.flatMap((o) => o.counters ?? []).map((c) => [c.key, c])).values()];
  const unit = ops[0] ? `${ops[0].unit}/s` : "msg/s";
  // MiB/s are of message payloads: a workload without a payload has none.
  const bytes = def.payloadBytes !== undefined;
  const tp: string[][] = [["", unit, ...(bytes ? ["MiB/s"] : []), broker ? "messages" : "count", "errors", ...counters.map((c) => c.label)]];
  for (const o of ops) {
    const t = throughputOf(s, o.name);
    const n = (v: number | undefined, f: (x: number) => string) => (v === undefined ? "–" : f(v));
    const groups = o.perGroup ? s.reads.perGroup : [];
    tp.push([
      o.perGroup ? `${o.label}s (${groups.length} groups)` : plural(o.label),
      n(t?.msgPerSec, num),
      ...(bytes ? [n(t?.mibPerSec, (x) => num(x, 2))] : []),
      n(t?.count, int),
      o.errors ? n(t?.errors, int) : "",
      ...counters.map((c) => ((o.counters ?? []).some((x) => x.key === c.key) ? n(counterOf(s, o.name, c.key), int) : "")),
    ]);
    for (const g of groups)
      tp.push([`  ${g.group}`, num(g.msgPerSec), num(g.mibPerSec, 2), int(g.count), int(g.errors), ...counters.map((c) => n(numberAt(g, c.key), int))]);
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
    const v = s.latencyMs[m.name];
    const label = counted.has(m.name) ? `${m.label} (${m.latencySample})` : m.label;
    if (v) lt.push([label, ...[v.p50, v.p90, v.p95, v.p99, v.p999, v.max, v.mean].map((x) => fmtLatency(x)), int(v.count)]);
  }
  out.push(table(lt));
  out.push("");
  const v = s.verification;
  // In the workload's own unit and checks, as the run page says it.
  out.push(`${v.ok ? "verification: OK" : "verification FAILED"}: ${verificationLine(v)}`);
  for (const p of v.problems.slice(0, 10)) out.push(`  - ${p}`);
  if (v.problems.length > 10) out.push(`  … and ${v.problems.length - 10} more`);
  const opTotals = s.totals?.operations;
  if (!broker && opTotals)
    out.push(
      `whole run (warm-up + window + drain): ${ops
        .filter((o) => opTotals[o.name] !== undefined)
        .map((o) => `${int(opTotals[o.name])} ${plural(o.label)}`)
        .join(", ")}`,
    );
  else if (s.totals)
    out.push(
      `whole run (warm-up + window + drain): ${int(s.totals.writes)} written, ${int(s.totals.reads)} read${s.totals.unreadAtEnd ? `, ${int(s.totals.unreadAtEnd)} unread at the end` : ""}; drain ${num(s.totals.drainSeconds, 1)} s`,
    );
  const m = s.manifest;
  const coreShare = s.window.measuredSeconds > 0 ? (100 * m.runnerCpuSeconds) / s.window.measuredSeconds : 0;
  out.push(
    `runner CPU: ${num(m.runnerCpuSeconds, 2)} s in the window = ${num(coreShare)}% of one core${broker ? `; ${fmtLatency(m.runnerCpuMsPer1000Msgs)} per 1,000 messages` : ""}`,
  );
  const l = s.runnerLoad;
  if (l)
    out.push(
      `runner event loop: delay p50 ${fmtLatency(l.loopDelayMs.p50)} p99 ${fmtLatency(l.loopDelayMs.p99)} max ${fmtLatency(l.loopDelayMs.max)} (${fmtLatency(l.exposedDelayMs)} or more over 1% of the time), busiest second ${num(100 * l.maxCpuCores)}% of one core → ${l.clientBound ? "CLIENT-BOUND (see the note)" : "not client-bound"}`,
    );
  out.push(
    `Postgres ${m.postgresVersion}, max_connections ${m.maxConnections}; runner ${m.runnerCores} × ${m.runnerCpuModel}, Node ${m.nodeVersion}` +
      (m.targetOnRunnerMachine ? "; Postgres runs on the runner's machine (they share its cores)" : ""),
  );
  if (s.telemetry) {
    out.push("");
    out.push(telemetryText(s.telemetry));
  }
  for (const n of s.notes ?? []) out.push(`note: ${n}`);
  return out.join("\n");
}
