"use client";
// Charts of a comparison: throughput bars, latency percentile bars (log scale), latency distribution curves
// (percentile vs latency on a log x axis of 1/(1−q), as HdrHistogram plots; stored runs from their histograms,
// references and imports as their published points), and throughput/latency over time for stored runs.
// Each chart is named by its heading and offers its data as a table (ChartCard).
import type { ReactNode } from "react";
import { Area, Bar, Line, Scatter, XAxis, YAxis } from "recharts";
import { PCT_LABEL, PERCENTILES, pctsOf, rateOf, type Comparable, type Metric, type TimePoint } from "@/lib/compare/comparable";
import { fmtLat, fmtMs, fmtNum } from "@/lib/compare/format";
import { comparedMetrics, metricLabel, rateOps } from "@/lib/compare/metrics";
import type { ViewState } from "@/lib/compare/view-state";
import { type ChartAria, ChartCard } from "@/components/charts/ChartCard";
import { ChartFrame, type ChartFrameProps } from "@/components/charts/ChartFrame";
import { colorOf } from "./ui";

type Pct = ViewState["pct"];

/** Power-of-ten bounds around the positive values, for a log axis that shows every bar/point. */
function logDomain(values: (number | null | undefined)[]): [number, number] {
  const pos = values.filter((v): v is number => typeof v === "number" && v > 0);
  if (!pos.length) return [0.1, 10];
  return [10 ** Math.floor(Math.log10(Math.min(...pos))), 10 ** Math.ceil(Math.log10(Math.max(...pos)) + 1e-9)];
}
const logTicks = ([lo, hi]: [number, number]) => {
  const out: number[] = [];
  for (let v = lo; v <= hi * 1.0001; v *= 10) out.push(+v.toPrecision(3));
  return out;
};
/** The latency axis of every chart here: ms ticks, on a log scale (powers of ten around the values) when asked.
 *  A function returning the element, not a component: Recharts reads its axes from its direct children. */
function msAxis({ log, domain, dataKey }: { log: boolean; domain: [number, number]; dataKey?: string }) {
  return log ? (
    <YAxis
      dataKey={dataKey}
      type="number"
      fontSize={11}
      width={56}
      scale="log"
      domain={domain}
      ticks={logTicks(domain)}
      allowDataOverflow
      tickFormatter={(v: number) => fmtMs(v)}
    />
  ) : (
    <YAxis dataKey={dataKey} type="number" fontSize={11} width={56} tickFormatter={(v: number) => fmtMs(v)} />
  );
}
/** Short legend names: the label without its "Published:"/"Imported:" prefix would hide the source, so keep it. */
const short = (c: Comparable) => (c.label.length > 44 ? `${c.label.slice(0, 42)}…` : c.label);
/** Legend entries in selection order (Recharts sorts them alphabetically by default), then in declared
 *  operation order (write before read). */
const legendOrder = (items: Comparable[]) => {
  const ops = rateOps();
  return (entry: { value?: unknown }) => {
    const v = String(entry.value ?? "");
    const i = items.findIndex((c) => v === short(c) || v.startsWith(`${short(c)} `));
    return (
      i * (ops.length + 1) +
      Math.max(
        0,
        ops.findIndex((o) => v.endsWith(` ${o}`)),
      )
    );
  };
};

/** The compared rates' unit(s) per second, as their workloads declare them: "msg/s", "row/s", or "req/s · row/s". */
const ratesUnit = (rates: { perSec: string }[]) => [...new Set(rates.flatMap((o) => o.perSec.split(" · ")))].join(" · ") || "/s";

/** One bar per compared item in each group of the x axis (an operation's rate, a percentile). */
function ItemBars({
  aria,
  items,
  data,
  yAxis,
  value,
}: {
  aria: ChartAria;
  items: Comparable[];
  data: Record<string, unknown>[];
  yAxis: ReactNode;
  value: NonNullable<ChartFrameProps["tooltip"]>["value"];
}) {
  return (
    <ChartFrame
      aria={aria}
      kind="bar"
      data={data}
      height={260}
      axes={
        <>
          <XAxis dataKey="name" fontSize={12} />
          {yAxis}
        </>
      }
      tooltip={{ value }}
      legendOrder={legendOrder(items)}
    >
      {items.map((c, i) => (
        <Bar key={c.key} dataKey={`i${i}`} name={short(c)} fill={colorOf(i)} isAnimationActive={false} />
      ))}
    </ChartFrame>
  );
}

function ThroughputBars({ items }: { items: Comparable[] }) {
  // One group of bars per declared operation with a rate (pub/sub and queue: write, read).
  const rates = comparedMetrics(items.map((c) => c.workload)).rates;
  const unit = ratesUnit(rates);
  const data = rates.map((o) => ({
    name: `${o.name} ${o.perSec}`,
    ...Object.fromEntries(items.map((c, i) => [`i${i}`, rateOf(c, o.name, "items")])),
  }));
  return (
    <ChartCard
      testId="chart-throughput-bars"
      title="Throughput"
      hint={`${unit}${rates.some((o) => o.name === "read") ? "; pub/sub reads sum all consumer groups" : ""}`}
      table={() => ({
        columns: ["item", ...rates.map((o) => `${o.name} ${o.perSec}`)],
        rows: items.map((c) => [c.label, ...rates.map((o) => fmtNum(rateOf(c, o.name, "items")))]),
        note: "—: not published or not measured.",
      })}
    >
      {(aria) => (
        <ItemBars
          aria={aria}
          items={items}
          data={data}
          yAxis={<YAxis fontSize={11} width={64} tickFormatter={(v: number) => fmtNum(v, 0)} />}
          value={(v) => `${fmtNum(Number(v))} ${unit}`}
        />
      )}
    </ChartCard>
  );
}

function LatencyBars({ items, metric, log }: { items: Comparable[]; metric: Metric; log: boolean }) {
  const data = PERCENTILES.map((p) => ({ name: PCT_LABEL[p], ...Object.fromEntries(items.map((c, i) => [`i${i}`, pctsOf(c, metric)[p]])) }));
  const domain = logDomain(items.flatMap((c) => PERCENTILES.map((p) => pctsOf(c, metric)[p])));
  return (
    <ChartCard
      testId="chart-latency-bars"
      title={`${metricLabel(metric)} latency percentiles`}
      hint={`ms${log ? ", log scale" : ""}; missing bar = not published`}
      table={() => ({
        columns: ["item", ...PERCENTILES.map((p) => PCT_LABEL[p])],
        rows: items.map((c) => [c.label, ...PERCENTILES.map((p) => fmtLat(pctsOf(c, metric)[p]))]),
        note: "—: not published or not measured.",
      })}
    >
      {(aria) => <ItemBars aria={aria} items={items} data={data} yAxis={msAxis({ log, domain })} value={(v) => fmtLat(Number(v))} />}
    </ChartCard>
  );
}

const Q_TICKS = [1, 2, 10, 100, 1000, 10000, 100000, 1000000];
const qLabel = (x: number) => {
  const pct = (1 - 1 / x) * 100;
  return x === 1 ? "0%" : `${+pct.toFixed(4)}%`;
};

function Distribution({ items, metric, log }: { items: Comparable[]; metric: Metric; log: boolean }) {
  const series = items.map((c, i) => ({
    c,
    i,
    curve: (c.distribution[metric] ?? []).map((p) => ({ x: 1 / (1 - p.q), ms: p.ms })),
    points: (c.points[metric] ?? []).map((p) => ({ x: 1 / (1 - p.q), ms: p.ms })),
  }));
  const all = series.flatMap((s) => [...s.curve, ...s.points]);
  if (!all.length)
    return (
      <div className="chart-card panel" data-testid="chart-distribution">
        <h3>{metricLabel(metric)} latency distribution</h3>
        <p className="muted small">No {metricLabel(metric).toLowerCase()} latency in the selection.</p>
      </div>
    );
  const maxX = Math.max(...all.map((p) => p.x));
  // Room to the right of the last point, so p99 dots are not cut by the frame.
  const xDomain: [number, number] = [1, Q_TICKS.find((t) => t > maxX * 1.5) ?? maxX * 2];
  const yDomain = logDomain(all.map((p) => p.ms));
  return (
    <ChartCard
      testId="chart-distribution"
      title={`${metricLabel(metric)} latency distribution`}
      hint="percentile (log of 1/(1−q)) vs ms; lines from stored histograms, dots = published/printed p50, p95, p99"
      table={() => ({
        columns: ["item", "percentile", "latency"],
        rows: series.flatMap((s) => (s.curve.length ? s.curve : s.points).map((p) => [s.c.label, qLabel(p.x), fmtLat(p.ms)])),
      })}
    >
      {(aria) => (
        <ChartFrame
          aria={aria}
          kind="composed"
          height={300}
          right={16}
          axes={
            <>
              <XAxis
                dataKey="x"
                type="number"
                scale="log"
                domain={xDomain}
                ticks={Q_TICKS.filter((t) => t <= xDomain[1])}
                tickFormatter={qLabel}
                allowDataOverflow
                fontSize={11}
              />
              {msAxis({ log, domain: yDomain, dataKey: "ms" })}
            </>
          }
          tooltip={{ label: (x) => `percentile ${qLabel(Number(x))}`, value: (v) => fmtLat(Number(v)) }}
          legendOrder={legendOrder(items)}
        >
          {series.map((s) =>
            s.curve.length ? (
              <Line
                key={`${s.c.key}-l`}
                data={s.curve}
                dataKey="ms"
                name={short(s.c)}
                stroke={colorOf(s.i)}
                dot={false}
                isAnimationActive={false}
                strokeWidth={2}
                type="stepAfter"
              />
            ) : s.points.length ? (
              <Scatter
                key={`${s.c.key}-p`}
                data={s.points}
                dataKey="ms"
                name={short(s.c)}
                fill={colorOf(s.i)}
                isAnimationActive={false}
                shape={s.c.kind === "reference" ? "diamond" : "circle"}
              />
            ) : null,
          )}
        </ChartFrame>
      )}
    </ChartCard>
  );
}

/** A rate in the over-time table: "–" for an interval too short to be one (the chart skips it too). */
const rateCell = (v: number | null) => (v === null ? "–" : fmtNum(v));

function OverTime({ items, metric, pct, log }: { items: Comparable[]; metric: Metric; pct: Pct; log: boolean }) {
  const timed = items.map((c, i) => ({ c, i })).filter((s) => s.c.overTime.length);
  if (!timed.length)
    return (
      <div className="chart-card panel" data-testid="chart-over-time">
        <h3>Over time</h3>
        <p className="muted small" style={{ margin: 0 }}>
          Over-time charts need stored runs (one sample per second) or imported outputs with live lines; published references have none.
        </p>
      </div>
    );
  const latSeries = timed.filter((s) => s.c.overTime.some((p) => p.latency?.[metric]));
  // A long run's points each stand for several seconds (lib/compare/over-time.ts overTimeOf): its rates are drawn
  // with the lowest-to-highest second as a band, and its latencies are each bucket's highest second.
  const bucketed = timed.filter((s) => s.c.overTime.some((p) => p.seconds));
  const bucketHint = bucketed.length
    ? `; ${bucketed.map((s) => short(s.c)).join(", ")}: each point covers up to ${Math.max(...bucketed.flatMap((s) => s.c.overTime.map((p) => p.seconds ?? 1)))} s`
    : "";
  return (
    <div className="grid grid-2">
      <RatesOverTime items={items} timed={timed} bucketed={bucketed} bucketHint={bucketHint} />
      <LatencyOverTime items={items} latSeries={latSeries} metric={metric} pct={pct} log={log} bucketHint={bucketHint} />
    </div>
  );
}

type Timed = { c: Comparable; i: number }[];

/** Each item's declared rates, second by second: the first operation solid, the others dashed, a long run's band. */
function RatesOverTime({ items, timed, bucketed, bucketHint }: { items: Comparable[]; timed: Timed; bucketed: Timed; bucketHint: string }) {
  // One line per compared item and declared rate: the first operation solid, the others dashed.
  const rates = comparedMetrics(items.map((c) => c.workload)).rates;
  const unit = ratesUnit(rates);
  return (
    <ChartCard
      testId="chart-over-time"
      title="Throughput over time"
      hint={`${unit}; ${rates.map((o, i) => `${i === 0 ? "solid" : "dashed"} = ${o.name}`).join(", ")}; x = seconds since load start (warm-up included)${bucketHint ? `${bucketHint}, its band the slowest to fastest second` : ""}`}
      table={() => ({
        columns: [
          "item",
          "t (s)",
          ...(bucketed.length ? ["seconds"] : []),
          ...rates.flatMap((o) => [`${o.name} ${o.perSec}`, ...(bucketed.length ? [`${o.name} min–max`] : [])]),
        ],
        note: `–: an interval shorter than a tenth of a second (a phase's last one), too short to be a rate.${bucketed.length ? " A point covering several seconds shows their time-weighted rate and the slowest and fastest of them." : ""}`,
        rows: timed.flatMap((s) =>
          s.c.overTime.map((p) => [
            s.c.label,
            p.t,
            ...(bucketed.length ? [p.seconds ?? 1] : []),
            ...rates.flatMap((o) => {
              const r = p.rateRange?.[o.name];
              return [rateCell(p.rates[o.name] ?? null), ...(bucketed.length ? [r ? `${fmtNum(r.min)}–${fmtNum(r.max)}` : "–"] : [])];
            }),
          ]),
        ),
      })}
    >
      {(aria) => (
        <ChartFrame
          aria={aria}
          kind="composed"
          height={260}
          axes={
            <>
              <XAxis dataKey="t" type="number" domain={[0, "dataMax"]} fontSize={11} tickFormatter={(v: number) => `${v}s`} allowDuplicatedCategory={false} />
              <YAxis fontSize={11} width={64} tickFormatter={(v: number) => fmtNum(v, 0)} />
            </>
          }
          tooltip={{
            label: (v) => `t = ${v} s`,
            value: (v) => (Array.isArray(v) ? `${fmtNum(Number(v[0]))}–${fmtNum(Number(v[1]))} ${unit}` : `${fmtNum(Number(v))} ${unit}`),
          }}
          legendOrder={legendOrder(items)}
        >
          {bucketed.flatMap((s) =>
            rates.map((o) => (
              <Area
                key={`${s.c.key}-${o.name}-range`}
                data={s.c.overTime}
                dataKey={(p: TimePoint) => (p.rateRange?.[o.name] ? [p.rateRange[o.name].min, p.rateRange[o.name].max] : null)}
                name={`${short(s.c)} ${o.name} min–max`}
                legendType="none"
                stroke="none"
                fill={colorOf(s.i)}
                fillOpacity={0.15}
                isAnimationActive={false}
                connectNulls
              />
            )),
          )}
          {timed.flatMap((s) =>
            // connectNulls: a too-short interval (null rate) is skipped and its neighbours joined, never drawn as 0.
            rates.map((o, i) => (
              <Line
                key={`${s.c.key}-${o.name}`}
                data={s.c.overTime}
                dataKey={(p: TimePoint) => p.rates[o.name] ?? null}
                name={`${short(s.c)} ${o.name}`}
                stroke={colorOf(s.i)}
                strokeDasharray={i === 0 ? undefined : "5 3"}
                dot={false}
                isAnimationActive={false}
                strokeWidth={i === 0 ? 1.8 : 1.4}
                connectNulls
              />
            )),
          )}
        </ChartFrame>
      )}
    </ChartCard>
  );
}

/** Each stored run's percentile of one metric, second by second. */
function LatencyOverTime({
  items,
  latSeries,
  metric,
  pct,
  log,
  bucketHint,
}: {
  items: Comparable[];
  latSeries: Timed;
  metric: Metric;
  pct: Pct;
  log: boolean;
  bucketHint: string;
}) {
  const yDomain = logDomain(latSeries.flatMap((s) => s.c.overTime.map((p) => p.latency?.[metric]?.[pct] ?? null)));
  return (
    <ChartCard
      testId="chart-latency-over-time"
      title={`${metricLabel(metric)} ${PCT_LABEL[pct]} over time`}
      hint={`ms per second of stored runs${log ? ", log scale" : ""}${bucketHint ? `${bucketHint}, its highest second` : ""}`}
      table={() => ({
        columns: ["item", "t (s)", PCT_LABEL[pct]],
        note: "—: no such operation in that second.",
        rows: latSeries.flatMap((s) => s.c.overTime.map((p) => [s.c.label, p.t, fmtLat(p.latency?.[metric]?.[pct])])),
      })}
    >
      {(aria) =>
        latSeries.length ? (
          <ChartFrame
            aria={aria}
            kind="line"
            height={260}
            axes={
              <>
                <XAxis dataKey="t" type="number" domain={[0, "dataMax"]} fontSize={11} tickFormatter={(v: number) => `${v}s`} allowDuplicatedCategory={false} />
                {msAxis({ log, domain: yDomain })}
              </>
            }
            tooltip={{ label: (v) => `t = ${v} s`, value: (v) => fmtLat(Number(v)) }}
            legendOrder={legendOrder(items)}
          >
            {latSeries.map((s) => (
              <Line
                key={s.c.key}
                data={s.c.overTime.map((p) => ({ t: p.t, v: p.latency?.[metric]?.[pct] ?? null }))}
                dataKey="v"
                name={short(s.c)}
                stroke={colorOf(s.i)}
                dot={false}
                isAnimationActive={false}
                strokeWidth={1.8}
                connectNulls={false}
              />
            ))}
          </ChartFrame>
        ) : (
          <p className="muted small">Per-second latencies exist for stored runs only.</p>
        )
      }
    </ChartCard>
  );
}

export function CompareCharts({
  items,
  view,
  onChange,
}: {
  items: Comparable[];
  view: Pick<ViewState, "metric" | "pct" | "log">;
  onChange: (v: Partial<ViewState>) => void;
}) {
  return (
    <section className="stack" aria-labelledby="charts-h">
      <div className="spread">
        <h2 id="charts-h" style={{ margin: 0 }}>
          Charts
        </h2>
        <div className="row chart-controls">
          <div className="segmented" role="group" aria-label="Latency metric">
            {comparedMetrics(items.map((c) => c.workload)).latencies.map(({ name: m, label }) => (
              <button key={m} type="button" aria-pressed={view.metric === m} onClick={() => onChange({ metric: m })}>
                {label}
              </button>
            ))}
          </div>
          <div className="segmented" role="group" aria-label="Percentile over time">
            {(["p50", "p95", "p99", "max"] as const).map((p) => (
              <button key={p} type="button" aria-pressed={view.pct === p} onClick={() => onChange({ pct: p })}>
                {PCT_LABEL[p]}
              </button>
            ))}
          </div>
          <label className="row small toggle">
            <input type="checkbox" checked={view.log} onChange={(e) => onChange({ log: e.target.checked })} data-testid="log-toggle" /> log scale
          </label>
        </div>
      </div>
      <div className="grid grid-2">
        <ThroughputBars items={items} />
        <LatencyBars items={items} metric={view.metric} log={view.log} />
      </div>
      <Distribution items={items} metric={view.metric} log={view.log} />
      <OverTime items={items} metric={view.metric} pct={view.pct} log={view.log} />
    </section>
  );
}
