"use client";
// The synchronous commit ladder as charts: each level's latencies (the commit's and the end-to-end's, p50 and p99,
// pooled over its repeats, with the 95 % interval of the repeats' own figures as error bars), and the throughput
// of each level relative to the ladder's base level beside the 2016 ladder's, labelled with its version (its
// figures are another workload's TPS: only how they fall from level to level compares).
import { Bar, ErrorBar, XAxis, YAxis } from "recharts";
import type { ReactNode } from "react";
import { type ChartAria, ChartCard } from "@/components/charts/ChartCard";
import { ChartFrame, type ChartFrameProps } from "@/components/charts/ChartFrame";
import type { LadderStats, LevelFigure } from "@/lib/ladder/stats";
import { fmtLevelFigure } from "@/lib/ladder/text";
import { fmtLatency } from "@/lib/runs/format";

const COLORS = ["#2b8a3e", "#d9480f", "#2457c5", "#9c36b5"];

/** A bar's value and its error bar's [below, above] from the figure's interval (none without one). */
const withError = (f: LevelFigure) => ({
  value: f.pooled,
  error: f.ci && f.pooled !== null ? [Math.max(0, f.pooled - Math.max(0, f.ci.low)), Math.max(0, f.ci.high - f.pooled)] : [0, 0],
});

export function LadderCharts({ stats }: { stats: LadderStats }) {
  const series = stats.measures.flatMap((m) => (["p50", "p99"] as const).map((p) => ({ key: `${m.name}_${p}`, label: `${m.label} ${p}`, measure: m.name, p })));
  const latencyRows = stats.levels.map((l) => {
    const row: Record<string, unknown> = { level: l.level };
    for (const s of series) {
      const lat = l.latencies.find((x) => x.measure.name === s.measure)!;
      const { value, error } = withError(lat[s.p]);
      row[s.key] = value;
      row[`${s.key}_err`] = error;
    }
    return row;
  });
  const ref = stats.reference;
  const relRows = stats.levels.map((l) => ({ level: l.level, ours: l.relative?.ours ?? null, reference: l.relative?.reference ?? null }));
  return (
    <div className="grid grid-2" data-testid="ladder-charts">
      <ChartCard
        testId="chart-ladder-latency"
        title="Latency at each level"
        hint="ms, pooled over the level's repeats (merged histograms); bars: the 95 % interval of the repeats' own figures"
        table={() => ({
          columns: ["level", ...series.map((s) => s.label)],
          rows: stats.levels.map((l) => [l.level, ...series.map((s) => fmtLevelFigure(l.latencies.find((x) => x.measure.name === s.measure)![s.p], "ms"))]),
        })}
      >
        {(aria) => (
          <LevelBars aria={aria} data={latencyRows} yWidth={56} value={(v) => fmtLatency(Number(v))}>
            {series.map((s, i) => (
              <Bar key={s.key} dataKey={s.key} name={s.label} fill={COLORS[i % COLORS.length]} isAnimationActive={false}>
                <ErrorBar dataKey={`${s.key}_err`} width={4} stroke="#343a40" />
              </Bar>
            ))}
          </LevelBars>
        )}
      </ChartCard>
      <ChartCard
        testId="chart-ladder-throughput"
        title={stats.base ? `Throughput relative to ${stats.base}` : "Throughput relative to the first level"}
        hint={`ours in ${stats.rateUnit}, pooled over the repeats; 2016: ${ref.label}, another workload's TPS, so only how they fall from level to level compares`}
        table={() => ({
          columns: ["level", `ours (${stats.rateUnit})`, "ours, relative", "2016 TPS", "2016, relative"],
          rows: stats.levels.map((l) => [
            l.level,
            fmtLevelFigure(l.throughput, "rate"),
            l.relative?.ours?.toFixed(2) ?? "—",
            l.reference ? l.reference.tps.toLocaleString("en-US") : "—",
            l.relative?.reference?.toFixed(2) ?? "—",
          ]),
        })}
      >
        {(aria) => (
          <LevelBars aria={aria} data={relRows} yWidth={40} value={(v) => `×${Number(v).toFixed(2)}`}>
            <Bar dataKey="ours" name={`ours (${stats.workload}, this target)`} fill="#2457c5" isAnimationActive={false} />
            <Bar dataKey="reference" name={`2016: ${ref.label}`} fill="#adb5bd" isAnimationActive={false} />
          </LevelBars>
        )}
      </ChartCard>
    </div>
  );
}

/** Bars per level: the levels along x, the caller's series and its tooltip's words. */
function LevelBars({
  aria,
  data,
  yWidth,
  value,
  children,
}: {
  aria: ChartAria;
  data: Record<string, unknown>[];
  yWidth: number;
  value: NonNullable<ChartFrameProps["tooltip"]>["value"];
  children: ReactNode;
}) {
  return (
    <ChartFrame
      aria={aria}
      kind="bar"
      data={data}
      height={280}
      axes={
        <>
          <XAxis dataKey="level" fontSize={11} />
          <YAxis fontSize={11} width={yWidth} domain={[0, "auto"]} />
        </>
      }
      tooltip={{ value }}
    >
      {children}
    </ChartFrame>
  );
}
