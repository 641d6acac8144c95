/**
 * A run's phases (lib/phases/shape.ts) as shaded bands on a time-series chart. The charts' x axis is
 * seconds since the run's start (RunCharts' `t`), the unit a phase's startSec and lengthSec are in,
 * so a band sits on the axis as it is. Called as a function, not rendered as a component, so the
 * ReferenceArea elements are the chart's direct children, where Recharts looks for them.
 */
import { ReferenceArea } from "recharts";
import { INSTANT_KINDS, type Phase, type PhaseKind, phaseEnd } from "@/lib/phases/shape";

/** One colour per kind, so the same fault reads the same on every chart. */
export const PHASE_COLOURS: Record<PhaseKind, string> = {
  "hold-xmin": "#f59e0b",
  "long-reader": "#8b5cf6",
  "pause-workers": "#0ea5e9",
  "kill-backend": "#ef4444",
  "restart-target": "#be123c",
};

/** An instant phase (a killed backend) has no length: drawn as a one-second band so it can be seen. */
const bandEnd = (p: Phase): number => (INSTANT_KINDS.includes(p.kind) ? p.startSec + 1 : phaseEnd(p));

/** The bands for `phases`, each labelled with its kind; none when the run has no phases. */
export function phaseBands(phases: readonly Phase[] | undefined) {
  return (phases ?? []).map((p) => (
    <ReferenceArea
      key={`phase-${p.kind}-${p.startSec}`}
      x1={p.startSec}
      x2={bandEnd(p)}
      fill={PHASE_COLOURS[p.kind]}
      fillOpacity={0.15}
      ifOverflow="extendDomain"
      label={{ value: p.kind, position: "insideTop", fontSize: 10 }}
      className="phase-band"
      data-phase={p.kind}
    />
  ));
}
