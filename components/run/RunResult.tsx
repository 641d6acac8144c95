// The result of a completed run, from its summary: it leads with the verdict (one: the runner's load is evidence
// inside it, a caution on the latencies unless the runner was the limit), then the headline numbers with the
// verification (nothing lost, and whether the consumers kept up), the latency table of the measured window
// (percentiles of merged HDR histograms, never averages) and the manifest.
import type { LatencyStats } from "@/lib/measurement/metrics";
import { HISTOGRAM_FORMATS, histogramsOf } from "@/lib/measurement/hdr-export";
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
import { clientNumbers } from "@/lib/measurement/runner-load";
import { isRunnerLoadNote, type KeepUp, keepUpOf, RUNNER_ROLE_WORDS, runnerLoadOf } from "@/lib/measurement/headline";
import { RunVerdict } from "@/components/telemetry/VerdictPanel";
import { splitSettings } from "@/lib/measurement/server-settings";
import type { RunSummary } from "@/lib/measurement/summary";
import type { ClusterShape } from "@/lib/targets/replicated-shape";
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

/** A length of time in seconds read as every duration is: "65.03 s" → "65 s", "0.2 s" → "200 ms" (lib/runs/numbers.ts). */
const seconds = (sec: number) => fmtLatency(sec * 1000);

/** The headline: each declared operation's rate, then the delivery latency, then the verification. */
export function Kpis({ summary }: { summary: RunSummary }) {
  const model = metricModel(summary.workload);
  const keep = keepUpOf(summary);
  const ok = summary.verification.ok;
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
      {/* Nothing lost is not everything kept up: a run whose consumers fell behind says so here, with its backlog. */}
      <div className="kpi panel" data-testid="kpi-verification" data-kept-up={keep ? keep.keptUp : undefined}>
        <span className="k">verification</span>
        <span className="v">
          <span className={`badge ${ok ? (keep && !keep.keptUp ? "warn" : "ok") : "bad"}`} data-testid="kpi-verified">
            {ok ? (keep && !keep.keptUp ? "nothing lost" : "passed") : "FAILED"}
          </span>{" "}
          {keep && (
            <span className={`badge ${keep.keptUp ? "ok" : "warn"}`} data-testid="kpi-kept-up">
              {keep.keptUp ? "kept up" : "consumers behind"}
            </span>
          )}
        </span>
        <span className="k">{checkedText(summary.verification)}</span>
        {keep && (
          <span className="k" data-testid="kpi-keep-up">
            {keep.text}
          </span>
        )}
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

export function VerificationPanel({ v, keepUp }: { v: RunSummary["verification"]; keepUp?: KeepUp }) {
  // In the workload's own unit and checks ("35,080 rows checked · rows in bench_inserts: 35,080 · …").
  const facts = verificationLine(v);
  // Nothing lost while the consumers fell behind is not a green result: it says both, and the backlog.
  if (v.ok && keepUp && !keepUp.keptUp)
    return (
      <div className="alert warn" data-testid="verification" data-ok="true" data-kept-up="false">
        <strong>Verification passed: nothing lost, but {keepUp.text}.</strong> {facts}
      </div>
    );
  return v.ok ? (
    <div className="alert ok" data-testid="verification" data-ok="true" data-kept-up={keepUp ? "true" : undefined}>
      <strong>Verification passed{keepUp ? `: nothing lost, and ${keepUp.text}` : ""}.</strong> {facts}
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
      `event-loop delay p50 ${fmtLatency(l.loopDelayMs.p50)} · p99 ${fmtLatency(l.loopDelayMs.p99)} · max ${fmtLatency(l.loopDelayMs.max)} (${fmtLatency(l.exposedDelayMs)} or more over 1% of the time); CPU ${(100 * l.cpuCores).toFixed(0)}% of one core, busiest second ${(100 * l.maxCpuCores).toFixed(0)}%${clientNumbers(l)}: ${RUNNER_ROLE_WORDS[runnerLoadOf(summary).role]}${l.rule ? "" : " (as stored, by the earlier rule)"}`,
    ]);
  const local = summary.manifest.targetOnRunnerMachine;
  if (local !== undefined)
    rows.push([
      "target",
      local
        ? `on the runner's own machine (${summary.manifest.serverAddress ?? "Unix socket"}): runner and Postgres share its ${summary.manifest.runnerCores} cores, and each one's load slows the other`
        : `another machine (${summary.manifest.serverAddress})`,
    ]);
  const c = summary.manifest.cluster;
  if (c) rows.push(["replicated target", clusterWords(c)]);
  return rows;
}

/** The embedded replicated target a run ran on: where, its nodes, its synchronous_standby_names and the delay asked and measured. */
function clusterWords(c: ClusterShape): string {
  const d = c.delay;
  const delay = d
    ? `; a relay adds ${d.askedMs} ms each way (measured ${d.addedOneWayMs} ms: round trip ${d.measuredRoundTripMs} ms against ${d.directRoundTripMs} ms straight)`
    : "; no delay between the nodes";
  return `${c.where}: primary ${c.primary}, standbys ${c.standbys.join(", ")}; synchronous_standby_names '${c.synchronousStandbyNames}'${delay}`;
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

/**
 * The verdict the page leads with: the telemetry's (its statement, the runner's load as a caution inside it), or,
 * for a run without telemetry, the runner's load alone by the same rule (runnerLoadOf): client-bound only when the
 * runner was the limit, otherwise a caution on the latencies. Never a second banner beside it.
 */
export function Headline({ summary }: { summary: RunSummary }) {
  if (summary.telemetry) return <RunVerdict telemetry={summary.telemetry} />;
  const runner = runnerLoadOf(summary);
  return (
    <section className="panel stack" aria-labelledby="verdict-heading" data-testid="verdict">
      <h2 id="verdict-heading" className="chart-title">
        Why this number
      </h2>
      {runner.role === "limit" ? (
        <p data-testid="verdict-statement">
          <strong data-testid="verdict-category">client-bound (the runner)</strong>: {runner.text!.replace(/^client-bound:\s*/, "")}
        </p>
      ) : (
        <p data-testid="verdict-statement" className="muted">
          <strong data-testid="verdict-category">no verdict</strong>: this run recorded no server telemetry, so only the runner&rsquo;s own numbers were judged
        </p>
      )}
      {runner.role === "caution" && (
        <p className="small" data-testid="verdict-caution">
          Caution: {runner.text}.
        </p>
      )}
    </section>
  );
}

/** Each latency's full histogram to download, in HdrHistogram's formats (lib/measurement/hdr-export.ts): the figures
 *  above are read from them. */
function HistogramDownloads({ runId, summary }: { runId: string; summary: RunSummary }) {
  const refs = histogramsOf(summary);
  if (!refs.length) return null;
  return (
    <details className="small" data-testid="histogram-downloads">
      <summary>Full histograms (HdrHistogram formats)</summary>
      <p className="hint">
        The merged histogram of the measured window behind each row: <code>.hlog</code> is HdrHistogram&rsquo;s interval log (values in µs), <code>.hgrm</code>{" "}
        its percentile distribution (values in ms).
      </p>
      <ul className="plain">
        {refs.map((h) => (
          <li key={h.name}>
            <code>{h.name}</code>
            {HISTOGRAM_FORMATS.map((f) => (
              <span key={f}>
                {" "}
                <a href={`/api/runs/${runId}/histograms/${h.name}.${f}`} download aria-label={`${h.name} histogram, .${f}`}>
                  .{f}
                </a>
              </span>
            ))}
          </li>
        ))}
      </ul>
    </details>
  );
}

export function RunResult({ summary, runId }: { summary: RunSummary; runId?: string }) {
  // The runner's load is in the verdict, above: not again among the notes.
  const notes = (summary.notes ?? []).filter((n) => !isRunnerLoadNote(n));
  return (
    <div className="stack" data-testid="run-result">
      <Headline summary={summary} />
      <Kpis summary={summary} />
      <VerificationPanel v={summary.verification} keepUp={keepUpOf(summary)} />
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
        {runId && <HistogramDownloads runId={runId} summary={summary} />}
        <GroupTable summary={summary} />
      </section>
      <ProcessesTable summary={summary} />
    </div>
  );
}
