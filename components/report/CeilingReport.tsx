// A ceiling search as one self-contained page (./render.tsx makes it a file): the search page's header, outcome, steps
// with their verdicts, the published figures beside it and the workload's other searches, in the page's own
// components (components/ceiling/CeilingSections.tsx), so every figure is the page's; its two curves drawn as SVG
// (./SvgChart.tsx) from the same steps as components/ceiling/CeilingCharts.tsx: the rate achieved against the rate
// asked (sustained steps on the diagonal), and the goal's latency percentiles against the rate achieved.
import { answerOfView, goalLabelOf, type OtherCeiling } from "@/lib/ceiling/answer";
import { publishedBeside } from "@/lib/ceiling/published";
import { searchUnit } from "@/lib/ceiling/rate";
import { parseSlo, type Slo } from "@/lib/ceiling/slo";
import type { CeilingView } from "@/lib/ceiling/view";
import type { ChartSpec } from "@/lib/report/charts";
import { fmtLatency, fmtMs, fmtRate } from "@/lib/runs/format";
import { perSecond } from "@/lib/words";
import { OtherSearches, PublishedBeside, SearchHeader, SearchOutcome, StepsPanel } from "../ceiling/CeilingSections";
import { SvgChart } from "./SvgChart";

const PCT = [
  { key: "p50", color: "#2b8a3e" },
  { key: "p95", color: "#2457c5" },
  { key: "p99", color: "#d9480f" },
  { key: "max", color: "#868e96" },
] as const;
const none = () => undefined;

/** The search's curves as charts: one point a judged step. */
export function ceilingSpecs(view: CeilingView, slo: Slo, perSec: string, goalLabel: string): ChartSpec[] {
  const steps = [...view.steps].sort((a, b) => a.rate - b.rate);
  if (!steps.length) return [];
  const xs = steps.map((s) => s.rate);
  const top = Math.max(1, ...steps.map((s) => Math.max(s.rate, s.achievedRate)));
  const byAchieved = [...view.steps].sort((a, b) => a.achievedRate - b.achievedRate);
  const label = steps[0].goal.label ?? goalLabel;
  return [
    {
      id: "ceiling-rate",
      title: "Achieved rate against target",
      hint: `${perSec}, one point per step; sustained steps sit on the diagonal`,
      xs,
      xMax: top,
      bands: [],
      xFormat: fmtRate,
      yFormat: fmtRate,
      height: 260,
      series: [
        { name: "sustained", color: "#2b8a3e", width: 0, dots: true, values: steps.map((s) => (s.sustained ? s.achievedRate : null)) },
        { name: "not sustained", color: "#c92a2a", width: 0, dots: true, values: steps.map((s) => (s.sustained ? null : s.achievedRate)) },
        { name: "target (the diagonal)", color: "#adb5bd", dashed: true, width: 1, values: xs },
      ],
    },
    {
      id: "ceiling-latency",
      title: `${label} latency against achieved rate (ms)`,
      hint: "each step's measured window; the goal's limits dashed",
      xs: byAchieved.map((s) => s.achievedRate),
      xMax: Math.max(1, ...byAchieved.map((s) => s.achievedRate)),
      bands: [],
      xFormat: fmtRate,
      yFormat: (v) => fmtMs(v),
      height: 260,
      series: [
        ...PCT.map((p) => ({ name: p.key, color: p.color, dots: true, values: byAchieved.map((s) => s.goal.stats?.[p.key] ?? null) })),
        ...slo.map((b) => ({
          name: `goal ${b.percentile} ${fmtLatency(b.limitMs)}`,
          color: "#c92a2a",
          dashed: true,
          width: 1,
          values: byAchieved.map(() => b.limitMs),
        })),
      ],
    },
  ];
}

export function CeilingReport({ view, others, command }: { view: CeilingView; others: OtherCeiling[]; command: string }) {
  const parsed = parseSlo(view.settings.slo);
  const slo = parsed.ok ? parsed.slo : [];
  const goalLabel = goalLabelOf(view);
  const answer = answerOfView(view);
  const perSec = perSecond(searchUnit(view.workload, view.config));
  return (
    <div className="stack" data-testid="ceiling-report" data-ceiling-id={view.id}>
      <SearchHeader view={view} answer={answer} goalLabel={goalLabel} slo={parsed.ok ? slo : null} perSec={perSec} problem={null} onCancelRequested={none} />
      <SearchOutcome view={view} answer={answer} />
      <section className="stack" aria-label="Charts" data-testid="report-charts">
        {ceilingSpecs(view, slo, perSec, goalLabel).map((s) => (
          <SvgChart key={s.id} spec={s} />
        ))}
      </section>
      <StepsPanel steps={view.steps} goalLabel={goalLabel} perSec={perSec} />
      <PublishedBeside published={publishedBeside(view.workload, view.config as unknown as Record<string, unknown>, answer)} />
      <OtherSearches workload={view.workload} others={others} perSec={perSec} drawn={[]} onDrawn={none} />
      <section className="panel" data-testid="report-command">
        <h2>Repeat it from the command line</h2>
        <pre className="cmd">{command}</pre>
      </section>
    </div>
  );
}
