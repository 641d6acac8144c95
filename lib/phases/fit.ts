// Whether a run's phases fit its config: each inside the run's load (warm-up and measured window), the run in one
// runner process, and a pause only where the workload has workers to pause. Browser-safe: parseConfig
// (lib/workloads/config.ts) asks it, so the form, the API and the CLI refuse the same configs in the same words.
// A phase that takes a connection from under the loops (kill-backend) only where the workload reconnects and settles
// what was in flight (its definition's `reconnects`); one that restarts the target not where the workload says it
// does not survive that (`restartRefused`). Whether the target may be restarted is checked at launch
// (runner/phases/restart-check.ts).
import type { WorkloadDefinition } from "../../workloads/types";
import { OUTAGE_KINDS, phaseOutsideRun, phasesOf, phaseText, RECONNECT_KINDS } from "./shape";

interface RunShape {
  phases?: string;
  warmupSeconds: number;
  durationSeconds: number;
  processes?: number;
}

/** What makes the config's phases impossible to carry out, or null (none, or all fit). */
export function phasesProblem(config: RunShape, def: Pick<WorkloadDefinition, "title" | "pausable" | "reconnects" | "restartRefused">): string | null {
  const phases = phasesOf(config);
  if (!phases.length) return null;
  if ((config.processes ?? 1) > 1) return "a run with phases runs in one runner process: set processes to 1, or leave the phases out";
  const runSec = config.warmupSeconds + config.durationSeconds;
  for (const p of phases) {
    const outside = phaseOutsideRun(p, runSec);
    if (outside) return outside;
    if (p.kind === "pause-workers" && !def.pausable)
      return `${phaseText(p)}: a ${def.title} run has no workers a phase can pause; use another kind, or a workload with consumers (queue, pub/sub, a queue library)`;
    if (RECONNECT_KINDS.includes(p.kind) && !def.reconnects)
      return `${phaseText(p)}: a ${def.title} run does not yet reconnect and settle the operations in flight when it loses a connection, so it would fail; use another kind, or a workload that reconnects (every built-in workload does)`;
    if (OUTAGE_KINDS.includes(p.kind) && def.restartRefused) return `${phaseText(p)}: ${def.restartRefused}; use kill-backend, or another workload`;
  }
  return null;
}
