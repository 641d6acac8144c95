"use client";
// A chart of a run over time (./ChartFrame.tsx on the run's own x axis): seconds since the load started, its
// warm-up, drain and lost samples shaded, "t = 3 s" over the tooltip, the legend in the series' order.
import type { ReactNode } from "react";
import type { ChartAria } from "./ChartCard";
import { ChartFrame, type ChartFrameProps } from "./ChartFrame";

/** What every chart of a run shares: its rows (one a sample), its x axis and its shaded spans. */
export interface RunTimeline {
  rows: Record<string, number | null>[];
  xAxis: ReactNode;
  /** The shaded spans; labels only on a wide chart (on the small ones they would cover the lines). */
  shading: (labels: boolean) => ReactNode;
}

const tooltipLabel = (v: unknown) => `t = ${v} s`;

export function TimeFrame({
  timeline,
  aria,
  kind,
  height,
  yAxis,
  value,
  labels = false,
  children,
}: {
  timeline: RunTimeline;
  aria: ChartAria;
  kind?: ChartFrameProps["kind"];
  height: number;
  /** The y axis (or axes), as elements. */
  yAxis: ReactNode;
  /** Each value's words in the tooltip. */
  value?: NonNullable<ChartFrameProps["tooltip"]>["value"];
  labels?: boolean;
  children: ReactNode;
}) {
  return (
    <ChartFrame
      aria={aria}
      kind={kind}
      data={timeline.rows}
      height={height}
      axes={
        <>
          {timeline.xAxis}
          {yAxis}
        </>
      }
      tooltip={{ label: tooltipLabel, value }}
      legendOrder={null}
    >
      {timeline.shading(labels)}
      {children}
    </ChartFrame>
  );
}
