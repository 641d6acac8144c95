// What a ceiling search answers, as one object every surface writes from: the page (live and reloaded), its
// list, the other searches beside it, "Beside the published figures", the CLI, the runner's log and
// bench:ceiling's table. Built from the steps and the stored outcome (or, while the search runs, from the steps
// alone), so no surface can say more than the steps show: a rate "sustains" only once a longer run held it, a
// bracket "holds the ceiling" only when its low end is confirmed, and "no higher rate was tried" only when none
// was. Browser-safe.
import { fmtPercent } from "../runs/numbers";
import type { RunStatus } from "../measurement/metrics";
import { countWords, perSecond } from "../words";
import { confirmationText } from "./confirmation";
import { searchUnit } from "./rate";
import { bracketOf, type Bracket, confirmationOf, type SearchResult, type StopReason } from "./search";
import { parseSlo, type Slo, sloText } from "./slo";
import type { CeilingStep, SearchOutcome } from "./step";
import { CONDITION_LABEL } from "./verdict";
import type { CeilingView } from "./view";

/** How a search stands, as its status is shown (badge, list, CLI, log). */
export type AnswerKind =
  | "queued"
  | "running"
  /** A longer run held the rate found, and a higher rate failed: the ceiling lies in the bracket. */
  | "confirmed-ceiling"
  /** A longer run held the rate found; nothing above it was judged to fail (the maximum rate, or the runner). */
  | "confirmed-lower-bound"
  /** A step held the rate, no longer run did: the target held it for a step's length, no more is known. */
  | "unconfirmed-lower-bound"
  /** No rate held (or what held in short steps did not in a longer run). */
  | "none"
  | "cancelled"
  | "failed"
  | "interrupted";

export const ANSWER_LABEL: Record<AnswerKind, string> = {
  queued: "queued",
  running: "running",
  "confirmed-ceiling": "confirmed ceiling",
  "confirmed-lower-bound": "confirmed lower bound",
  "unconfirmed-lower-bound": "unconfirmed lower bound",
  none: "no answer",
  cancelled: "cancelled",
  failed: "failed",
  interrupted: "interrupted",
};

/** The badge's class (lib/runs/format.ts STATUS_BADGE's): green only for a confirmed answer. */
export const ANSWER_BADGE: Record<AnswerKind, string> = {
  queued: "neutral",
  running: "",
  "confirmed-ceiling": "ok",
  "confirmed-lower-bound": "ok",
  "unconfirmed-lower-bound": "warn",
  none: "warn",
  cancelled: "warn",
  failed: "bad",
  interrupted: "bad",
};

/** Why a search stopped, in words (the CLI adds its flags' advice: runner/ceiling/format.ts). */
export const stopWords = (perSec: string): Record<StopReason, string> => ({
  converged: "the bracket is as narrow as asked",
  "max-rate": "the maximum rate was reached, still sustained",
  "max-steps": "the step budget ran out before the bracket was as narrow as asked",
  "none-sustained": `not even 1 ${perSec} was sustained`,
  cancelled: "the search was cancelled; the steps done are kept",
  failed: "a step's run failed",
  starved:
    "the runner could not drive a higher rate (it was starved of CPU every time one was measured), so the rate below it is a lower bound, not the target's ceiling. To look higher: more runner processes (--processes N, or Processes in the form) where this machine has cores to spare, the runner on another machine than the target, or a lower goal",
  unconfirmed: "every longer run confirming the rate found failed, so no rate is confirmed",
});

/** Why a search stopped when its longer run, not a higher rate, was starved every time it was run. */
const confirmationStarvedWords =
  "the runner could not measure the longer run that would confirm the rate found (it was starved of CPU every time it was run), so that rate is not confirmed. To confirm it: more runner processes (--processes N, or Processes in the form) where this machine has cores to spare, or the runner on another machine than the target";

export interface AnswerInput {
  status: RunStatus;
  steps: readonly CeilingStep[];
  /** The stored outcome; null while the search runs (the steps so far decide). */
  result: SearchOutcome | null;
  slo: Slo;
  /** The goal latency's label ("e2e", "e2e from schedule"). */
  metricLabel: string;
  /** The paced unit ("msg", "row", "req", "workflow"). */
  unit: string;
}

export interface CeilingAnswer {
  kind: AnswerKind;
  /** The status as shown: "completed · unconfirmed lower bound", "cancelled", "running". */
  status: string;
  /** The badge's class. */
  badge: string;
  /** The rate the steps establish (the bracket's low end), confirmed or not; null when none. */
  rate: number | null;
  /** A longer run held `rate`. */
  confirmed: boolean;
  bracket: Bracket;
  /** The rate in a table cell, without its unit: "800", "≥ 800", "≥ 500 (not confirmed)", "–" (cellIn adds the unit). */
  cell: string;
  /** The answer in one sentence, with the goal: "at least 500 msg/s with e2e p99<50ms in an 8 s step, not confirmed by a longer run". */
  headline: string;
  /** The bracket, or what was tried above the rate; null when there is nothing to say. */
  above: string | null;
  /** How the rate was confirmed, or why not (lib/ceiling/confirmation.ts); null when no rate and no longer run. */
  confirmation: string | null;
  /** Why the rate above was not sustained, with its numbers; null without one. */
  why: string | null;
  /** "5 steps, 3 of them starved …; stopped because …" (null while running). */
  stopped: string | null;
  /** This server's side of "Beside the published figures": "this server sustains 800 msg/s with e2e p99<50ms (confirmed by a 60 s run)". */
  ours: string;
}

const n1 = (x: number) => x.toLocaleString("en-US", { maximumFractionDigits: 1 });

/** The answer of a search's steps and stored outcome. */
export function ceilingAnswer(a: AnswerInput): CeilingAnswer {
  const perSec = perSecond(a.unit);
  const rateOf = (n: number) => `${Math.round(n).toLocaleString("en-US")} ${perSec}`;
  const goal = `${a.metricLabel} ${sloText(a.slo)}`;
  const live = a.result === null;
  const bracket = a.result?.bracket ?? bracketOf(a.steps);
  const rate = bracket.low;
  const confirmationStep = live
    ? confirmationOf(a.steps, rate)
    : a.result!.confirmation != null
      ? a.steps.find((s) => s.index === a.result!.confirmation)
      : undefined;
  const confirmed = rate !== null && confirmationStep !== undefined;
  const kind: AnswerKind =
    a.status === "completed"
      ? rate === null
        ? "none"
        : confirmed
          ? bracket.high === null
            ? "confirmed-lower-bound"
            : "confirmed-ceiling"
          : "unconfirmed-lower-bound"
      : a.status;
  const stop = a.result?.stop;

  // The step that held the rate for the longest: what an unconfirmed rate rests on.
  const heldBy = rate === null ? undefined : (confirmationStep ?? a.steps.find((s) => s.rate === rate && s.sustained && !s.starved));
  const sustainedRates = [...new Set(a.steps.filter((s) => s.sustained && !s.starved).map((s) => s.rate))].sort((x, y) => x - y);
  const failedLonger = a.steps.filter((s) => s.confirmation && !s.sustained && !s.starved);
  const atLeast = bracket.high === null ? "at least " : "";
  const so = kind === "running" || kind === "queued" ? "so far " : "";

  let headline: string;
  let ours: string;
  if (rate !== null && confirmed) {
    headline = `${atLeast}${rateOf(rate)} with ${goal}, confirmed by a ${n1(confirmationStep!.measuredSeconds)} s run`;
    ours = `this server sustains ${atLeast}${rateOf(rate)} with ${goal} (confirmed by a ${n1(confirmationStep!.measuredSeconds)} s run)`;
  } else if (rate !== null) {
    const step = heldBy ? `in a step of ${n1(heldBy.measuredSeconds)} s` : "in a step";
    const not = so ? "not yet confirmed by a longer run" : "not confirmed by a longer run";
    headline = `${so}${rateOf(rate)} held with ${goal} ${step}, ${not}: at least that rate for a step's length, no more is known`;
    ours = `${so}this server held ${rateOf(rate)} with ${goal} ${step}, ${not}`;
  } else if (sustainedRates.length) {
    // Short steps held, and a longer run at or below them did not: they do not count.
    const held = `${sustainedRates.map(rateOf).join(", ")} held in short steps`;
    const outweighed = failedLonger.length
      ? `, but the longer run at ${failedLonger.map((s) => rateOf(s.rate)).join(" and ")} did not, which outweighs them`
      : ", not confirmed";
    headline = `no rate is confirmed with ${goal}: ${held}${outweighed}`;
    ours = `no rate is confirmed on this server with ${goal} (${held}${outweighed})`;
  } else if (a.steps.some((s) => !s.starved)) {
    headline = `no step ${so ? "has been " : "was "}sustained with ${goal}${so ? " so far" : ""}`;
    ours = `this server sustained no step with ${goal}${so ? " so far" : ""}`;
  } else {
    headline = so ? "no step has been judged so far" : "no step was judged";
    ours = `no step of this search ${so ? "has been judged so far" : "was judged"}, so nothing is known of this server with ${goal}`;
  }

  let above: string | null = null;
  if (rate !== null && bracket.high !== null) {
    const width = fmtPercent(((bracket.high - rate) / rate) * 100);
    above = confirmed
      ? `bracket: highest sustained ${rateOf(rate)}, lowest failed ${rateOf(bracket.high)} (the true ceiling is in it, ${width} wide)`
      : `the bracket of the steps so far: highest sustained ${rateOf(rate)}, lowest failed ${rateOf(bracket.high)} (${width} wide), not confirmed: the ceiling may lie outside it`;
  } else if (rate !== null) {
    const higher = a.steps.filter((s) => s.rate > rate);
    if (stop === "max-rate") above = "the maximum rate was sustained (raise the maximum to look further)";
    else if (!higher.length) above = kind === "running" ? null : "no higher rate was tried";
    else above = `higher rates tried: ${triedWords(higher, rateOf)}`;
  }

  const failedAbove = a.result?.failedAbove != null ? a.steps.find((s) => s.index === a.result!.failedAbove) : undefined;
  const why = failedAbove
    ? `the ${failedAbove.confirmation ? "longer run" : "step"} at ${rateOf(failedAbove.rate)} was not sustained: ${failedAbove.verdict.failures.map((f) => `${CONDITION_LABEL[f.condition]}: ${f.message}`).join("; ")}${failedAbove.bottleneck ? `. Its telemetry: ${failedAbove.bottleneck.statement}` : ""}`
    : null;
  const starved = a.steps.filter((s) => s.starved).length;
  const stopped =
    stop === undefined
      ? null
      : `${countWords(a.steps.length, "step")}${starved ? `, ${starved} of them starved (the runner, not the target, could have decided them) and run again` : ""}; stopped because ${stop === "starved" && a.steps.at(-1)?.confirmation && a.steps.at(-1)?.starved ? confirmationStarvedWords : stopWords(perSec)[stop]}`;

  const cell =
    rate === null ? "–" : `${bracket.high === null || !confirmed ? "≥ " : ""}${Math.round(rate).toLocaleString("en-US")}${confirmed ? "" : " (not confirmed)"}`;
  const lifecycle = a.status === "completed" ? `completed · ${ANSWER_LABEL[kind]}` : ANSWER_LABEL[kind];
  return {
    kind,
    status: lifecycle,
    badge: ANSWER_BADGE[kind],
    rate,
    confirmed,
    bracket,
    cell,
    headline,
    above,
    // While the search runs, a rate not yet confirmed is simply not confirmed yet.
    confirmation: live && !confirmed && !failedLonger.length ? null : confirmationText(a.steps, confirmationStep, rate, a.slo, a.unit),
    why,
    stopped,
    ours,
  };
}

/** "12,800 msg/s 3 times (the runner was starved each time, so they say nothing of the target)". */
function triedWords(steps: readonly CeilingStep[], rateOf: (n: number) => string): string {
  const byRate = new Map<number, CeilingStep[]>();
  for (const s of steps) byRate.set(s.rate, [...(byRate.get(s.rate) ?? []), s]);
  return [...byRate]
    .sort(([x], [y]) => x - y)
    .map(([r, ss]) => {
      const times = ss.length > 1 ? ` ${ss.length} times` : "";
      const verdicts = [...new Set(ss.map((s) => (s.starved ? "starved" : s.sustained ? "sustained" : "not sustained")))];
      const what =
        verdicts.length === 1 && verdicts[0] === "starved"
          ? `the runner was starved ${ss.length > 1 ? "each time" : ""}, so ${ss.length > 1 ? "they say" : "it says"} nothing of the target`
          : verdicts.join(", ");
      return `${rateOf(r)}${times} (${what.replace(/ {2,}/g, " ")})`;
    })
    .join("; ");
}

/** The stored outcome of a finished search (what the runner and the CLI's --save keep). */
export const outcomeOf = (r: SearchResult<CeilingStep>): SearchOutcome => ({
  stop: r.stop,
  ceiling: r.ceiling,
  bracket: r.bracket,
  failedAbove: r.failedAbove?.index ?? null,
  confirmation: r.confirmation?.index ?? null,
});

/** The status a finished search is stored with: its life-cycle, not its answer (which ceilingAnswer gives). */
export const statusOfStop = (stop: StopReason): "completed" | "failed" | "cancelled" =>
  stop === "cancelled" ? "cancelled" : stop === "failed" ? "failed" : "completed";

/** The answer of a search just run (the CLI, bench:ceiling). */
export const answerOfResult = (r: SearchResult<CeilingStep>, slo: Slo, metricLabel: string, unit: string): CeilingAnswer =>
  ceilingAnswer({ status: statusOfStop(r.stop), steps: r.steps, result: outcomeOf(r), slo, metricLabel, unit });

/** The answer of a stored search, as the API gives it (the page, its list, the other searches beside it). */
export function answerOfView(v: CeilingView): CeilingAnswer {
  const slo = parseSlo(v.settings.slo);
  return ceilingAnswer({
    status: v.status,
    steps: v.steps,
    result: v.result,
    slo: slo.ok ? slo.slo : [],
    metricLabel: goalLabelOf(v),
    unit: searchUnit(v.workload, v.config),
  });
}

/** The goal latency's label as the steps measured it (before the first step: the metric asked for). */
export const goalLabelOf = (v: Pick<CeilingView, "steps" | "settings">): string => v.steps[0]?.goal.label ?? v.settings.metric ?? "delivery";

/** The table cell with the unit after its number: "≥ 500 msg/s (not confirmed)". */
export const cellIn = (a: Pick<CeilingAnswer, "cell">, unit: string): string => a.cell.replace(/^(≥ )?([\d,]+)/, `$1$2 ${perSecond(unit)}`);

/** The runner's log line of a finished search: "completed · unconfirmed lower bound: ≥ 500 msg/s (not confirmed)". */
export const searchLogLine = (a: CeilingAnswer, unit: string): string => `${a.status}${a.rate !== null ? `: ${cellIn(a, unit)}` : ""}`;

/** Another search of the workload beside a search's page: its curve's points and its answer's cell and status. */
export interface OtherCeiling {
  id: string;
  createdAt: string;
  config: CeilingView["config"];
  slo: string;
  metric: string;
  targetLabel: string;
  /** Its answer's table cell and status (lib/ceiling/answer.ts): "≥ 500 (not confirmed)", "completed · unconfirmed lower bound". */
  cell: string;
  status: string;
  badge: string;
  /** Its steps, to draw beside this search's (the goal latency's p99 of each). */
  points: { target: number; achieved: number; p99: number | null }[];
}

/** Another search as the table beside a search shows it, from its answer (built on the server: not in the
 *  client component, whose functions the server cannot call). */
export function otherCeiling(o: CeilingView): OtherCeiling {
  const a = answerOfView(o);
  return {
    id: o.id,
    createdAt: o.createdAt,
    config: o.config,
    slo: o.settings.slo,
    metric: goalLabelOf(o),
    targetLabel: o.targetLabel,
    cell: a.cell,
    status: a.status,
    badge: a.badge,
    points: o.steps.map((s) => ({ target: s.rate, achieved: +s.achievedRate.toFixed(1), p99: s.goal.stats?.p99 ?? null })),
  };
}
