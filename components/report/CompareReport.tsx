// A comparison as one self-contained page (./render.tsx makes it a file): the compare page's context notes, sustained
// table, results table (with the changes against the baseline it was exported with) and configuration table, in the
// page's own components, so every figure is the page's; its bars drawn as SVG (./SvgBars.tsx) from the same figures
// (rateOf, pctsOf); what each item's numbers mean. The page's controls (baseline radios, the differences toggle) are
// hidden: a file has nothing to send them to.
import { PCT_LABEL, PERCENTILES, pctsOf, rateOf } from "@/lib/compare/comparable";
import type { Comparison } from "@/lib/compare/compare";
import { fmtLat, fmtNum } from "@/lib/compare/format";
import { comparedMetrics } from "@/lib/compare/metrics";
import { ConfigTable } from "../compare/ConfigTable";
import { ContextPanel } from "../compare/ContextPanel";
import { ResultsTable } from "../compare/ResultsTable";
import { SustainedTable } from "../compare/SustainedTable";
import { colorOf, SourceBadge } from "../compare/ui";
import { type BarsSpec, SvgBars } from "./SvgBars";

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
