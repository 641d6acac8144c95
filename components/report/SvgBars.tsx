// Grouped bars of a comparison's exported report (./CompareReport.tsx), drawn as plain SVG like ./SvgChart.tsx: one
// group a category (an operation's rate, a percentile), one bar an item in its colour (components/compare/ui.tsx),
// no bar where the item has no figure (not published, not measured), the value written over each bar.
import { niceTicks } from "./SvgChart";

const W = 760;
const PAD = { left: 70, right: 16, top: 14, bottom: 40 };

export interface BarsSpec {
  id: string;
  title: string;
  hint?: string;
  categories: string[];
  /** One a compared item: its label, colour and a value per category (null: no bar). */
  items: { label: string; color: string; values: (number | null)[] }[];
  yFormat: (v: number) => string;
}

export function SvgBars({ spec }: { spec: BarsSpec }) {
  const H = 240;
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const max = Math.max(0, ...spec.items.flatMap((i) => i.values.filter((v): v is number => v !== null && Number.isFinite(v))));
  const yt = niceTicks(0, max);
  const top = yt[yt.length - 1];
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
  const groupW = plotW / Math.max(1, spec.categories.length);
  const barW = Math.min(48, (groupW * 0.8) / Math.max(1, spec.items.length));
  const titleId = `${spec.id}-title`;
  return (
    <figure className="chart-card panel report-chart" data-testid={`report-chart-${spec.id}`}>
      <h3 className="chart-title" id={titleId}>
        {spec.title} {spec.hint && <span className="hint">{spec.hint}</span>}
      </h3>
      <svg viewBox={`0 0 ${W} ${H}`} width="100%" role="img" aria-labelledby={titleId} fontFamily="system-ui, sans-serif" fontSize="11">
        <title>{spec.title}</title>
        {yt.map((v) => (
          <g key={`y${v}`}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} stroke="#e9ecef" strokeDasharray="3 3" />
            <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" fill="#5b6470">
              {spec.yFormat(v)}
            </text>
          </g>
        ))}
        {spec.categories.map((c, ci) => {
          const x0 = PAD.left + ci * groupW + (groupW - barW * spec.items.length) / 2;
          return (
            <g key={c}>
              {spec.items.map((it, ii) => {
                const v = it.values[ci];
                if (v === null || !Number.isFinite(v)) return null;
                return (
                  <g key={it.label} className="bar" data-item={it.label} data-value={v}>
                    <rect x={x0 + ii * barW + 1} y={y(v)} width={barW - 2} height={Math.max(0, y(0) - y(v))} fill={it.color} />
                    <text x={x0 + ii * barW + barW / 2} y={y(v) - 3} textAnchor="middle" fill="#1b1f24" fontSize="9">
                      {spec.yFormat(v)}
                    </text>
                  </g>
                );
              })}
              <text x={PAD.left + ci * groupW + groupW / 2} y={H - PAD.bottom + 16} textAnchor="middle" fill="#5b6470">
                {c}
              </text>
            </g>
          );
        })}
        <line x1={PAD.left} x2={W - PAD.right} y1={y(0)} y2={y(0)} stroke="#868e96" />
        {spec.items.map((it, i) => (
          <g key={it.label}>
            <rect x={PAD.left + i * 170} y={H - 14} width={14} height={8} fill={it.color} />
            <text x={PAD.left + i * 170 + 18} y={H - 6} fill="#1b1f24">
              {it.label.length > 26 ? `${it.label.slice(0, 25)}…` : it.label}
            </text>
          </g>
        ))}
      </svg>
    </figure>
  );
}
