// Where a run is in its life: queued → setup → warm-up → measuring → drain → verifying → done.
import { PHASE_LABEL } from "@/lib/runs/format";

const STEPS = ["queued", "setup", "warmup", "measuring", "draining", "verifying", "done"] as const;

export function PhaseSteps({ status, phase, lastPhase }: { status: string; phase: string | null; lastPhase: string | null }) {
  const final = ["completed", "failed", "cancelled", "interrupted"].includes(status);
  const current = status === "queued" ? "queued" : final ? (status === "completed" ? "done" : (lastPhase ?? "setup")) : (phase ?? "setup");
  const at = STEPS.indexOf(current as (typeof STEPS)[number]);
  return (
    <ol className="steps" aria-label="Run phase" data-testid="phase-steps" data-phase={current}>
      {STEPS.map((s, i) => {
        const state = i < at || (final && status === "completed") ? "done" : i === at ? (final ? "stopped" : "current") : "todo";
        return (
          <li key={s} className={`step ${state}`} aria-current={state === "current" ? "step" : undefined}>
            {s === "queued" ? "queued" : PHASE_LABEL[s]}
          </li>
        );
      })}
    </ol>
  );
}
