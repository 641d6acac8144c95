"use client";
// A ceiling search's curve, one point per judged step: the rate achieved against the rate asked for (a
// sustained step sits on the diagonal), and the goal's latency percentiles against the rate achieved, with the
// goal's limits drawn. Each chart offers its data as a table (ChartCard).
import { Line, ReferenceLine, Scatter, XAxis, YAxis } from "recharts";
import { ChartCard } from "@/components/charts/ChartCard";
import { ChartFrame } from "@/components/charts/ChartFrame";
import type { Slo } from "@/lib/ceiling/slo";
import type { CeilingStep } from "@/lib/ceiling/step";
import { fmtLatency, fmtRate } from "@/lib/runs/format";
import { perSecond } from "@/lib/words";

const PCT = [
  { key: "p50", color: "#2b8a3e" },
  { key: "p95", color: "#2457c5" },
  { key: "p99", color: "#d9480f" },
  { key: "max", color: "#868e96" },
] as const;

/** The axis' end: the largest value rounded up to a half step of its order of magnitude (80.4 → 85, 1,234 → 1,500). */
function niceTop(v: number): number {
  const unit = 10 ** Math.floor(Math.log10(v));
  return (Math.ceil((v / unit) * 2) / 2) * unit;
}

/** Another search drawn beside this one: its steps' rates and its goal latency's p99. */
export interface CeilingOverlay {
  id: string;
  label: string;
  points: { target: number; achieved: number; p99: number | null }[];
}
const OVERLAY_COLORS = ["#9c36b5", "#0b7285", "#e67700", "#5c7cfa", "#a61e4d"];

/** `unit`: what the search paces, per its workload's declaration ("msg", "row", "req", "workflow"). */
export function CeilingCharts({
  steps,
  slo,
  goalLabel,
  unit,
  overlays = [],
}: {
  steps: CeilingStep[];
  slo: Slo;
  goalLabel: string;
  unit: string;
  overlays?: CeilingOverlay[];
}) {
  const perSec = perSecond(unit);
  const points = steps.map((s) => ({ target: s.rate, achieved: +s.achievedRate.toFixed(1), step: s.index + 1 }));
  const top = niceTop(
    Math.max(1, ...steps.map((s) => Math.max(s.rate, s.achievedRate)), ...overlays.flatMap((o) => o.points.map((p) => Math.max(p.target, p.achieved)))),
  );
  const byAchieved = [...steps].sort((a, b) => a.achievedRate - b.achievedRate);
  const latRows = byAchieved.map((s) => ({
    achieved: +s.achievedRate.toFixed(1),
    ...Object.fromEntries(PCT.map((p) => [p.key, s.goal.stats?.[p.key] ?? null])),
  }));
  const label = steps[0]?.goal.label ?? goalLabel;
  return (
    <div className="grid grid-2" data-testid="ceiling-charts" data-points={steps.length}>
      <ChartCard
        testId="chart-ceiling-rate"
        title="Achieved rate against target"
        hint={`${perSec}, one point per step; sustained steps sit on the diagonal`}
        table={() => ({
          columns: ["step", `target ${perSec}`, `achieved ${perSec}`, "sustained"],
          rows: steps.map((s) => [s.index + 1, fmtRate(s.rate), fmtRate(s.achievedRate), s.sustained ? "yes" : "no"]),
        })}
      >
        {(aria) => (
          <ChartFrame
            aria={aria}
            kind="scatter"
            height={260}
            axes={
              <>
                <XAxis dataKey="target" type="number" name="target" domain={[0, top]} tickFormatter={(v: number) => fmtRate(v)} fontSize={11} />
                <YAxis dataKey="achieved" type="number" name="achieved" domain={[0, top]} tickFormatter={(v: number) => fmtRate(v)} fontSize={11} width={64} />
              </>
            }
            tooltip={{ value: (v) => `${fmtRate(Number(v))} ${perSec}` }}
          >
            <ReferenceLine
              segment={[
                { x: 0, y: 0 },
                { x: top, y: top },
              ]}
              stroke="#adb5bd"
              strokeDasharray="4 4"
              ifOverflow="hidden"
            />
            <Scatter name="sustained" data={points.filter((_, i) => steps[i].sustained)} fill="#2b8a3e" isAnimationActive={false} />
            <Scatter name="not sustained" data={points.filter((_, i) => !steps[i].sustained)} fill="#c92a2a" shape="cross" isAnimationActive={false} />
            {overlays.map((o, i) => (
              <Scatter key={o.id} name={o.label} data={o.points} fill={OVERLAY_COLORS[i % OVERLAY_COLORS.length]} shape="triangle" isAnimationActive={false} />
            ))}
          </ChartFrame>
        )}
      </ChartCard>
      <ChartCard
        testId="chart-ceiling-latency"
        title={`${label} latency against achieved rate`}
        hint="ms, each step's measured window; the goal's limits dashed"
        table={() => ({
          columns: [`achieved ${perSec}`, ...PCT.map((p) => p.key)],
          rows: byAchieved.map((s) => [fmtRate(s.achievedRate), ...PCT.map((p) => fmtLatency(s.goal.stats?.[p.key]))]),
        })}
      >
        {(aria) => (
          <ChartFrame
            aria={aria}
            data={latRows}
            height={260}
            axes={
              <>
                <XAxis dataKey="achieved" type="number" domain={[0, "auto"]} tickFormatter={(v: number) => fmtRate(v)} fontSize={11} />
                <YAxis fontSize={11} width={56} />
              </>
            }
            tooltip={{ label: (v) => `${fmtRate(Number(v))} ${perSec} achieved`, value: (v) => fmtLatency(Number(v)) }}
          >
            {slo.map((b) => (
              <ReferenceLine
                key={b.percentile}
                y={b.limitMs}
                ifOverflow="extendDomain"
                stroke="#c92a2a"
                strokeDasharray="6 3"
                label={{ value: `goal ${b.percentile} ${fmtLatency(b.limitMs)}`, position: "insideTopRight", fontSize: 11, fill: "#c92a2a" }}
              />
            ))}
            {PCT.map((p) => (
              <Line key={p.key} dataKey={p.key} name={p.key} stroke={p.color} isAnimationActive={false} strokeWidth={2} connectNulls />
            ))}
            {overlays.map((o, i) => (
              <Line
                key={o.id}
                data={[...o.points].sort((a, b) => a.achieved - b.achieved)}
                dataKey="p99"
                name={`${o.label} p99`}
                stroke={OVERLAY_COLORS[i % OVERLAY_COLORS.length]}
                strokeDasharray="5 3"
                isAnimationActive={false}
                connectNulls
              />
            ))}
          </ChartFrame>
        )}
      </ChartCard>
    </div>
  );
}
