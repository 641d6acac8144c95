// The result of a completed run, from its summary: headline numbers, the latency table of the measured
// window (percentiles of merged HDR histograms, never averages), the verification and the manifest.
import { LATENCY_METRICS, type LatencyStats } from "@/lib/metrics";
import { fmtDuration, fmtInt, fmtMiB, fmtMs, fmtRate, readRateLabel } from "@/lib/run-format";
import { splitSettings } from "@/lib/server-settings";
import type { RunSummary } from "@/lib/summary";

const METRIC_LABEL: Record<string, string> = {
  write: "write",
  writeScheduled: "write (scheduled)",
  read: "read",
  claim: "claim",
  e2e: "end-to-end",
};
const STATS: { key: keyof LatencyStats; label: string }[] = [
  { key: "p50", label: "p50" },
  { key: "p90", label: "p90" },
  { key: "p95", label: "p95" },
  { key: "p99", label: "p99" },
  { key: "p999", label: "p99.9" },
  { key: "max", label: "max" },
  { key: "mean", label: "mean" },
];

export function Kpis({ summary }: { summary: RunSummary }) {
  const e2e = summary.latencyMs.e2e;
  return (
    <div className="kpi-row" data-testid="headline">
      <div className="kpi panel">
        <span className="k">write</span>
        <span className="v" data-testid="kpi-write">{fmtRate(summary.writes.msgPerSec)}</span>
        <span className="k">msg/s · {fmtMiB(summary.writes.mibPerSec)} MiB/s</span>
      </div>
      <div className="kpi panel">
        <span className="k">{readRateLabel(summary.workload, summary.reads.perGroup.length)}</span>
        <span className="v" data-testid="kpi-read">{fmtRate(summary.reads.msgPerSec)}</span>
        <span className="k">msg/s · {fmtMiB(summary.reads.mibPerSec)} MiB/s</span>
      </div>
      <div className="kpi panel">
        <span className="k">end-to-end p99</span>
        <span className="v">{e2e ? fmtMs(e2e.p99) : "–"}</span>
        <span className="k">ms · p50 {e2e ? fmtMs(e2e.p50) : "–"} ms</span>
      </div>
      <div className="kpi panel">
        <span className="k">verification</span>
        <span className="v">
          <span className={`badge ${summary.verification.ok ? "ok" : "bad"}`} data-testid="kpi-verified">
            {summary.verification.ok ? "passed" : "FAILED"}
          </span>
        </span>
        <span className="k">{fmtInt(summary.verification.checked)} messages checked</span>
      </div>
    </div>
  );
}

export function LatencyTable({ latency, caption }: { latency: RunSummary["latencyMs"]; caption: string }) {
  const rows = LATENCY_METRICS.filter((m) => latency[m]);
  return (
    <div className="table-wrap">
      <table className="data" data-testid="latency-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th>metric</th>
            {STATS.map((s) => (
              <th key={s.key} className="num">{s.label}</th>
            ))}
            <th className="num">count</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((m) => (
            <tr key={m}>
              <th scope="row" className="nowrap" title={m === "writeScheduled" ? "from each write's scheduled start under the throttle (coordinated omission corrected)" : undefined}>
                {METRIC_LABEL[m]}
              </th>
              {STATS.map((s) => (
                <td key={s.key} className="num">{fmtMs(latency[m]![s.key])}</td>
              ))}
              <td className="num">{fmtInt(latency[m]!.count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function VerificationPanel({ v }: { v: RunSummary["verification"] }) {
  const facts = `${fmtInt(v.checked)} messages checked · ${fmtInt(v.lost)} lost · ${fmtInt(v.duplicated)} duplicated · ${fmtInt(v.outOfOrder)} out of order · runner counts ${v.countsMatch ? "match" : "DO NOT match"} the target's rows`;
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

function GroupTable({ summary }: { summary: RunSummary }) {
  if (summary.reads.perGroup.length < 2) return null;
  return (
    <div className="table-wrap">
      <table className="data compact">
        <caption>Per consumer group (measured window)</caption>
        <thead>
          <tr>
            <th>group</th>
            <th className="num">msg/s</th>
            <th className="num">MiB/s</th>
            <th className="num">read p99 ms</th>
            <th className="num">e2e p99 ms</th>
            <th className="num">empty polls</th>
          </tr>
        </thead>
        <tbody>
          {summary.reads.perGroup.map((g) => (
            <tr key={g.group}>
              <th scope="row">{g.group}</th>
              <td className="num">{fmtRate(g.msgPerSec)}</td>
              <td className="num">{fmtMiB(g.mibPerSec)}</td>
              <td className="num">{fmtMs(g.latencyMs.read?.p99)}</td>
              <td className="num">{fmtMs(g.latencyMs.e2e?.p99)}</td>
              <td className="num">{fmtInt(g.emptyPolls)}</td>
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
    ["runner CPU", `${m.runnerCpuSeconds.toFixed(1)} s in the measured window (${m.runnerCpuMsPer1000Msgs.toFixed(2)} ms per 1,000 messages)`],
    ["Node.js", m.nodeVersion],
    ["pg-broker-bench", `${m.productVersion}${m.productCommit ? ` (${m.productCommit.slice(0, 10)})` : ""}`],
    ["measured window", `${fmtDuration(summary.window.measuredSeconds)} (${summary.window.measuredSeconds.toFixed(2)} s) after ${fmtDuration(summary.window.warmupSeconds)} warm-up`],
    ["started / ended", `${m.startedAt} → ${m.endedAt}`],
    ["end-to-end clock", m.e2eClock],
  ];
  if (summary.totals)
    rows.push([
      "whole run",
      `${fmtInt(summary.totals.writes)} written, ${fmtInt(summary.totals.reads)} read, ${fmtInt(summary.totals.unreadAtEnd)} unread at the end, drain ${summary.totals.drainSeconds.toFixed(1)} s`,
    ]);
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
        <p className="muted small" data-testid="settings-performance">Every setting that matters for performance (memory, durability, WAL, checkpoints, I/O, vacuum) is at its default.</p>
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

function SettingsTable({ rows, caption, testId }: { rows: [string, string][]; caption?: string; testId?: string }) {
  return (
    <table className="data compact kv" data-testid={testId}>
      {caption && <caption>{caption}</caption>}
      <tbody>
        {rows.map(([k, v]) => (
          <tr key={k}>
            <th scope="row" className="mono">{k}</th>
            <td className="mono">{v}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function RunResult({ summary }: { summary: RunSummary }) {
  return (
    <div className="stack" data-testid="run-result">
      <Kpis summary={summary} />
      <VerificationPanel v={summary.verification} />
      {summary.notes && summary.notes.length > 0 && (
        <div className="alert warn">
          <ul className="plain">
            {summary.notes.map((n, i) => (
              <li key={i}>{n}</li>
            ))}
          </ul>
        </div>
      )}
      <section className="panel">
        <LatencyTable latency={summary.latencyMs} caption={`Latency over the measured window (ms), ${fmtDuration(summary.window.measuredSeconds)}`} />
        <GroupTable summary={summary} />
      </section>
    </div>
  );
}
