"use client";
// Progress of a running run: elapsed and remaining time of the load (warm-up + measured window), ticking
// between samples from the newest sample's elapsed time and when it arrived.
import { useEffect, useState } from "react";
import { fmtDuration, PHASE_LABEL } from "@/lib/runs/format";
import { runTimeOf } from "@/lib/run-time";

export function RunProgress(props: {
  status: string;
  phase: string | null;
  warmupSeconds: number;
  durationSeconds: number;
  lastElapsed: number | null;
  lastArrival: number | null;
  /** Parts of the run no other runner has taken yet ("waiting for parts 2, 3 of 4…"). */
  waitingForParts?: string | null;
}) {
  const { status, phase, warmupSeconds, durationSeconds, lastElapsed, lastArrival } = props;
  const [now, setNow] = useState(() => Date.now());
  const running = status === "running" || status === "queued";
  useEffect(() => {
    if (!running) return;
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, [running]);

  const total = runTimeOf({ warmupSeconds, durationSeconds }).load;
  const loadDone = phase === "draining" || phase === "verifying" || phase === "done" || !running;
  // Between samples, time runs on from the newest one, but never more than 1.5 s past it (a stalled runner
  // must not look like progress).
  const sinceArrival = lastArrival ? Math.min(1.5, (now - lastArrival) / 1000) : 0;
  const elapsed = lastElapsed === null ? 0 : Math.min(total, lastElapsed + (status === "running" && !loadDone ? sinceArrival : 0));
  const pct = loadDone && status === "completed" ? 100 : total ? (elapsed / total) * 100 : 0;
  const label =
    status === "queued"
      ? "waiting for the runner"
      : status === "running"
        ? phase === "draining" || phase === "verifying"
          ? `${PHASE_LABEL[phase]}…`
          : lastElapsed === null
            ? props.waitingForParts
              ? props.waitingForParts
              : "setting up the target…"
            : `${PHASE_LABEL[phase ?? "measuring"] ?? phase}: ${fmtDuration(elapsed)} elapsed, ${fmtDuration(total - elapsed)} remaining`
        : finishedLabel(status, lastElapsed, total);
  const indeterminate = status === "running" && (lastElapsed === null || phase === "draining" || phase === "verifying");
  return (
    <div className="progress-wrap" data-testid="run-progress">
      <div
        className={`progress${indeterminate ? " indeterminate" : ""}`}
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={Math.round(elapsed)}
        aria-label="Run progress"
      >
        <div className="progress-bar" style={{ width: `${indeterminate ? 100 : pct}%` }} />
        {warmupSeconds > 0 && total > 0 && <div className="progress-warmup" style={{ width: `${(warmupSeconds / total) * 100}%` }} title="warm-up" />}
      </div>
      <div className="spread small">
        <span data-testid="progress-label">{label}</span>
        <span className="muted">
          {fmtDuration(warmupSeconds)} warm-up + {fmtDuration(durationSeconds)} measured
        </span>
      </div>
    </div>
  );
}

/** After the end: how much of the planned load ran, and how long the readers drained the backlog after it. */
function finishedLabel(status: string, lastElapsed: number | null, total: number): string {
  if (lastElapsed === null) return "no load ran";
  // Samples after the planned load belong to the drain (writers stopped, readers catching up).
  const drain = lastElapsed - total;
  if (status === "completed" || drain > -0.5)
    return `${fmtDuration(Math.min(lastElapsed, total))} of load${drain > 0.5 ? `, then ${fmtDuration(drain)} of drain` : ""}`;
  return `stopped after ${fmtDuration(lastElapsed)} of ${fmtDuration(total)} of load`;
}
