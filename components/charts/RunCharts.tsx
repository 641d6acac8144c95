"use client";
// The charts of one run, drawn from its one-second samples: throughput, latency percentiles per metric and
// backlog per consumer group. The x axis is seconds since the load started; the warm-up (excluded from
// the summary) and the drain are shaded so nobody reads them as the measured window. Each chart is named by its
// heading and offers its data as a table (ChartCard).
import { type ReactNode, useMemo, useState } from "react";
import { Line, ReferenceArea, XAxis, YAxis } from "recharts";
import { isRateSample, type Sample } from "@/lib/measurement/sample";
import { groupsOf, latencyMetrics, latencyOf, measureOf, metricModel, rateLabel, rateOperations, throughputOf } from "@/lib/measurement/operations";
import { fmtLatency, fmtMs, fmtRate } from "@/lib/runs/format";
import type { TelemetryInfo } from "@/lib/telemetry/shape";
import { TelemetryCharts } from "../telemetry/TelemetryCharts";
import type { Phase } from "@/lib/phases/shape";
import { ChartCard } from "./ChartCard";
import { phaseBands } from "./PhaseBands";
import { type RunTimeline, TimeFrame } from "./TimeFrame";
import { countWords } from "../../lib/words";

const COLORS = ["#2457c5", "#d9480f", "#2b8a3e", "#9c36b5", "#c92a2a", "#0b7285", "#e67700", "#5c7cfa", "#a61e4d", "#495057"];
const PCT = [
  { key: "p50", label: "p50", color: "#2b8a3e" },
  { key: "p95", label: "p95", color: "#2457c5" },
  { key: "p99", label: "p99", color: "#d9480f" },
  { key: "max", label: "max", color: "#868e96" },
] as const;
/** Rate lines: the first operation blue, the second green (as the charts have always drawn write and read). */
const RATE_COLORS = ["#2457c5", "#2b8a3e", "#d9480f", "#9c36b5", "#0b7285"];

type Row = Record<string, number | null>;
type RateOp = ReturnType<typeof rateOperations>[number];
type LatencyChart = ReturnType<typeof latencyMetrics>[number];
type BacklogModel = NonNullable<NonNullable<ReturnType<typeof metricModel>>["backlog"]>;

export interface RunChartsProps {
  samples: Sample[];
  /** The workload's kind: its declared metrics (workloads/<kind>/definition.ts) say which lines and charts to draw. */
  workload: string;
  warmupSeconds: number;
  /** Expected length of the load (warm-up + measured), so a live chart fills from left to right. */
  totalSeconds: number;
  /** What the server telemetry could not see (a finished run's summary); the charts draw whatever samples carry. */
  telemetryInfo?: TelemetryInfo;
  /** The run's phases (its config's, or a finished run's actual spans): shaded on every chart that shares this frame. */
  phases?: Phase[];
}

/** Log scales cannot show 0 (or less): such points become gaps rather than breaking the axis. */
const forScale = (v: number | undefined, log: boolean): number | null => (v === undefined ? null : log && v <= 0 ? null : v);
/** Seconds as the tables show them: the x axis' value to 0.1 s. */
const fmtT = (sec: number) => sec.toFixed(1);
const fmtMiBRate = (v: number) => v.toFixed(3);
const NOT_A_RATE = "–: an interval shorter than a tenth of a second (a phase's last one), too short to be a rate; what it counted is in the totals.";

/** What every chart of the run shares (its rows, x axis and shaded spans), and the samples its tables list. */
interface RunFrame extends RunTimeline {
  samples: Sample[];
  rows: Row[];
}

/** One row per sample: each operation's rate in both units, each charted latency's percentiles, each group's backlog. */
function useRows(samples: Sample[], ops: RateOp[], latCharts: LatencyChart[], log: boolean): Row[] {
  return useMemo(
    () =>
      samples.map((s): Row => {
        const m = s.metrics;
        // A few-millisecond interval is left out of the rate lines (they join its neighbours), not drawn as 0.
        const rate = isRateSample(m);
        const row: Row = {
          t: +m.elapsedSec.toFixed(2),
          backlog: measureOf(m, "backlog") ?? null,
        };
        for (const o of ops) {
          const tp = throughputOf(m, o.name);
          row[`${o.name}Msg`] = rate && tp ? tp.perSecond : null;
          row[`${o.name}MiB`] = rate && tp ? tp.mibPerSec : null;
        }
        for (const { name } of latCharts) for (const p of PCT) row[`${name}_${p.key}`] = forScale(latencyOf(m, name)?.[p.key], log);
        for (const g of groupsOf(m)) row[`g_${g.group}`] = measureOf(g, "backlog") ?? null;
        return row;
      }),
    [samples, log, ops, latCharts],
  );
}

/** The spans the charts shade: samples the runner could not store, the warm-up, the drain. */
function spansOf(samples: Sample[]) {
  // Each sample ends at elapsedSec and lasted intervalSec (measured), so the drain starts where its first sample began.
  const drainSamples = samples.filter((s) => s.phase === "draining" || s.phase === "verifying");
  const drain =
    drainSamples.length > 0
      ? { from: drainSamples[0].metrics.elapsedSec - drainSamples[0].metrics.intervalSec, to: drainSamples[drainSamples.length - 1].metrics.elapsedSec }
      : null;
  // Samples the runner could not store (the control store was unreachable too long, lib/runs/outbox.ts): the
  // seqs jump, and the span they covered is marked, so lines joined across it are not mistaken for data.
  const lostSpans = samples.flatMap((s, i) =>
    i > 0 && s.seq !== samples[i - 1].seq + 1
      ? [{ from: samples[i - 1].metrics.elapsedSec, to: s.metrics.elapsedSec - s.metrics.intervalSec, n: s.seq - samples[i - 1].seq - 1 }]
      : [],
  );
  return { drain, lostSpans };
}

function shadingOf(samples: Sample[], warmupSeconds: number, phases?: Phase[]): (labels: boolean) => ReactNode {
  const { drain, lostSpans } = spansOf(samples);
  const label = (labels: boolean, value: string, fill: string) => (labels ? { value, position: "insideTop" as const, fontSize: 11, fill } : undefined);
  return (labels) => (
    <>
      {phaseBands(phases)}
      {lostSpans.map((g) => (
        <ReferenceArea
          key={`lost-${g.from}`}
          x1={g.from}
          x2={g.to}
          fill="#e03131"
          fillOpacity={0.15}
          ifOverflow="hidden"
          label={label(labels, `${countWords(g.n, "sample")} lost`, "#c92a2a")}
        />
      ))}
      {warmupSeconds > 0 && (
        <ReferenceArea x1={0} x2={warmupSeconds} fill="#868e96" fillOpacity={0.14} ifOverflow="hidden" label={label(labels, "warm-up", "#5b6470")} />
      )}
      {drain && <ReferenceArea x1={drain.from} x2={drain.to} fill="#f59f00" fillOpacity={0.12} ifOverflow="hidden" label={label(labels, "drain", "#9a6700")} />}
    </>
  );
}

export function RunCharts({ samples, workload, warmupSeconds, totalSeconds, telemetryInfo, phases }: RunChartsProps) {
  const [log, setLog] = useState(false);
  const groups = useMemo(() => [...new Set(samples.flatMap((s) => groupsOf(s.metrics).map((g) => g.group)))], [samples]);
  const model = metricModel(workload);
  const ops = useMemo(() => (model ? rateOperations(model).map((o) => ({ ...o, legend: rateLabel(o, groups.length) })) : []), [model, groups.length]);
  const latCharts = useMemo(() => (model ? latencyMetrics(model).filter((l) => l.chart) : []), [model]);
  const rows = useRows(samples, ops, latCharts, log);
  const telemetryPoints = useMemo(
    // A reading over a phase's last few milliseconds is left out, as the rates are (isRateSample).
    () =>
      samples.flatMap((s) =>
        s.metrics.telemetry && isRateSample(s.metrics.telemetry) ? [{ t: s.metrics.elapsedSec, phase: s.phase, telemetry: s.metrics.telemetry }] : [],
      ),
    [samples],
  );
  const last = rows.length ? (rows[rows.length - 1].t ?? 0) : 0;
  const domainMax = Math.max(totalSeconds, Math.ceil(last));
  const xAxis = <XAxis dataKey="t" type="number" domain={[0, domainMax]} allowDecimals={false} tickFormatter={(v: number) => `${v}s`} fontSize={11} />;
  const frame: RunFrame = { samples, rows, xAxis, shading: shadingOf(samples, warmupSeconds, phases) };

  return (
    <div className="stack">
      <ThroughputCard frame={frame} ops={ops} />
      <div className="spread">
        <h2 className="chart-group-title">
          Latency per second (ms) <span className="hint">shaded: warm-up (grey) and drain (amber), both left out of the results</span>
        </h2>
        <label className="row small" style={{ gap: 6 }}>
          <input type="checkbox" checked={log} onChange={(e) => setLog(e.target.checked)} /> log scale
        </label>
      </div>
      <div className="grid grid-3">
        {latCharts.map((metric) => (
          <LatencyCard key={metric.name} frame={frame} metric={metric} log={log} />
        ))}
      </div>
      {model?.backlog && <BacklogCard frame={frame} backlog={model.backlog} groups={groups} />}
      <TelemetryCharts points={telemetryPoints} info={telemetryInfo} xAxis={xAxis} shading={frame.shading} />
    </div>
  );
}

function ThroughputCard({ frame, ops }: { frame: RunFrame; ops: (RateOp & { legend: string })[] }) {
  const [unit, setUnit] = useState<"msg" | "mib">("msg");
  // The items the workload counts, in its own unit ("msg/s", "row/s", "req/s").
  const itemRate = `${ops[0]?.unit ?? "item"}/s`;
  const unitLabel = unit === "msg" ? itemRate : "MiB/s";
  const fmtUnit = (v: number) => (unit === "msg" ? fmtRate(v) : fmtMiBRate(v));
  return (
    <ChartCard
      level={2}
      testId="chart-throughput"
      title="Throughput"
      hint={unitLabel}
      controls={
        <div className="segmented" role="group" aria-label="Throughput unit">
          <button type="button" aria-pressed={unit === "msg"} onClick={() => setUnit("msg")}>
            {itemRate}
          </button>
          <button type="button" aria-pressed={unit === "mib"} onClick={() => setUnit("mib")}>
            MiB/s
          </button>
        </div>
      }
      table={() => ({
        columns: ["t (s)", "phase", "interval (s)", ...ops.map((o) => `${o.legend} ${unitLabel}`)],
        textColumns: 2,
        note: NOT_A_RATE,
        rows: frame.samples.map((s) => {
          const m = s.metrics;
          const rate = isRateSample(m);
          const v = (tp: { perSecond: number; mibPerSec: number } | undefined) => (!rate || !tp ? "–" : fmtUnit(unit === "msg" ? tp.perSecond : tp.mibPerSec));
          return [fmtT(m.elapsedSec), s.phase, m.intervalSec.toFixed(3), ...ops.map((o) => v(throughputOf(m, o.name)))];
        }),
      })}
    >
      {(aria) => (
        <TimeFrame
          timeline={frame}
          aria={aria}
          height={240}
          yAxis={<YAxis fontSize={11} width={64} tickFormatter={(v: number) => (unit === "msg" ? fmtRate(v) : String(+v.toFixed(2)))} />}
          value={(v) => (unit === "msg" ? `${fmtRate(Number(v))} ${itemRate}` : `${Number(v).toFixed(3)} MiB/s`)}
          labels
        >
          {ops.map((o, i) => (
            <Line
              key={o.name}
              type="linear"
              dataKey={`${o.name}${unit === "msg" ? "Msg" : "MiB"}`}
              name={o.legend}
              stroke={RATE_COLORS[i % RATE_COLORS.length]}
              dot={false}
              isAnimationActive={false}
              strokeWidth={2}
              connectNulls
            />
          ))}
        </TimeFrame>
      )}
    </ChartCard>
  );
}

function LatencyCard({ frame, metric, log }: { frame: RunFrame; metric: LatencyChart; log: boolean }) {
  return (
    <ChartCard
      testId={`chart-latency-${metric.name}`}
      title={metric.chart!.title}
      hint={metric.chart!.hint}
      table={() => ({
        columns: ["t (s)", ...PCT.map((p) => p.label)],
        note: "–: no such operation in that second.",
        rows: frame.samples.map((s) => [fmtT(s.metrics.elapsedSec), ...PCT.map((p) => fmtLatency(latencyOf(s.metrics, metric.name)?.[p.key]))]),
      })}
    >
      {(aria) => (
        <TimeFrame
          timeline={frame}
          aria={aria}
          height={200}
          yAxis={
            <YAxis
              fontSize={11}
              width={48}
              scale={log ? "log" : "auto"}
              domain={log ? ["auto", "auto"] : [0, "auto"]}
              allowDataOverflow={log}
              tickFormatter={(v: number) => fmtMs(v)}
            />
          }
          value={(v) => fmtLatency(Number(v))}
        >
          {PCT.map((p) => (
            <Line
              key={p.key}
              type="linear"
              dataKey={`${metric.name}_${p.key}`}
              name={p.label}
              stroke={p.color}
              dot={false}
              isAnimationActive={false}
              strokeWidth={p.key === "max" ? 1 : 1.6}
              connectNulls={false}
            />
          ))}
        </TimeFrame>
      )}
    </ChartCard>
  );
}

function BacklogCard({ frame, backlog, groups }: { frame: RunFrame; backlog: BacklogModel; groups: string[] }) {
  return (
    <ChartCard
      level={2}
      testId="chart-backlog"
      title={backlog.label}
      hint={`${backlog.what}, ${backlog.place}`}
      table={() => ({
        columns: ["t (s)", ...groups.map((g) => `${g} ${backlog.unit}`)],
        rows: frame.samples.map((s) => [
          fmtT(s.metrics.elapsedSec),
          ...groups.map((g) => fmtRate(measureOf(groupsOf(s.metrics).find((x) => x.group === g) ?? {}, "backlog"))),
        ]),
      })}
    >
      {(aria) => (
        <TimeFrame
          timeline={frame}
          aria={aria}
          height={200}
          yAxis={<YAxis fontSize={11} width={64} tickFormatter={(v: number) => fmtRate(v)} />}
          value={(v) => `${fmtRate(Number(v))} ${backlog.unit}`}
        >
          {groups.map((g, i) => (
            <Line
              key={g}
              type="linear"
              dataKey={`g_${g}`}
              name={g}
              stroke={COLORS[i % COLORS.length]}
              dot={false}
              isAnimationActive={false}
              strokeWidth={1.6}
            />
          ))}
        </TimeFrame>
      )}
    </ChartCard>
  );
}
