"use client";
// The charts of one run, drawn from its one-second samples: throughput, latency percentiles per metric and
// backlog per consumer group. The x axis is seconds since the load started; the warm-up (excluded from
// the summary) and the drain are shaded so nobody reads them as the measured window.
import { useMemo, useState } from "react";
import { CartesianGrid, Legend, Line, LineChart, ReferenceArea, Tooltip, XAxis, YAxis } from "recharts";
import type { Sample } from "@/lib/sample";
import { fmtMs, fmtRate } from "@/lib/run-format";

const COLORS = ["#2457c5", "#d9480f", "#2b8a3e", "#9c36b5", "#c92a2a", "#0b7285", "#e67700", "#5c7cfa", "#a61e4d", "#495057"];
const PCT = [
  { key: "p50", label: "p50", color: "#2b8a3e" },
  { key: "p95", label: "p95", color: "#2457c5" },
  { key: "p99", label: "p99", color: "#d9480f" },
  { key: "max", label: "max", color: "#868e96" },
] as const;
const LAT_METRICS = [
  { key: "write", label: "Write latency", hint: "per write transaction" },
  { key: "read", label: "Read latency", hint: "per non-empty read" },
  { key: "e2e", label: "End-to-end latency", hint: "written → read, per message" },
] as const;

type Row = Record<string, number | null>;

export interface RunChartsProps {
  samples: Sample[];
  warmupSeconds: number;
  /** Expected length of the load (warm-up + measured), so a live chart fills from left to right. */
  totalSeconds: number;
}

/** Log scales cannot show 0 (or less): such points become gaps rather than breaking the axis. */
const forScale = (v: number | undefined, log: boolean): number | null => (v === undefined ? null : log && v <= 0 ? null : v);

export function RunCharts({ samples, warmupSeconds, totalSeconds }: RunChartsProps) {
  const [unit, setUnit] = useState<"msg" | "mib">("msg");
  const [log, setLog] = useState(false);

  const groups = useMemo(() => [...new Set(samples.flatMap((s) => s.metrics.groups.map((g) => g.group)))], [samples]);
  const rows = useMemo(
    () =>
      samples.map((s): Row => {
        const m = s.metrics;
        const row: Row = {
          t: +m.elapsedSec.toFixed(2),
          writeMsg: m.writes.msgPerSec,
          readMsg: m.reads.msgPerSec,
          writeMiB: m.writes.mibPerSec,
          readMiB: m.reads.mibPerSec,
          backlog: m.backlog,
        };
        for (const { key } of LAT_METRICS) for (const p of PCT) row[`${key}_${p.key}`] = forScale(m.latencyMs[key]?.[p.key], log);
        for (const g of m.groups) row[`g_${g.group}`] = g.backlog;
        return row;
      }),
    [samples, log],
  );
  const last = rows.length ? (rows[rows.length - 1].t ?? 0) : 0;
  const domainMax = Math.max(totalSeconds, Math.ceil(last));
  const drain = samples.filter((s) => s.phase === "draining" || s.phase === "verifying").map((s) => s.metrics.elapsedSec);
  // Labels only on the wide chart: on the small ones they would cover the lines.
  const shading = (labels: boolean) => (
    <>
      {warmupSeconds > 0 && (
        <ReferenceArea x1={0} x2={warmupSeconds} fill="#868e96" fillOpacity={0.14} ifOverflow="hidden" label={labels ? { value: "warm-up", position: "insideTop", fontSize: 11, fill: "#5b6470" } : undefined} />
      )}
      {drain.length > 0 && (
        <ReferenceArea x1={Math.min(...drain) - 1} x2={Math.max(...drain)} fill="#f59f00" fillOpacity={0.12} ifOverflow="hidden" label={labels ? { value: "drain", position: "insideTop", fontSize: 11, fill: "#9a6700" } : undefined} />
      )}
    </>
  );
  const xAxis = (
    <XAxis dataKey="t" type="number" domain={[0, domainMax]} allowDecimals={false} tickFormatter={(v: number) => `${v}s`} fontSize={11} />
  );
  const common = { data: rows, responsive: true, margin: { top: 8, right: 12, bottom: 0, left: 0 } } as const;
  const tooltipLabel = (v: unknown) => `t = ${v} s`;

  return (
    <div className="stack">
      <div className="chart-card panel" data-testid="chart-throughput">
        <div className="spread">
          <h3>Throughput</h3>
          <div className="segmented" role="group" aria-label="Throughput unit">
            <button type="button" aria-pressed={unit === "msg"} onClick={() => setUnit("msg")}>msg/s</button>
            <button type="button" aria-pressed={unit === "mib"} onClick={() => setUnit("mib")}>MiB/s</button>
          </div>
        </div>
        <LineChart {...common} style={{ width: "100%", height: 240 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e9ecef" />
          {xAxis}
          <YAxis fontSize={11} width={64} tickFormatter={(v: number) => (unit === "msg" ? fmtRate(v) : String(+v.toFixed(2)))} />
          <Tooltip labelFormatter={tooltipLabel} formatter={(v) => (unit === "msg" ? `${fmtRate(Number(v))} msg/s` : `${Number(v).toFixed(3)} MiB/s`)} />
          <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={null} />
          {shading(true)}
          <Line type="linear" dataKey={unit === "msg" ? "writeMsg" : "writeMiB"} name="write" stroke="#2457c5" dot={false} isAnimationActive={false} strokeWidth={2} />
          <Line type="linear" dataKey={unit === "msg" ? "readMsg" : "readMiB"} name="read (all groups)" stroke="#2b8a3e" dot={false} isAnimationActive={false} strokeWidth={2} />
        </LineChart>
      </div>

      <div className="spread">
        <h3 style={{ margin: 0 }}>
          Latency per second (ms) <span className="hint">shaded: warm-up (grey) and drain (amber), both left out of the results</span>
        </h3>
        <label className="row small" style={{ gap: 6 }}>
          <input type="checkbox" checked={log} onChange={(e) => setLog(e.target.checked)} /> log scale
        </label>
      </div>
      <div className="grid grid-3">
        {LAT_METRICS.map((metric) => (
          <div key={metric.key} className="chart-card panel" data-testid={`chart-latency-${metric.key}`}>
            <h3>
              {metric.label} <span className="hint">{metric.hint}</span>
            </h3>
            <LineChart {...common} style={{ width: "100%", height: 200 }}>
              <CartesianGrid strokeDasharray="3 3" stroke="#e9ecef" />
              {xAxis}
              <YAxis
                fontSize={11}
                width={48}
                scale={log ? "log" : "auto"}
                domain={log ? ["auto", "auto"] : [0, "auto"]}
                allowDataOverflow={log}
                tickFormatter={(v: number) => fmtMs(v)}
              />
              <Tooltip labelFormatter={tooltipLabel} formatter={(v) => `${fmtMs(Number(v))} ms`} />
              <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={null} />
              {shading(false)}
              {PCT.map((p) => (
                <Line key={p.key} type="linear" dataKey={`${metric.key}_${p.key}`} name={p.label} stroke={p.color} dot={false} isAnimationActive={false} strokeWidth={p.key === "max" ? 1 : 1.6} connectNulls={false} />
              ))}
            </LineChart>
          </div>
        ))}
      </div>

      <div className="chart-card panel" data-testid="chart-backlog">
        <h3>
          Backlog <span className="hint">messages written but not yet read, per {groups[0] === "queue" ? "queue" : "consumer group"}</span>
        </h3>
        <LineChart {...common} style={{ width: "100%", height: 200 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e9ecef" />
          {xAxis}
          <YAxis fontSize={11} width={64} tickFormatter={(v: number) => fmtRate(v)} />
          <Tooltip labelFormatter={tooltipLabel} formatter={(v) => `${fmtRate(Number(v))} msgs`} />
          <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={null} />
          {shading(false)}
          {groups.map((g, i) => (
            <Line key={g} type="linear" dataKey={`g_${g}`} name={g} stroke={COLORS[i % COLORS.length]} dot={false} isAnimationActive={false} strokeWidth={1.6} />
          ))}
        </LineChart>
      </div>
    </div>
  );
}
