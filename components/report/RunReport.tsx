// A run as one self-contained page (./render.tsx makes it a file): what the run page shows once the run is final, in
// the same components where they hold no state that matters (the verdict, the headline, verification, latency and
// group tables, processes, phases, manifest: components/run/RunResult.tsx, PhasesPanel.tsx), so every number is the
// page's own; the charts drawn as SVG here (./SvgChart.tsx) from the same series (lib/report/charts.ts); the errors the
// samples carried; the command that reproduces it. No button, no link that leaves the file, no script.
import type { Sample } from "@/lib/measurement/sample";
import { phasesOf } from "@/lib/phases/shape";
import { runChartSpecs } from "@/lib/report/charts";
import { fmtDate, knobsLabel, STATUS_BADGE } from "@/lib/runs/format";
import type { RunView } from "@/lib/runs/view";
import { runTimeOf } from "@/lib/workloads/config";
import { PhasesPanel } from "../run/PhasesPanel";
import { ManifestPanel, RunResult } from "../run/RunResult";
import { SvgChart } from "./SvgChart";

export interface RunReportInput {
  run: RunView;
  /** Every stored sample of the run, in seq order. */
  samples: Sample[];
  /** The reproducing command (lib/runs/cli-command.ts) as the run page shows it; null when the config no longer parses. */
  command: string | null;
  /** What the reader must fill into the command (a masked password, a target not saved). */
  commandNote?: string;
}

/** "2026-11-29 03:25 UTC": a file has no viewer's time zone to follow, so every time says its zone. */
export const utc = (iso: string) => `${fmtDate(iso, "UTC")} UTC`;

export function RunReport({ input }: { input: RunReportInput }) {
  const { run, samples } = input;
  const cfg = run.config;
  const specs = cfg
    ? runChartSpecs({ samples, workload: run.workload, warmupSeconds: cfg.warmupSeconds, loadSeconds: runTimeOf(cfg).load, phases: phasesOf(cfg) })
    : [];
  const errors = samples.flatMap((s) => s.metrics.errors.map((e) => ({ seq: s.seq, t: s.metrics.elapsedSec, e })));
  return (
    <article className="stack" data-testid="run-report" data-run-id={run.id}>
      <section className="panel">
        <h2 style={{ marginBottom: 4 }} data-testid="report-title">
          {run.name ? (
            <>
              {run.name} <span className="small muted">{run.workload} run</span> <span className="mono muted small">{run.id}</span>
            </>
          ) : (
            <>
              {run.workload} run <span className="mono muted">{run.id}</span>
            </>
          )}
        </h2>
        <div className="row small muted">
          <span className={`badge ${STATUS_BADGE[run.status] ?? ""}`} data-testid="report-status">
            {run.status}
          </span>
          <span>{knobsLabel(cfg)}</span>
          <span>
            target <strong>{run.targetLabel}</strong>
          </span>
          <span>created {utc(run.createdAt)}</span>
          {run.finishedAt && <span>finished {utc(run.finishedAt)}</span>}
          {run.source !== "app" && <span className="badge neutral">from {run.source}</span>}
          {run.tags.map((t) => (
            <span key={t} className="badge neutral">
              {t}
            </span>
          ))}
        </div>
        {run.notes && (
          <p className="small" style={{ whiteSpace: "pre-wrap" }} data-testid="report-notes">
            {run.notes}
          </p>
        )}
      </section>
      {(run.status === "failed" || run.status === "interrupted" || run.status === "cancelled") && (
        <div className={`alert ${run.status === "cancelled" ? "warn" : "bad"}`} data-testid="report-error">
          <strong>This run {run.status === "failed" ? "failed" : run.status === "cancelled" ? "was cancelled" : "was interrupted"}.</strong>{" "}
          {run.error ?? "No reason was recorded."}
        </div>
      )}
      {run.summary ? <RunResult summary={run.summary} /> : <p className="muted panel">This run has no summary: it ended before its measured window did.</p>}
      <section className="stack" aria-label="Charts" data-testid="report-charts">
        <h2 className="chart-group-title">
          Over time{" "}
          <span className="hint">one point a second; shaded: warm-up (grey) and drain (amber), both left out of the results; phases in their colours</span>
        </h2>
        {specs.length ? (
          specs.map((s) => <SvgChart key={s.id} spec={s} />)
        ) : (
          <p className="muted panel">
            {cfg || samples.length === 0
              ? "This run recorded no samples."
              : "This run's config was written by an older version: its charts cannot be placed on its timeline."}
          </p>
        )}
      </section>
      {run.summary && <PhasesPanel summary={run.summary} />}
      {errors.length > 0 && (
        <section className="panel" data-testid="report-errors">
          <h2>
            Errors <span className="badge bad">{errors.length}</span>
          </h2>
          <ul className="plain">
            {errors.map((e, i) => (
              <li key={`${e.seq}-${i}`}>
                <span className="mono muted">t={e.t.toFixed(0)}s</span> {e.e}
              </li>
            ))}
          </ul>
        </section>
      )}
      {run.summary && <ManifestPanel summary={run.summary} />}
      {input.command && (
        <section className="panel" data-testid="report-command">
          <h2>Reproduce from a terminal</h2>
          <pre className="cmd">{input.command}</pre>
          {input.commandNote && <p className="hint">{input.commandNote}</p>}
        </section>
      )}
    </article>
  );
}
