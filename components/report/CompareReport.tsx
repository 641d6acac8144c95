// A comparison as one self-contained page (./render.tsx makes it a file): the compare page's context notes, sustained
// table, results table (with the changes against the baseline it was exported with) and configuration table, in the
// page's own components, so every figure is the page's; its bars drawn as SVG (./SvgBars.tsx) from the same figures
// (rateOf, pctsOf); what each item's numbers mean. The page's controls (baseline radios, the differences toggle) are
// hidden: a file has nothing to send them to.
import { PCT_LABEL, PERCENTILES, pctsOf, rateOf, type TimePoint } from "@/lib/compare/comparable";
import type { Comparison } from "@/lib/compare/compare";
import { fmtLat, fmtNum } from "@/lib/compare/format";
import { comparedMetrics } from "@/lib/compare/metrics";
import { ConfigTable } from "../compare/ConfigTable";
import { ContextPanel } from "../compare/ContextPanel";
import { ResultsTable } from "../compare/ResultsTable";
import { SustainedTable } from "../compare/SustainedTable";
import { colorOf, SourceBadge } from "../compare/ui";
import type { ChartSpec } from "@/lib/report/charts";
import { type BarsSpec, SvgBars } from "./SvgBars";
import { SvgChart } from "./SvgChart";

const none = () => undefined;

/** The bars the compare page draws: throughput by declared operation, then each charted latency's percentiles. */
export function compareBars(cmp: Comparison): BarsSpec[] {
  const { items } = cmp;
  const metrics = comparedMetrics(items.map((c) => c.workload));
  const bar = (i: number, values: (number | null)[]) => ({ label: items[i].label, color: colorOf(i), values });
  const out: BarsSpec[] = [
    {
      id: "throughput-bars",
      title: "Throughput",
      hint: metrics.rates.map((o) => `${o.name} ${o.perSec}`).join(", "),
      categories: metrics.rates.map((o) => `${o.name} ${o.perSec}`),
      items: items.map((c, i) =>
        bar(
          i,
          metrics.rates.map((o) => rateOf(c, o.name, "items")),
        ),
      ),
      yFormat: (v) => fmtNum(v, 0),
    },
  ];
  for (const m of metrics.latencies) {
    if (!items.some((c) => PERCENTILES.some((p) => pctsOf(c, m.name)[p] !== null))) continue;
    out.push({
      id: `latency-bars-${m.name}`,
      title: `${m.label} latency percentiles`,
      hint: "ms; missing bar = not published or not measured",
      categories: PERCENTILES.map((p) => PCT_LABEL[p]),
      items: items.map((c, i) =>
        bar(
          i,
          PERCENTILES.map((p) => pctsOf(c, m.name)[p]),
        ),
      ),
      yFormat: (v) => fmtLat(v),
    });
  }
  return out;
}

/**
 * The compare page's over-time charts (components/compare/CompareCharts.tsx OverTime) for the items that have points
 * (stored runs, imports with live lines): each item's declared rates (the first operation solid, the others dashed)
 * and its delivery latency's p99, on seconds since its load started. Items share one axis: each line joins its own
 * points only (a time another item has is a gap in it, joined over).
 */
export function overTimeSpecs(cmp: Comparison): ChartSpec[] {
  const timed = cmp.items.map((c, i) => ({ c, i })).filter((x) => x.c.overTime.length);
  if (!timed.length) return [];
  const xs = [...new Set(timed.flatMap((x) => x.c.overTime.map((p) => p.t)))].sort((a, b) => a - b);
  const at = (x: (typeof timed)[number], f: (p: TimePoint) => number | null | undefined) => {
    // Two points at one rounded time (a phase's last few milliseconds, not a rate): the one with a value is kept.
    const byT = new Map<number, number | null>();
    for (const p of x.c.overTime) if (byT.get(p.t) == null) byT.set(p.t, f(p) ?? null);
    return xs.map((t) => byT.get(t) ?? null);
  };
  const metrics = comparedMetrics(cmp.items.map((c) => c.workload));
  const frame = { xs, xMax: Math.max(1, Math.ceil(xs[xs.length - 1])), bands: [] };
  const out: ChartSpec[] = [
    {
      ...frame,
      id: "over-time-rates",
      title: "Throughput over time",
      hint: `${metrics.rates.map((o, i) => `${i === 0 ? "solid" : "dashed"} = ${o.name} ${o.perSec}`).join(", ")}; x = seconds since load start (warm-up included)`,
      yFormat: (v) => fmtNum(v, 0),
      series: timed.flatMap((x) =>
        metrics.rates.map((o, k) => ({
          name: `${short(x.c.label)} ${o.name}`,
          color: colorOf(x.i),
          connect: true,
          dashed: k > 0,
          values: at(x, (p) => p.rates[o.name]),
        })),
      ),
    },
  ];
  const lat = metrics.latencies.find((m) => timed.some((x) => x.c.overTime.some((p) => p.latency?.[m.name])));
  if (lat)
    out.push({
      ...frame,
      id: "over-time-latency",
      title: `${lat.label} p99 over time (ms)`,
      hint: "each second's p99 (a long run's bucket: its highest second)",
      yFormat: (v) => fmtLat(v),
      series: timed.map((x) => ({ name: short(x.c.label), color: colorOf(x.i), connect: true, values: at(x, (p) => p.latency?.[lat.name]?.p99) })),
    });
  return out;
}

const short = (label: string) => (label.length > 28 ? `${label.slice(0, 27)}…` : label);

export function CompareReport({ cmp }: { cmp: Comparison }) {
  const { items } = cmp;
  return (
    <article className="stack compare-page" data-testid="compare-report" data-keys={items.map((i) => i.key).join(",")}>
      <section className="panel">
        <h2>What is compared</h2>
        <ul className="plain" data-testid="compare-items">
          {items.map((it, i) => (
            <li key={it.key}>
              <span className="swatch" style={{ background: colorOf(i) }} /> <strong>{it.label}</strong> <span className="mono muted">{it.key}</span>{" "}
              <SourceBadge badge={it.badge} />
              {i === cmp.baseline && <span className="badge neutral">baseline</span>}
            </li>
          ))}
        </ul>
      </section>
      <ContextPanel notes={cmp.notes} />
      {cmp.sustained && <SustainedTable table={cmp.sustained} />}
      <ResultsTable cmp={cmp} onBaseline={none} />
      <ConfigTable cmp={cmp} diffOnly={false} onDiffOnly={none} />
      <section className="stack" aria-label="Charts" data-testid="report-charts">
        {compareBars(cmp).map((b) => (
          <SvgBars key={b.id} spec={b} />
        ))}
        {overTimeSpecs(cmp).map((o) => (
          <SvgChart key={o.id} spec={o} />
        ))}
      </section>
      {items.some((i) => i.notes.length) && (
        <section className="panel">
          <h2>What the numbers mean</h2>
          {items.map((it) =>
            it.notes.length ? (
              <div key={it.key} className="item-notes">
                <strong>{it.label}</strong> <SourceBadge badge={it.badge} />
                <ul className="plain small">
                  {it.notes.map((n, j) => (
                    <li key={j}>{n}</li>
                  ))}
                </ul>
              </div>
            ) : null,
          )}
        </section>
      )}
    </article>
  );
}
