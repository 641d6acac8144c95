// How a ceiling was confirmed, in one sentence the CLI and the ceiling page share: the longer run's rate,
// length, achieved rate and the goal's measured value; or why no rate is confirmed. Browser-safe.
import { fmtLatency } from "../runs/numbers";
import { type Slo, sloText } from "./slo";
import type { CeilingStep } from "./step";
import { verdictText } from "./verdict";
import { countWords, perSecond } from "../words";

const n1 = (x: number) => x.toLocaleString("en-US", { maximumFractionDigits: 1 });

/** In the search's paced unit: "confirmed by a 60 s run at 800 msg/s: achieved 799.6 msg/s, e2e p99 41 ms (goal p99<50ms)", or "NOT confirmed: …". */
export function confirmationText(
  steps: readonly CeilingStep[],
  confirmation: CeilingStep | undefined,
  ceiling: number | null,
  slo: Slo,
  unit: string,
): string | null {
  const rate = (x: number) => `${Math.round(x).toLocaleString("en-US")} ${perSecond(unit)}`;
  if (ceiling === null) return null;
  if (confirmation) {
    const measured = slo.map((b) => `${confirmation.goal.label} ${b.percentile} ${fmtLatency(confirmation.goal.stats?.[b.percentile])}`).join(", ");
    return `confirmed by a ${n1(confirmation.measuredSeconds)} s run at ${rate(confirmation.rate)}: achieved ${n1(confirmation.achievedRate)} ${perSecond(unit)}, ${measured} (goal ${sloText(slo)})`;
  }
  const tried = steps.filter((s) => s.confirmation && !s.starved);
  if (tried.length)
    return `NOT confirmed: ${tried.map((s) => `the ${n1(s.measuredSeconds)} s run at ${rate(s.rate)} was ${verdictText(s.verdict)}`).join("; ")}`;
  // Longer runs made but starved each time: they were made, and say nothing of the target.
  const starved = steps.filter((s) => s.confirmation && s.starved);
  if (!starved.length) return "NOT confirmed: no longer run was made (the search stopped first)";
  const last = starved.at(-1)!;
  const times = starved.length > 1 ? ` each of the ${countWords(starved.length, "time")} it was run` : "";
  return `NOT confirmed: the ${n1(last.measuredSeconds)} s run at ${rate(last.rate)} was starved${times} (the runner, not the target, could have decided it), so it says nothing of the target`;
}
