"use client";
// One run, live or finished. While it runs: phase, progress, charts and the newest numbers, updated by the
// SSE stream every second; errors as they happen; Cancel. Once final: the summary, the whole run's charts,
// the verification, the manifest, the command that reproduces it, downloads, run again, delete.
import { useCallback, useMemo, useState } from "react";
import { RunCharts } from "@/components/charts/RunCharts";
import { toCliCommand } from "@/lib/runs/cli-command";
import type { CliTarget } from "@/lib/targets/default-target";
import { knobsLabel, STATUS_BADGE } from "@/lib/runs/format";
import { runTimeOf } from "@/lib/workloads/config";
import type { RunView } from "@/lib/runs/view";
import type { Sample } from "@/lib/measurement/sample";
import { LiveVerdict } from "@/components/telemetry/VerdictPanel";
import { LiveNumbers } from "./LiveNumbers";
import { LiveProcesses } from "./ProcessesTable";
import { LocalTime } from "./LocalTime";
import { PhaseSteps } from "./PhaseSteps";
import { CancelButton, CliCommand, FinishedActions } from "./RunActions";
import { LabelsEditor } from "./LabelsEditor";
import { RunProgress } from "./RunProgress";
import { ManifestPanel, RunResult } from "./RunResult";
import { PhasesPanel } from "./PhasesPanel";
import { phasesOf } from "@/lib/phases/shape";
import { useRunStream, type RunStatusEvent } from "./useRunStream";

const FINAL = ["completed", "failed", "cancelled", "interrupted"];

/** "Cancelled on request." from the runner's "cancelled on request"; other reasons follow a colon. */
function cancelText(error: string | null): string {
  if (!error) return "Cancelled.";
  return /^cancelled\b/i.test(error) ? `${error[0].toUpperCase()}${error.slice(1)}.` : `Cancelled: ${error}.`;
}

/** Seqs absent between the first and the last sample held (a gap in the chart); empty when continuous. */
function missingSeqs(samples: Sample[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < samples.length && out.length < 50; i++) for (let q = samples[i - 1].seq + 1; q < samples[i].seq && out.length < 50; q++) out.push(q);
  return out;
}

/** The run as it goes: its status and phase from the stream, its samples, and the finished run fetched at the end. */
function useLiveRun(initialRun: RunView, initialSamples: Sample[]) {
  const [run, setRun] = useState(initialRun);
  const [lastPhase, setLastPhase] = useState<string | null>(initialRun.phase !== "done" ? initialRun.phase : null);
  const [waitingForParts, setWaitingForParts] = useState<string | null>(null);
  const onStatus = useCallback((s: RunStatusEvent) => {
    setWaitingForParts(s.waitingForParts ?? null);
    if (s.phase && s.phase !== "done") setLastPhase(s.phase);
    setRun((r) => ({ ...r, ...s, status: s.status as RunView["status"], phase: s.phase as RunView["phase"] }));
  }, []);
  const onEnd = useCallback(async () => {
    // The summary is not on the stream: fetch the finished run once. Retry a few times if the app hiccups.
    for (let i = 0; i < 5; i++) {
      const r = await fetch(`/api/runs/${initialRun.id}`, { cache: "no-store" }).catch(() => null);
      if (r?.ok) {
        setRun((await r.json()) as RunView);
        return;
      }
      await new Promise((res) => setTimeout(res, 1000));
    }
  }, [initialRun.id]);
  const stream = useRunStream(initialRun.id, initialSamples, !FINAL.includes(initialRun.status), { onStatus, onEnd });
  return { run, setRun, lastPhase, waitingForParts, stream };
}

export function RunPage({ initialRun, initialSamples, cliTarget }: { initialRun: RunView; initialSamples: Sample[]; cliTarget: CliTarget }) {
  const { run, setRun, lastPhase, waitingForParts, stream } = useLiveRun(initialRun, initialSamples);
  const final = FINAL.includes(run.status);
  const samples = stream.samples;
  const latest = samples[samples.length - 1];
  const errors = useMemo(() => samples.flatMap((s) => s.metrics.errors.map((e) => ({ seq: s.seq, t: s.metrics.elapsedSec, e }))), [samples]);
  const cfg = run.config;
  const cliTargetUrl = cliTarget.unknownTarget ? `<connection string of ${cliTarget.unknownTarget}>` : cliTarget.targetUrl;
  const command = cfg ? toCliCommand(cfg, cliTargetUrl, cliTarget.env, cliTarget.args) : null;

  return (
    <div className="stack" data-testid="run-page" data-status={run.status} data-run-id={run.id}>
      <RunHead
        run={run}
        lastPhase={lastPhase}
        waitingForParts={waitingForParts}
        stream={stream}
        onCancelRequested={() => setRun((r) => ({ ...r, cancelRequested: true }))}
        onLabels={(l) => setRun((r) => ({ ...r, ...l }))}
      />
      {run.status === "failed" || run.status === "interrupted" ? (
        <div className="alert bad" role="alert" data-testid="run-error">
          <strong>This run {run.status === "failed" ? "failed" : "was interrupted"}.</strong> {run.error ?? "No reason was recorded."}
        </div>
      ) : run.status === "cancelled" ? (
        <div className="alert warn" data-testid="run-error">
          <strong>{cancelText(run.error)}</strong> The load stopped before its end, so there is no summary; the charts show what was measured until then.
        </div>
      ) : null}
      {/* A run whose verification failed is "failed" but has a summary: show it, with the verification loud. */}
      {/* It leads with the one verdict (RunResult's Headline), the runner's load inside it. */}
      {run.summary && <RunResult summary={run.summary} runId={run.id} />}
      {run.status === "completed" && !run.summary && <p className="muted">Loading the summary…</p>}
      {!final && (
        <section className="panel">
          <h2>Now</h2>
          <LiveNumbers sample={latest} workload={run.workload} />
          <LiveProcesses sample={latest} workload={run.workload} />
        </section>
      )}
      {!final && cfg && <LiveVerdict samples={samples} config={cfg} />}
      <section
        aria-label="Charts"
        data-testid="run-stream"
        data-count={samples.length}
        data-first-seq={samples[0]?.seq ?? ""}
        data-last-seq={latest?.seq ?? ""}
        data-dupes={stream.dupes}
        data-missing={missingSeqs(samples).join(",")}
        data-max-lag-ms={stream.maxLagMs === null ? "" : Math.round(stream.maxLagMs)}
      >
        {cfg && samples.length > 0 ? (
          <RunCharts
            samples={samples}
            workload={run.workload}
            warmupSeconds={cfg.warmupSeconds}
            totalSeconds={runTimeOf(cfg).load}
            telemetryInfo={run.summary?.telemetry?.info}
            phases={phasesOf(cfg)}
          />
        ) : (
          <p className="muted panel">{final ? "This run recorded no samples." : "Charts appear with the first sample."}</p>
        )}
      </section>
      {run.summary && <PhasesPanel summary={run.summary} />}
      {(errors.length > 0 || !final) && <RunErrors errors={errors} />}
      {final && run.summary && <ManifestPanel summary={run.summary} />}
      {final && command && <CliCommand command={command} target={cliTarget} />}
      {final && (
        <section className="panel">
          <FinishedActions run={run} />
        </section>
      )}
    </div>
  );
}

/** The run's name, status and knobs, its phases and progress, and while it runs the stream's state and the cancel button. */
function RunHead({
  run,
  lastPhase,
  waitingForParts,
  stream,
  onCancelRequested,
  onLabels,
}: {
  run: RunView;
  lastPhase: string | null;
  waitingForParts: string | null;
  stream: ReturnType<typeof useRunStream>;
  onCancelRequested: () => void;
  onLabels: (l: Pick<RunView, "name" | "notes" | "tags">) => void;
}) {
  const final = FINAL.includes(run.status);
  const cfg = run.config;
  const latest = stream.samples[stream.samples.length - 1];
  return (
    <section className="panel run-head">
      <div className="spread">
        <div>
          {/* A named run leads with its name; its workload and id stay beside it, smaller. */}
          <h1 style={{ marginBottom: 4 }} data-testid="run-title">
            {run.name ? (
              <>
                {run.name} <span className="small muted">{run.workload} run</span> <span className="mono muted small">{run.id}</span>
              </>
            ) : (
              <>
                {run.workload} run <span className="mono muted">{run.id}</span>
              </>
            )}
          </h1>
          <div className="row small muted">
            <span className={`badge ${STATUS_BADGE[run.status] ?? ""}`} data-testid="run-status">
              <span className="dot" /> {run.status}
            </span>
            <span>{knobsLabel(cfg)}</span>
            <span>
              target <strong>{run.targetLabel}</strong>
            </span>
            <span>
              created <LocalTime iso={run.createdAt} />
            </span>
            {run.source !== "app" && <span className="badge neutral">from {run.source}</span>}
          </div>
          <LabelsEditor labels={run} endpoint={`/api/runs/${run.id}`} what="run" onSaved={onLabels} />
        </div>
        {!final && <CancelButton run={run} onRequested={onCancelRequested} />}
      </div>
      <PhaseSteps status={run.status} phase={run.phase} lastPhase={lastPhase} />
      {cfg && (
        <RunProgress
          status={run.status}
          phase={run.phase}
          warmupSeconds={cfg.warmupSeconds}
          durationSeconds={cfg.durationSeconds}
          lastElapsed={latest ? latest.metrics.elapsedSec : null}
          lastArrival={stream.lastArrival}
          waitingForParts={waitingForParts}
        />
      )}
      {!final && (
        <p className="hint" data-testid="stream-state" data-connection={stream.connection}>
          {stream.connection === "live"
            ? "live: a new sample every second"
            : stream.connection === "reconnecting"
              ? "connection lost, reconnecting… (nothing is missed: the stream resumes where it stopped)"
              : "connecting…"}
        </p>
      )}
      {stream.problem && <p className="field-error">{stream.problem}</p>}
    </section>
  );
}

/** The errors the samples carried, each at its second. */
function RunErrors({ errors }: { errors: { seq: number; t: number; e: string }[] }) {
  return (
    <section className="panel" data-testid="run-errors">
      <h2>Errors {errors.length > 0 && <span className="badge bad">{errors.length}</span>}</h2>
      {errors.length === 0 ? (
        <p className="muted small">None so far.</p>
      ) : (
        <ul className="errors">
          {errors.map((e, i) => (
            <li key={`${e.seq}-${i}`}>
              <span className="mono muted">t={e.t.toFixed(0)}s</span> {e.e}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
