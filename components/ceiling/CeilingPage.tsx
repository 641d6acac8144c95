"use client";
// One ceiling search, live or finished: the step in progress (read every second while it runs), the curve
// growing one point per judged step, each step's verdict with its numbers, the answer with its bracket and
// why the next step failed; then beside it the published figures and other searches of the workload. Every
// sentence of the answer (its status, the result, the published figures' side) is built on each render from
// the one answer of the steps as they stand (lib/ceiling/answer.ts), so the live page says what a reload would.
import { useEffect, useState } from "react";
import { refusalText } from "@/lib/api/payloads";
import { answerOfView, goalLabelOf, type OtherCeiling } from "@/lib/ceiling/answer";
import { publishedBeside } from "@/lib/ceiling/published";
import { searchUnit } from "@/lib/ceiling/rate";
import { parseSlo } from "@/lib/ceiling/slo";
import { isFinalSearch, type CeilingView } from "@/lib/ceiling/view";
import { perSecond } from "@/lib/words";
import { CeilingCharts } from "./CeilingCharts";
import { OtherSearches, PublishedBeside, SearchHeader, SearchOutcome, StepsPanel } from "./CeilingSections";

const POLL_MS = 1000;

/** The search as it stands: read every second until it is final, with what went wrong reading it. */
function useSearch(initial: CeilingView) {
  const [view, setView] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const final = isFinalSearch(view);
  useEffect(() => {
    if (final) return;
    let stop = false;
    const timer = setInterval(async () => {
      const r = await fetch(`/api/ceilings/${view.id}`, { cache: "no-store" }).catch(() => null);
      if (stop) return;
      if (!r?.ok) {
        setProblem(r ? await refusalText(r) : "the app did not answer; retrying");
        return;
      }
      setProblem(null);
      setView((await r.json()) as CeilingView);
    }, POLL_MS);
    return () => {
      stop = true;
      clearInterval(timer);
    };
  }, [final, view.id]);
  return { view, setView, problem };
}

export function CeilingPage({ initial, others, command }: { initial: CeilingView; others: OtherCeiling[]; command: string }) {
  const { view, setView, problem } = useSearch(initial);
  const [drawn, setDrawn] = useState<string[]>([]);
  const parsedSlo = parseSlo(view.settings.slo);
  const slo = parsedSlo.ok ? parsedSlo.slo : [];
  const goalLabel = goalLabelOf(view);
  const answer = answerOfView(view);
  const published = publishedBeside(view.workload, view.config as unknown as Record<string, unknown>, answer);
  // Every rate in the paced operation's own unit (pacing().unit): an inserts search is in row/s, never msg/s.
  const unit = searchUnit(view.workload, view.config);
  const perSec = perSecond(unit);

  return (
    <div className="stack" data-testid="ceiling-page" data-status={view.status} data-ceiling-id={view.id}>
      <SearchHeader
        view={view}
        answer={answer}
        goalLabel={goalLabel}
        slo={parsedSlo.ok ? slo : null}
        perSec={perSec}
        problem={problem}
        onCancelRequested={() => setView((v) => ({ ...v, cancelRequested: true }))}
      />
      <SearchOutcome view={view} answer={answer} />
      <CeilingCharts
        steps={view.steps}
        slo={slo}
        goalLabel={goalLabel}
        unit={unit}
        overlays={others.filter((o) => drawn.includes(o.id)).map((o) => ({ id: o.id, label: `${o.id} (${o.metric} ${o.slo})`, points: o.points }))}
      />
      <StepsPanel steps={view.steps} goalLabel={goalLabel} perSec={perSec} />
      <PublishedBeside published={published} />
      <OtherSearches workload={view.workload} others={others} perSec={perSec} drawn={drawn} onDrawn={setDrawn} />
      {isFinalSearch(view) && (
        <p className="row">
          {/* One HTML file that opens anywhere, offline: the answer, its curves and every step (components/report/). */}
          <a className="btn" href={`/api/ceilings/${view.id}/report.html`} download data-testid="export-html">
            Export HTML
          </a>
        </p>
      )}
      <section className="panel">
        <h2>Repeat it from the command line</h2>
        <pre className="mono small" style={{ whiteSpace: "pre-wrap" }} data-testid="ceiling-command">
          {command}
        </pre>
      </section>
    </div>
  );
}
