// A run's phases as its window's conclusions must own them: the verdict and the consumers' keep-up line judge the
// whole measured window, which a phase's own fault is part of (a pause makes the consumers fall behind; a held
// snapshot slows every dequeue). So each says which of the run's own phases the window held and for how long, and
// where each phase's own figures are. Browser-safe.
import type { PhaseReport } from "./report";
import { INSTANT_KINDS, type Phase, type PhaseKind, phaseEnd, phasesOf, phaseText } from "./shape";

/** What a kind did to the run, as a clause: "paused the consumers". */
const DID: Record<PhaseKind, string> = {
  "hold-xmin": "held a snapshot open",
  "long-reader": "held a long read",
  "pause-workers": "paused the consumers",
  "kill-backend": "terminated one of its backends",
  "restart-target": "restarted the target",
};

/** One of the run's phases inside its measured window: its text, kind and the seconds of the window it covered. */
export interface PhaseInWindow {
  text: string;
  kind: PhaseKind;
  seconds: number;
  /** An instant kind's (a killed backend): when it acted, in seconds on the run's timeline; it covers no seconds. */
  atSec?: number;
}

/**
 * The config's phases that overlap its measured window (after the warm-up, for its duration), with the overlap. Given
 * the run's phase reports, only the phases that began (one that could not begin, or that the run ended before it was
 * due, did nothing to the window), over the seconds each really lasted (one cut short by the run's end, less).
 */
export function phasesInWindow(
  config: { phases?: string; warmupSeconds: number; durationSeconds: number },
  reports?: readonly Pick<PhaseReport, "phase" | "startedSec" | "endedSec">[],
): PhaseInWindow[] {
  const from = config.warmupSeconds;
  const to = config.warmupSeconds + config.durationSeconds;
  return phasesOf(config).flatMap((p: Phase): PhaseInWindow[] => {
    const report = reports?.find((r) => phaseText(r.phase) === phaseText(p));
    if (reports && report?.startedSec == null) return [];
    const text = phaseText(p);
    if (INSTANT_KINDS.includes(p.kind)) return p.startSec >= from && p.startSec < to ? [{ text, kind: p.kind, seconds: 0, atSec: p.startSec }] : [];
    const start = report?.startedSec ?? p.startSec;
    const end = report?.endedSec ?? phaseEnd(p);
    return end > from && start < to ? [{ text, kind: p.kind, seconds: Math.min(end, to) - Math.max(start, from) }] : [];
  });
}

/** "the run's own phase pause-workers@7s+6s paused the consumers for 6 s of the 12 s window" (and the others). */
export function phasesWords(phases: readonly PhaseInWindow[], windowSec: number): string {
  const each = phases.map((p) =>
    p.atSec !== undefined ? `${p.text} ${DID[p.kind]} at ${p.atSec} s` : `${p.text} ${DID[p.kind]} for ${Math.round(p.seconds)} s`,
  );
  const which = phases.length === 1 ? "phase" : "phases";
  return `the run's own ${which} ${each.join(", ")} of the ${Math.round(windowSec)} s window`;
}

/** The verdict's last clause for a run whose window held its own phases: that its figures include them. */
export const phasesClause = (phases: readonly PhaseInWindow[], windowSec: number): string =>
  `${phasesWords(phases, windowSec)}, and these figures include ${phases.length === 1 ? "it" : "them"}: each phase's before, during and after are in its report`;
