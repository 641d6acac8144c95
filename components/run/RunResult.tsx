// The result of a completed run, from its summary: headline numbers, the latency table of the measured
// window (percentiles of merged HDR histograms, never averages), the verification and the manifest.
import type { LatencyStats } from "@/lib/measurement/metrics";
import {
  counterOf,
  groupsOf,
  latenciesOf,
  latencyMetrics,
  latencyOf,
  type MetricModel,
  metricModel,
  perGroupOperation,
  rateLabel,
  rateOperations,
  throughputOf,
} from "@/lib/measurement/operations";
import { plural, unitWords } from "@/lib/words";
import { fmtDuration, fmtInt, fmtLatency, fmtMiB, fmtRate } from "@/lib/runs/format";
import { clientBoundText, clientNumbers, type SummaryRunnerLoad } from "@/lib/measurement/runner-load";
import { splitSettings } from "@/lib/measurement/server-settings";
import type { RunSummary } from "@/lib/measurement/summary";
import { checkedText, verificationLine } from "@/lib/measurement/verification";
import { payloadBytesOf } from "@/lib/workloads/config";
import { ProcessesTable } from "./ProcessesTable";

const STATS: { key: keyof LatencyStats; label: string }[] = [
  { key: "p50", label: "p50" },
  { key: "p90", label: "p90" },
  { key: "p95", label: "p95" },
  { key: "p99", label: "p99" },
  { key: "p999", label: "p99.9" },
  { key: "max", label: "max" },
  { key: "mean", label: "mean" },
];

/** The headline: each declared operation's rate, then the delivery latency, then the verification. */
/** A length of time in seconds read as every duration is: "65.03 s" → "65 s", "0.2 s" → "200 ms" (lib/runs/numbers.ts). */
const seconds = (sec: number) => fmtLatency(sec * 1000);

export function Kpis({ summary }: { summary: RunSummary }) {
  const model = metricModel(summary.workload);
  const delivery = model?.delivery;
  const d = delivery ? latencyOf(summary, delivery.name) : undefined;
  return (
    <div className="kpi-row" data-testid="headline">
      {(model ? rateOperations(model) : []).map((o) => {
        const tp = throughputOf(summary, o.name);
        return (
          <div className="kpi panel" key={o.name}>
            <span className="k">{rateLabel(o, groupsOf(summary).length)}</span>
            <span className="v" data-testid={`kpi-${o.name}`}>
              {fmtRate(tp?.perSecond)}
            </span>
            <span className="k">
              {o.unit}/s{payloadBytesOf(summary.config) !== null ? ` · ${fmtMiB(tp?.mibPerSec)} MiB/s` : ""}
            </span>
          </div>
        );
      })}
      {delivery && (
        <div className="kpi panel">
          <span className="k">{delivery.label} p99</span>
          <span className="v">{fmtLatency(d?.p99)}</span>
          <span className="k">p50 {fmtLatency(d?.p50)}</span>
        </div>
      )}
      <div className="kpi panel">
        <span className="k">verification</span>
        <span className="v">
          <span className={`badge ${summary.verification.ok ? "ok" : "bad"}`} data-testid="kpi-verified">
            {summary.verification.ok ? "passed" : "FAILED"}
          </span>
        </span>
        <span className="k">{checkedText(summary.verification)}</span>
      </div>
    </div>
  );
}

/** The latencies the workload declares (lib/measurement/operations.ts latencyMetrics), those the run has. */
export function LatencyTable({ workload, latency, caption }: { workload: string; latency: Partial<Record<string, LatencyStats>>; caption: string }) {
  const model = metricModel(workload);
  const rows = (model ? latencyMetrics(model) : []).filter((m) => latency[m.name]);
  return (
    <div className="table-wrap">
      <table className="data" data-testid="latency-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th>metric</th>
            {STATS.map((s) => (
              <th key={s.key} className="num">
                {s.label}
              </th>
            ))}
            <th className="num">count</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((m) => (
            <tr key={m.name}>
              <th
                scope="row"
                className="nowrap"
                title={
                  m.latencySample
                    ? `one sample ${m.latencySample}`
                    : "from each operation's scheduled start under the throttle (coordinated omission corrected)"
                }
              >
                {m.label}
              </th>
              {STATS.map((s) => (
                <td key={s.key} className="num">
                  {fmtLatency(latency[m.name]![s.key])}
                </td>
              ))}
              <td className="num">{fmtInt(latency[m.name]!.count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function VerificationPanel({ v }: { v: RunSummary["verification"] }) {
  // In the workload's own unit and checks ("35,080 rows checked · rows in bench_inserts: 35,080 · …").
  const facts = verificationLine(v);
  return v.ok ? (
    <div className="alert ok" data-testid="verification" data-ok="true">
      <strong>Verification passed.</strong> {facts}
    </div>
  ) : (
    <div className="alert bad" data-testid="verification" data-ok="false" role="alert">
      <strong>Verification FAILED: the numbers of this run cannot be trusted.</strong> {facts}
      {v.problems.length > 0 && (
        <ul>
          {v.problems.map((p, i) => (
            <li key={i}>{p}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The per-group operation's numbers per consumer group (pub/sub's read), when the workload declares one. */
function GroupTable({ summary }: { summary: RunSummary }) {
  const model = metricModel(summary.workload);
  const op = perGroupOperation(model);
  const groups = groupsOf(summary);
  if (!op || groups.length < 2) return null;
  const delivery = model?.delivery;
  return (
    <div className="table-wrap">
      <table className="data compact">
        <caption>Per consumer group (measured window)</caption>
        <thead>
          <tr>
            <th>group</th>
            <th className="num">{op.unit}/s</th>
            <th className="num">MiB/s</th>
            <th className="num">{op.label} p99</th>
            {delivery && <th className="num">{delivery.name} p99</th>}
            <th className="num">empty polls</th>
          </tr>
        </thead>
        <tbody>
          {groups.map((g) => (
            <tr key={g.group}>
              <th scope="row">{g.group}</th>
              <td className="num">{fmtRate(throughputOf(g, op.name)?.perSecond)}</td>
              <td className="num">{fmtMiB(throughputOf(g, op.name)?.mibPerSec)}</td>
              <td className="num">{fmtLatency(latencyOf(g, op.name)?.p99)}</td>
              {delivery && <td className="num">{fmtLatency(latencyOf(g, delivery.name)?.p99)}</td>}
              <td className="num">{fmtInt(counterOf(g, op.name, "emptyPolls"))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ManifestPanel({ summary }: { summary: RunSummary }) {
  const m = summary.manifest;
  const settings = splitSettings(m.serverSettings);
  const rows: [string, string][] = [
    ["Postgres", m.postgresVersion],
    ["max_connections", String(m.maxConnections)],
    ["runner host", `${m.runnerHost}: ${m.runnerCores} cores, ${m.runnerCpuModel}`],
    [
      "runner CPU",
      `${seconds(m.runnerCpuSeconds)} in the measured window${m.runnerCpuMsPer1000 ? ` (${fmtLatency(m.runnerCpuMsPer1000.ms)} per 1,000 ${unitWords(m.runnerCpuMsPer1000.unit)})` : ""}`,
    ],
    ...runnerLoadRows(summary),
    ["Node.js", m.nodeVersion],
    ["pg-broker-bench", `${m.productVersion}${m.productCommit ? ` (${m.productCommit.slice(0, 10)})` : ""}`],
    [
      "measured window",
      `${fmtDuration(summary.window.measuredSeconds)} (${seconds(summary.window.measuredSeconds)}) after ${fmtDuration(summary.window.warmupSeconds)} warm-up`,
    ],
    ["started / ended", `${m.startedAt} → ${m.endedAt}`],
    ["end-to-end clock", m.e2eClock],
  ];
  const totals = summary.totals;
  const model = metricModel(summary.workload);
  if (totals && model) rows.push(["whole run", wholeRun(totals, model)]);
  return (
    <section className="panel" data-testid="manifest">
      <h2>Manifest</h2>
      <table className="data compact kv">
        <tbody>
          {rows.map(([k, v]) => (
            <tr key={k}>
              <th scope="row">{k}</th>
              <td>{v}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Server settings not at their default</h3>
      {settings.performance.length ? (
        <SettingsTable rows={settings.performance} caption="Those that matter for performance" testId="settings-performance" />
      ) : (
        <p className="muted small" data-testid="settings-performance">
          Every setting that matters for performance (memory, durability, WAL, checkpoints, I/O, vacuum) is at its default.
        </p>
      )}
      {settings.other.length > 0 && (
        <details data-testid="settings-other">
          <summary>Other settings ({settings.other.length}): locale, time zone, addresses, logging…</summary>
          <SettingsTable rows={settings.other} />
        </details>
      )}
    </section>
  );
}

/** The whole run's counts by declared operation, what was still waiting at the end and the drain's length. */
function wholeRun(totals: NonNullable<RunSummary["totals"]>, model: MetricModel): string {
  const counts = rateOperations(model)
    .filter((o) => totals.operations[o.name] !== undefined)
    .map((o) => `${fmtInt(totals.operations[o.name])} ${plural(o.label)}`);
  const unread = totals.measures.unreadAtEnd;
  const drain = totals.measures.drainSeconds;
  return [
    ...counts,
    ...(unread !== undefined && model.backlog ? [`${fmtInt(unread)} ${model.backlog.unit} unread at the end`] : []),
    ...(drain !== undefined ? [`drain ${seconds(drain)}`] : []),
  ].join(", ");
}

/** The runner's own load and where the target ran, when the run recorded them. */
function runnerLoadRows(summary: RunSummary): [string, string][] {
  const rows: [string, string][] = [];
  const l = summary.runnerLoad;
  if (l)
    rows.push([
      "runner load",
      `event-loop delay p50 ${fmtLatency(l.loopDelayMs.p50)} · p99 ${fmtLatency(l.loopDelayMs.p99)} · max ${fmtLatency(l.loopDelayMs.max)} (${fmtLatency(l.exposedDelayMs)} or more over 1% of the time); CPU ${(100 * l.cpuCores).toFixed(0)}% of one core, busiest second ${(100 * l.maxCpuCores).toFixed(0)}%${clientNumbers(l)}${l.clientBound ? ": CLIENT-BOUND" : ": not client-bound"}${l.rule ? "" : " (as stored, by the earlier rule)"}`,
    ]);
  const local = summary.manifest.targetOnRunnerMachine;
  if (local !== undefined)
    rows.push([
      "target",
      local
        ? `on the runner's own machine (${summary.manifest.serverAddress ?? "Unix socket"}): runner and Postgres share its ${summary.manifest.runnerCores} cores, and each one's load slows the other`
        : `another machine (${summary.manifest.serverAddress})`,
    ]);
  return rows;
}

function SettingsTable({ rows, caption, testId }: { rows: [string, string][]; caption?: string; testId?: string }) {
  return (
    <table className="data compact kv" data-testid={testId}>
      {caption && <caption>{caption}</caption>}
      <tbody>
        {rows.map(([k, v]) => (
          <tr key={k}>
            <th scope="row" className="mono">
              {k}
            </th>
            <td className="mono">{v}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The client-bound verdict, above everything the latencies say (lib/measurement/runner-load.ts). */
export function ClientBoundAlert({ load }: { load: SummaryRunnerLoad | undefined }) {
  if (!load?.clientBound) return null;
  return (
    <div className="alert bad" data-testid="client-bound" role="alert">
      <strong>Client-bound.</strong>{" "}
      {clientBoundText(load)
        .replace(/^client-bound:? /, "")
        .replace(/^\w/, (c) => c.toUpperCase())}
      .
    </div>
  );
}

export function RunResult({ summary }: { summary: RunSummary }) {
  // The verdict is shown on its own, above: not again among the notes.
  const notes = (summary.notes ?? []).filter((n) => !(summary.runnerLoad?.clientBound && n.startsWith("client-bound:")));
  return (
    <div className="stack" data-testid="run-result">
      <Kpis summary={summary} />
      <ClientBoundAlert load={summary.runnerLoad} />
      <VerificationPanel v={summary.verification} />
      {notes.length > 0 && (
        <div className="alert warn">
          <ul className="plain">
            {notes.map((n, i) => (
              <li key={i}>{n}</li>
            ))}
          </ul>
        </div>
      )}
      <section className="panel">
        <LatencyTable
          workload={summary.workload}
          latency={latenciesOf(summary)}
          caption={`Latency over the measured window, ${fmtDuration(summary.window.measuredSeconds)}`}
        />
        <GroupTable summary={summary} />
      </section>
      <ProcessesTable summary={summary} />
    </div>
  );
}
