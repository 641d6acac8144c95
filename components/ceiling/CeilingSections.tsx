"use client";
// The sections of a ceiling search's page (./CeilingPage.tsx): its header with the step in progress, its outcome,
// the steps' table with each verdict, the published figures beside it, and the other searches to draw.
import { SetLabels } from "@/components/run/SetLabels";
import Link from "next/link";
import { useState } from "react";
import { refusalText } from "@/lib/api/payloads";
import type { answerOfView, OtherCeiling } from "@/lib/ceiling/answer";
import type { publishedBeside } from "@/lib/ceiling/published";
import { confirmSecondsOf } from "@/lib/ceiling/settings";
import { type Slo, sloText } from "@/lib/ceiling/slo";
import type { CeilingStep, StepProgress } from "@/lib/ceiling/step";
import { CONDITION_LABEL } from "@/lib/ceiling/verdict";
import { type CeilingView, isFinalSearch, searchKnobs } from "@/lib/ceiling/view";
import { measureOf, metricModel, rateOperations, throughputOf } from "@/lib/measurement/operations";
import { fmtLatency, fmtRate } from "@/lib/runs/format";
import { LocalTime } from "@/components/run/LocalTime";

type Answer = ReturnType<typeof answerOfView>;
const capital = (s: string) => s[0].toUpperCase() + s.slice(1);

/** A step's last second in the workload's words: each declared rate in its unit, and the backlog when it has one. */
function sampleWords(workload: string, s: NonNullable<StepProgress["sample"]>): string {
  const model = metricModel(workload);
  const rates = (model ? rateOperations(model) : []).map((o) => `${o.label} ${fmtRate(throughputOf(s, o.name)?.perSecond ?? 0)} ${o.unit}/s`);
  const backlog = model?.backlog ? [`${model.backlog.label.toLowerCase()} ${fmtRate(measureOf(s, "backlog") ?? 0)}`] : [];
  return [...rates, ...backlog].join(", ");
}

/** The search's name, status, knobs and goal; while it runs, the step in progress and the cancel button. */
export function SearchHeader({
  view,
  answer,
  goalLabel,
  slo,
  perSec,
  problem,
  onCancelRequested,
}: {
  view: CeilingView;
  answer: Answer;
  goalLabel: string;
  /** The goal as parsed, or null when the stored text does not parse (then shown as stored). */
  slo: Slo | null;
  perSec: string;
  problem: string | null;
  onCancelRequested: () => void;
}) {
  const final = isFinalSearch(view);
  const p = view.progress;
  return (
    <section className="panel">
      <div className="spread">
        <div>
          <h1 style={{ marginBottom: 4 }}>
            {view.workload} ceiling search <span className="mono muted">{view.id}</span>
          </h1>
          <SetLabels initial={view.labels} endpoint={`/api/ceilings/${view.id}`} what="ceiling search" />
          <div className="row small muted">
            <span className={`badge ${answer.badge}`} data-testid="ceiling-status" data-outcome={answer.kind}>
              <span className="dot" /> {answer.status}
            </span>
            <span>{searchKnobs(view.config)}</span>
            <span>
              target <strong>{view.targetLabel}</strong>
            </span>
            <span>
              created <LocalTime iso={view.createdAt} />
            </span>
          </div>
          <p className="small" style={{ margin: "6px 0 0" }}>
            Goal <strong>{goalLabel}</strong> <span className="mono">{slo ? sloText(slo) : view.settings.slo}</span>; steps of {view.settings.stepSeconds} s
            measured after {view.config.warmupSeconds} s warm-up; from {fmtRate(view.settings.startRate)} {perSec}, at most {fmtRate(view.settings.maxRate)}{" "}
            {perSec}, until the bracket is within {view.settings.precisionPercent}% (at most {view.settings.maxSteps} steps); the rate found is confirmed by a{" "}
            {confirmSecondsOf(view.settings)} s run.
          </p>
        </div>
        {!final && <CancelSearch id={view.id} requested={view.cancelRequested} onRequested={onCancelRequested} />}
      </div>
      {!final && (
        <p className="hint" data-testid="ceiling-progress">
          {p
            ? `${p.confirmation ? "confirmation" : `step ${p.index + 1}`} at ${fmtRate(p.rate)} ${perSec}: ${p.phase}${p.sample ? ` — ${sampleWords(view.workload, p.sample)} in the last second` : ""}`
            : view.status === "queued"
              ? "queued: waiting for the runner (runs and searches run one at a time)"
              : "starting the next step…"}
        </p>
      )}
      {problem && <p className="field-error">{problem}</p>}
    </section>
  );
}

/** Why a search stopped short (failed, interrupted, cancelled), and its answer so far or at the end. */
export function SearchOutcome({ view, answer }: { view: CeilingView; answer: Answer }) {
  return (
    <>
      {view.status === "failed" || view.status === "interrupted" ? (
        <div className="alert bad" role="alert" data-testid="ceiling-error">
          <strong>This search {view.status === "failed" ? "failed" : "was interrupted"}.</strong> {view.error ?? "No reason was recorded."}
        </div>
      ) : view.status === "cancelled" ? (
        <div className="alert warn" data-testid="ceiling-error">
          <strong>Cancelled.</strong> {view.error ?? ""}
        </div>
      ) : null}

      {(view.result || view.steps.length > 0) && (
        <section className="panel" data-testid="ceiling-result" data-outcome={answer.kind}>
          <h2>{view.result ? "Result" : "While it runs"}</h2>
          <p className="status-card" style={{ margin: 0 }}>
            <strong data-testid="ceiling-value">{capital(answer.headline)}.</strong>{" "}
            {answer.above && <span data-testid="ceiling-bracket">{capital(answer.above)}.</span>}
          </p>
          {answer.confirmation && (
            <p data-testid="ceiling-confirmation" data-confirmed={answer.confirmed ? "true" : "false"}>
              <span className={`badge ${answer.confirmed ? "ok" : "warn"}`}>{answer.confirmed ? "confirmed" : "not confirmed"}</span>{" "}
              {answer.confirmation.replace(/^NOT confirmed: /, "")}
            </p>
          )}
          {answer.why && <p data-testid="ceiling-why">{capital(answer.why)}.</p>}
          {answer.stopped && <p className="hint">{answer.stopped}.</p>}
        </section>
      )}
    </>
  );
}

/** Each step's numbers and verdict, and how a step is judged. */
export function StepsPanel({ steps, goalLabel, perSec }: { steps: CeilingStep[]; goalLabel: string; perSec: string }) {
  const hasReads = steps.some((s) => s.readRate !== null);
  const hasBottleneck = steps.some((s) => s.bottleneck);
  return (
    <section className="panel">
      <h2>Steps</h2>
      <div className="table-wrap">
        <table className="data compact" data-testid="ceiling-steps">
          <thead>
            <tr>
              <th scope="col">step</th>
              <th scope="col" className="num">
                target {perSec}
              </th>
              <th scope="col" className="num">
                achieved {perSec}
              </th>
              {hasReads && (
                <th scope="col" className="num">
                  read {perSec}
                </th>
              )}
              <th scope="col" className="num">
                {goalLabel} p50 / p99
              </th>
              <th scope="col" className="num">
                backlog /s
              </th>
              <th scope="col" className="num">
                runner CPU · loop p99
              </th>
              <th scope="col">verdict</th>
              {hasBottleneck && <th scope="col">what limited it (telemetry)</th>}
            </tr>
          </thead>
          <tbody>
            {steps.map((s) => (
              <StepRow key={s.index} s={s} hasReads={hasReads} hasBottleneck={hasBottleneck} />
            ))}
          </tbody>
        </table>
      </div>
      <p className="hint">
        A step is sustained when the achieved rate is within 2% of the target, the backlog does not grow (its slope over the window), readers keep up with the
        fan-out, the goal holds on the latency measured from each item&rsquo;s scheduled time where recorded, the paced writes keep to their timetable, and
        nothing failed. The goal is judged on its percentile&rsquo;s 95% interval: a step whose interval straddles the goal, or with too few samples to bound
        it, runs longer (its histograms merged, up to 4 runs), and one still undecided is not shown to hold. A latency miss the server&rsquo;s telemetry does
        not explain, or below a rate already sustained, is measured again before it counts. A step the runner was starved in (its CPU, or an event-loop stall
        that alone explains the failure) is run again, never charged to the target. The rate found is confirmed by one longer run before it is reported.
      </p>
    </section>
  );
}

function StepRow({ s, hasReads, hasBottleneck }: { s: CeilingStep; hasReads: boolean; hasBottleneck: boolean }) {
  return (
    <tr key={s.index} data-sustained={s.sustained} data-confirmation={s.confirmation === true} data-starved={s.starved === true}>
      <th scope="row">
        {s.confirmation ? `${s.index + 1} (confirm, ${s.measuredSeconds.toFixed(0)} s)` : s.index + 1}
        {s.remeasure && <span className="small"> (measured again)</span>}
        {s.runs && (
          <span className="small">
            {" "}
            ({s.runs} runs, {s.measuredSeconds.toFixed(0)} s merged)
          </span>
        )}
      </th>
      <td className="num">{fmtRate(s.rate)}</td>
      <td className="num">{fmtRate(s.achievedRate)}</td>
      {hasReads && <td className="num">{s.readRate === null ? "–" : fmtRate(s.readRate)}</td>}
      <td className="num">
        {fmtLatency(s.goal.stats?.p50)} / {fmtLatency(s.goal.stats?.p99)}
      </td>
      <td className="num">{fmtRate(s.verdict.backlogSlopePerSec)}</td>
      <td className="num">{s.client ? `${Math.round(s.client.cpuCores * 100)}% · ${fmtLatency(s.client.eventLoopP99Ms)}` : "not measured"}</td>
      <td>
        <StepVerdict s={s} />
      </td>
      {hasBottleneck && <td className="small">{s.bottleneck ? s.bottleneck.statement : "–"}</td>}
    </tr>
  );
}

function StepVerdict({ s }: { s: CeilingStep }) {
  if (s.sustained) return <span className="badge ok">sustained</span>;
  if (s.starved)
    return (
      <>
        <span className="badge warn">starved, run again</span> <span className="small">{s.verdict.starved}</span>
      </>
    );
  if (s.verdict.undecided && !s.verdict.failures.length)
    return (
      <>
        <span className="badge warn">not shown to hold</span> <span className="small">{s.verdict.undecided}</span>
      </>
    );
  return (
    <>
      <span className="badge bad">not sustained</span>{" "}
      <span className="small">
        {s.verdict.failures.map((f) => `${CONDITION_LABEL[f.condition]}: ${f.message}`).join("; ")}
        {s.unexplained && !s.remeasure ? " (the server had headroom: measured again)" : ""}
      </span>
    </>
  );
}

export function PublishedBeside({ published }: { published: ReturnType<typeof publishedBeside> }) {
  return (
    <section className="panel" data-testid="ceiling-published">
      <h2>Beside the published figures</h2>
      {published.length === 0 ? (
        <p className="muted">Nothing was published for this workload.</p>
      ) : (
        <ul>
          {published.map((r) => (
            <li key={r.id}>
              <span className="badge neutral">published</span> {r.sentence}.{" "}
              <span className="hint">
                ({r.server}; throttled to {fmtRate(r.throttle)} msg/s, so a rate it ran at, not its ceiling
                {r.sameShape ? "; same client shape as this search" : "; another client shape"}. <Link href={`/references/${r.id}`}>details</Link>)
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The workload's other searches, each one a tick away from being drawn on the curves. */
export function OtherSearches({
  workload,
  others,
  perSec,
  drawn,
  onDrawn,
}: {
  workload: string;
  others: OtherCeiling[];
  perSec: string;
  drawn: string[];
  onDrawn: (update: (drawn: string[]) => string[]) => void;
}) {
  return (
    <section className="panel" data-testid="ceiling-others">
      <h2>Other ceiling searches of {workload}</h2>
      <p className="hint">Tick one to draw its steps on the curves above, beside this search&rsquo;s (its goal latency&rsquo;s p99 dashed).</p>
      {others.length === 0 ? (
        <p className="muted">None yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="data compact">
            <thead>
              <tr>
                <th scope="col">search</th>
                <th scope="col" className="num">
                  ceiling {perSec}
                </th>
                <th scope="col">goal</th>
                <th scope="col">config</th>
                <th scope="col">target</th>
                <th scope="col">status</th>
                <th scope="col">on the curves</th>
              </tr>
            </thead>
            <tbody>
              {others.map((o) => (
                <tr key={o.id}>
                  <th scope="row">
                    <Link href={`/ceilings/${o.id}`} className="mono">
                      {o.id}
                    </Link>
                  </th>
                  <td className="num">{o.cell}</td>
                  <td className="mono">
                    {o.metric} {o.slo}
                  </td>
                  <td className="small">{searchKnobs(o.config)}</td>
                  <td>{o.targetLabel}</td>
                  <td>
                    <span className={`badge ${o.badge}`}>{o.status}</span>
                  </td>
                  <td>
                    <label className="row small" style={{ gap: 6 }}>
                      <input
                        type="checkbox"
                        checked={drawn.includes(o.id)}
                        disabled={o.points.length === 0}
                        onChange={(e) => onDrawn((d) => (e.target.checked ? [...d, o.id] : d.filter((x) => x !== o.id)))}
                      />
                      draw {o.id}
                    </label>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function CancelSearch({ id, requested, onRequested }: { id: string; requested: boolean; onRequested: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const asked = requested || busy;
  return (
    <span className="row">
      <button
        type="button"
        className="btn danger"
        disabled={asked}
        onClick={async () => {
          setBusy(true);
          setError(null);
          const r = await fetch(`/api/ceilings/${id}/cancel`, { method: "POST" }).catch(() => null);
          if (!r?.ok) {
            setBusy(false);
            setError(r ? await refusalText(r) : "the app did not answer; try again");
            return;
          }
          onRequested();
        }}
      >
        {asked ? "Cancelling…" : "Cancel search"}
      </button>
      {asked && <span className="hint">the step in progress stops within ~2 s; the steps done are kept</span>}
      {error && <span className="field-error">{error}</span>}
    </span>
  );
}
