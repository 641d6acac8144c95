// A run's phases as its window's conclusions must own them: the verdict and the consumers' keep-up line judge the
// whole measured window, which a phase's own fault is part of (a pause makes the consumers fall behind; a held
// snapshot slows every dequeue). So each says which of the run's own phases the window held and for how long, and
// where each phase's own figures are. Browser-safe.
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

/** The config's phases that overlap its measured window (after the warm-up, for its duration), with the overlap. */
export function phasesInWindow(config: { phases?: string; warmupSeconds: number; durationSeconds: number }): PhaseInWindow[] {
  const from = config.warmupSeconds;
  const to = config.warmupSeconds + config.durationSeconds;
  return phasesOf(config)
    .map((p: Phase): PhaseInWindow & { inside: boolean } =>
      INSTANT_KINDS.includes(p.kind)
        ? { text: phaseText(p), kind: p.kind, seconds: 0, atSec: p.startSec, inside: p.startSec >= from && p.startSec < to }
        : { text: phaseText(p), kind: p.kind, seconds: Math.min(phaseEnd(p), to) - Math.max(p.startSec, from), inside: phaseEnd(p) > from && p.startSec < to },
    )
    .filter((p) => p.inside)
    .map(({ inside: _, ...p }) => p);
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
