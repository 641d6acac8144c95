"use client";
// The frame every chart of the app draws in (Recharts 3): the container at the panel's width and a given height,
// the same margins, the dashed grid, the caller's axes, the tooltip and the legend. The caller gives what differs
// (its axes, its tooltip's words, its legend's order) and its series as children; every element stays a direct
// child of the Recharts container, where Recharts reads its axes.
import type { ComponentProps, ReactNode } from "react";
import { AreaChart, BarChart, CartesianGrid, ComposedChart, Legend, LineChart, ScatterChart, Tooltip } from "recharts";
import type { ChartAria } from "./ChartCard";

const CHARTS = { line: LineChart, area: AreaChart, bar: BarChart, composed: ComposedChart, scatter: ScatterChart } as const;
const MARGIN = { top: 8, right: 12, bottom: 0, left: 0 };

type TooltipProps = ComponentProps<typeof Tooltip>;
type LegendProps = ComponentProps<typeof Legend>;

export interface ChartFrameProps {
  /** The attributes ChartCard hands its chart (its title and hint). */
  aria: ChartAria;
  kind?: keyof typeof CHARTS;
  /** The rows every series reads, unless a series brings its own data. */
  data?: Record<string, unknown>[];
  height: number;
  /** Room on the right (a second axis, the last tick's label). */
  right?: number;
  /** The x axis and the y axis (or axes), as elements. */
  axes: ReactNode;
  /** The tooltip's heading ("t = 3 s") and each value's words. */
  tooltip?: { label?: TooltipProps["labelFormatter"]; value?: TooltipProps["formatter"] };
  /** The legend's order: null keeps the series' own, a function sorts; absent, Recharts' default. */
  legendOrder?: LegendProps["itemSorter"];
  children: ReactNode;
}

export function ChartFrame({ aria, kind = "line", data, height, right, axes, tooltip, legendOrder, children }: ChartFrameProps) {
  const Chart = CHARTS[kind];
  return (
    <Chart {...(data ? { data } : {})} responsive style={{ width: "100%", height }} margin={right === undefined ? MARGIN : { ...MARGIN, right }} {...aria}>
      <CartesianGrid strokeDasharray="3 3" stroke="#e9ecef" />
      {axes}
      <Tooltip {...(tooltip?.label ? { labelFormatter: tooltip.label } : {})} {...(tooltip?.value ? { formatter: tooltip.value } : {})} />
      <Legend wrapperStyle={{ fontSize: 12 }} {...(legendOrder !== undefined ? { itemSorter: legendOrder } : {})} />
      {children}
    </Chart>
  );
}
