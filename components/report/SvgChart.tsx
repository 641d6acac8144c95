// One chart of an exported report (./render.tsx), drawn as plain SVG on the server: no Recharts (its charts fill their
// container and register their series in effects, so rendered to a string they come out empty), no script, no
// stylesheet of its own. What it draws: the run's time axis in seconds, a y axis with rounded ticks in the chart's
// unit, the shaded spans (warm-up, drain, phases, lost samples) labelled, each series a line (or a stacked step area)
// broken where a second has no value, and the legend, all inside the <svg>, so the file shows it with nothing else.
import type { ChartSpec } from "@/lib/report/charts";

const W = 760;
const PAD = { left: 70, right: 16, top: 30, bottom: 28 };
const LEGEND_ROW = 15;

/** Rounded ticks from 0 (or the lowest value when below 0) to at least `max`: steps of 1, 2 or 5 × 10^n. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  const lo = Math.min(0, min);
  const span = max - lo;
  if (!(span > 0)) return [lo, lo + 1];
  const raw = span / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * mag >= raw) ?? 10) * mag;
  const out: number[] = [];
  for (let v = Math.floor(lo / step) * step; v < max + step - 1e-9 * step; v += step) out.push(+v.toPrecision(12));
  return out;
}

/** The x ticks: whole seconds, about eight of them. */
function timeTicks(max: number): number[] {
  return niceTicks(0, max, 8).filter((v) => v <= max);
}

/** The path of one line: a move at each value after a gap, a line to each next one (connect: across gaps). */
function linePath(xs: number[], ys: (number | null)[], x: (v: number) => number, y: (v: number) => number, connect: boolean): string {
  let d = "";
  let pen = false;
  for (let i = 0; i < xs.length; i++) {
    const v = ys[i];
    if (v === null || !Number.isFinite(v)) {
      if (!connect) pen = false;
      continue;
    }
    d += `${pen ? "L" : "M"}${x(xs[i]).toFixed(1)},${y(v).toFixed(1)}`;
    pen = true;
  }
  return d;
}

/** The stacked step areas: each series on top of those before it, one closed shape per run of readings. */
function stackedPaths(spec: ChartSpec, x: (v: number) => number, y: (v: number) => number): string[] {
  const base = spec.xs.map(() => 0);
  return spec.series.map((s) => {
    const tops = spec.xs.map((_, i) => (s.values[i] === null ? null : base[i] + (s.values[i] ?? 0)));
    let d = "";
    let start = -1;
    const close = (end: number) => {
      if (start < 0) return;
      const up = [];
      const down = [];
      for (let i = start; i <= end; i++) {
        const x0 = x(i > 0 ? spec.xs[i - 1] : spec.xs[i]);
        const x1 = x(spec.xs[i]);
        up.push(`${x0.toFixed(1)},${y(tops[i]!).toFixed(1)} ${x1.toFixed(1)},${y(tops[i]!).toFixed(1)}`);
        down.unshift(`${x1.toFixed(1)},${y(base[i]).toFixed(1)} ${x0.toFixed(1)},${y(base[i]).toFixed(1)}`);
      }
      d += `M${up.join(" L")} L${down.join(" L")} Z`;
      start = -1;
    };
    tops.forEach((t, i) => {
      if (t === null) close(i - 1);
      else if (start < 0) start = i;
    });
    close(tops.length - 1);
    tops.forEach((t, i) => {
      if (t !== null) base[i] = t;
    });
    return d;
  });
}

/** The largest value the chart must show (stacked: the highest sum). */
function maxOf(spec: ChartSpec): { min: number; max: number } {
  let min = 0;
  let max = 0;
  if (spec.stacked) {
    spec.xs.forEach((_, i) => {
      max = Math.max(
        max,
        spec.series.reduce((a, s) => a + (s.values[i] ?? 0), 0),
      );
    });
  } else
    for (const s of spec.series)
      for (const v of s.values)
        if (v !== null && Number.isFinite(v)) {
          max = Math.max(max, v);
          min = Math.min(min, v);
        }
  return { min, max };
}

export function SvgChart({ spec }: { spec: ChartSpec }) {
  const legend = legendLayout(spec);
  // Each further row of the legend pushes the plot down, so the chart grows rather than the plot shrinking.
  const top = PAD.top + (legend.rows - 1) * LEGEND_ROW;
  const H = (spec.height ?? 220) + top - PAD.top;
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - top - PAD.bottom;
  const { min, max } = maxOf(spec);
  const yt = niceTicks(min, max);
  const [y0, y1] = [yt[0], yt[yt.length - 1]];
  const x = (v: number) => PAD.left + (Math.min(Math.max(v, 0), spec.xMax) / spec.xMax) * plotW;
  const y = (v: number) => top + plotH - ((v - y0) / (y1 - y0)) * plotH;
  const titleId = `${spec.id}-title`;
  return (
    <figure className="chart-card panel report-chart" data-testid={`report-chart-${spec.id}`}>
      <h3 className="chart-title" id={titleId}>
        {spec.title} {spec.hint && <span className="hint">{spec.hint}</span>}
      </h3>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        width="100%"
        role="img"
        aria-labelledby={titleId}
        fontFamily="system-ui, sans-serif"
        fontSize="11"
        data-series={spec.series.map((s) => s.name).join("|")}
      >
        <title>{spec.title}</title>
        {spec.bands.map((b) => (
          <g key={`${b.label}-${b.from}`} className="band">
            <rect x={x(b.from)} y={top} width={Math.max(1, x(b.to) - x(b.from))} height={plotH} fill={b.fill} fillOpacity={0.15} />
            {b.label && (
              <text x={x(b.from) + 3} y={top + 11} fill={b.text ?? "#5b6470"} fontSize="10">
                {b.label}
              </text>
            )}
          </g>
        ))}
        {yt.map((v) => (
          <g key={`y${v}`}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} stroke="#e9ecef" strokeDasharray="3 3" />
            <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" fill="#5b6470">
              {spec.yFormat(v)}
            </text>
          </g>
        ))}
        {timeTicks(spec.xMax).map((v) => (
          <text key={`x${v}`} x={x(v)} y={H - PAD.bottom + 16} textAnchor="middle" fill="#5b6470">
            {spec.xFormat ? spec.xFormat(v) : `${v}s`}
          </text>
        ))}
        <line x1={PAD.left} x2={W - PAD.right} y1={top + plotH} y2={top + plotH} stroke="#868e96" />
        <line x1={PAD.left} x2={PAD.left} y1={top} y2={top + plotH} stroke="#868e96" />
        {spec.stacked
          ? stackedPaths(spec, x, y).map((d, i) => (
              <path key={spec.series[i].name} d={d} fill={spec.series[i].color} fillOpacity={0.55} stroke={spec.series[i].color} strokeWidth={0.8} />
            ))
          : spec.series.map((s) => (
              <g key={s.name}>
                <path
                  d={s.width === 0 ? "" : linePath(spec.xs, s.values, x, y, !!s.connect)}
                  fill="none"
                  stroke={s.color}
                  strokeWidth={s.width ?? 1.6}
                  strokeLinejoin="round"
                  strokeDasharray={s.dashed ? "6 3" : undefined}
                  data-points={s.values.filter((v) => v !== null).length}
                />
                {s.dots &&
                  s.values.map((v, i) =>
                    v === null ? null : <circle key={`${spec.xs[i]}-${i}`} cx={x(spec.xs[i])} cy={y(v)} r={3.5} fill={s.color} className="dot-point" />,
                  )}
              </g>
            ))}
        {spec.marks?.map((m) => (
          <line key={`m${m}`} x1={x(m)} x2={x(m)} y1={top} y2={top + plotH} stroke="#2b8a3e" strokeDasharray="3 3" />
        ))}
        <Legend layout={legend} />
      </svg>
    </figure>
  );
}

/** The legend's places: a swatch and the series' name each, wrapped onto further rows at the chart's width. */
function legendLayout(spec: ChartSpec): { items: { name: string; color: string; dashed?: boolean; x: number; row: number }[]; rows: number } {
  let at = PAD.left;
  let row = 0;
  const items = spec.series.map((s) => {
    const w = 22 + s.name.length * 6.2;
    if (at > PAD.left && at + w > W - PAD.right) [at, row] = [PAD.left, row + 1];
    const item = { name: s.name, color: s.color, dashed: s.dashed, x: at, row };
    at += w;
    return item;
  });
  return { items, rows: row + 1 };
}

function Legend({ layout }: { layout: ReturnType<typeof legendLayout> }) {
  return (
    <g className="legend">
      {layout.items.map((s) => (
        <g key={s.name}>
          {s.dashed ? (
            <line x1={s.x} x2={s.x + 14} y1={12 + s.row * LEGEND_ROW} y2={12 + s.row * LEGEND_ROW} stroke={s.color} strokeWidth={2} strokeDasharray="4 2" />
          ) : (
            <rect x={s.x} y={8 + s.row * LEGEND_ROW} width={14} height={8} fill={s.color} />
          )}
          <text x={s.x + 18} y={16 + s.row * LEGEND_ROW} fill="#1b1f24">
            {s.name}
          </text>
        </g>
      ))}
    </g>
  );
}
