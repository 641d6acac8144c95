// The ceiling search's text: one line per step, and the result in words (the CLI and the bench script).
import type { SearchResult } from "../../lib/ceiling/search";
import { confirmationText } from "../../lib/ceiling/confirmation";
import { sloText, type Slo } from "../../lib/ceiling/slo";
import { verdictText } from "../../lib/ceiling/verdict";
import { fmtLatency, fmtPercent } from "../../lib/runs/format";
import { perSecond } from "../../lib/words";
import { num } from "../format";
import type { CeilingStep } from "./driver";
import { agree, countWords } from "../../lib/words";

/** "400 msg/s", "400 row/s": a rate in the search's paced unit (lib/ceiling/rate.ts searchUnit). */
const rateIn = (unit: string) => (n: number) => `${Math.round(n).toLocaleString("en-US")} ${perSecond(unit)}`;

/** "step 3   400 msg/s: achieved 399.8 msg/s, end-to-end p99 4.1 ms, backlog +0.1/s, runner 31% CPU, event loop p99 12 ms → sustained",
 *  in the paced `unit` of the search's workload. */
export function stepLine(s: CeilingStep, unit: string): string {
  const rate = rateIn(unit);
  const parts = [`achieved ${num(s.achievedRate)} ${perSecond(unit)}`];
  if (s.readRate !== null) parts.push(`read ${num(s.readRate)} ${perSecond(unit)}`);
  parts.push(`${s.goal.label} p99 ${fmtLatency(s.goal.stats?.p99)}`);
  const slope = s.verdict.backlogSlopePerSec;
  if (slope !== null) parts.push(`backlog ${slope >= 0 ? "+" : ""}${num(slope)}/s`);
  if (s.client) parts.push(`runner ${Math.round(s.client.cpuCores * 100)}% CPU, event loop p99 ${fmtLatency(s.client.eventLoopP99Ms)}${runQueue(s)}`);
  const name = s.confirmation ? `confirm (${num(s.measuredSeconds)} s)` : `step ${String(s.index + 1).padEnd(3)}`;
  return `${name}${rate(s.rate).padStart(14)}: ${parts.join(", ")} → ${verdictText(s.verdict)}`;
}

const runQueue = (s: CeilingStep) => (s.client?.runQueueShare != null ? `, waited to run ${fmtPercent(s.client.runQueueShare * 100)}` : "");

/** The result: the ceiling with its bracket, how it was confirmed, and why the rate above it was not sustained. */
export function resultLines(r: SearchResult<CeilingStep>, slo: Slo, metricLabel: string, unit: string): string[] {
  const rate = rateIn(unit);
  const goal = `${metricLabel} ${sloText(slo)}`;
  const out: string[] = [];
  const { low, high } = r.bracket;
  if (r.ceiling === null) out.push(`no ceiling: not one step was sustained with ${goal}`);
  else if (high === null)
    out.push(
      r.stop === "max-rate"
        ? `ceiling: at least ${rate(r.ceiling)} with ${goal}: the maximum rate was sustained (raise --max-rate to look further)`
        : `ceiling: at least ${rate(r.ceiling)} with ${goal} (no higher rate was tried)`,
    );
  else {
    const width = ((high - low!) / low!) * 100;
    out.push(
      `ceiling: ${rate(r.ceiling)} with ${goal}; bracket: highest sustained ${rate(low!)}, lowest failed ${rate(high)} (the true ceiling is in it, ${fmtPercent(width)} wide)`,
    );
  }
  const confirmed = confirmationText(r.steps, r.confirmation, r.ceiling, slo, unit);
  if (confirmed) out.push(confirmed);
  if (r.failedAbove)
    out.push(`the ${r.failedAbove.confirmation ? "confirmation" : "next step"} at ${rate(r.failedAbove.rate)} was ${verdictText(r.failedAbove.verdict)}`);
  const starved = r.steps.filter((s) => s.starved).length;
  if (starved)
    out.push(`${countWords(starved, "step")} ${agree(starved, "were", "was")} starved (the runner, not the target, could have decided them) and run again`);
  if (r.failedAbove?.bottleneck) out.push(`its telemetry: ${r.failedAbove.bottleneck.statement}`);
  const why: Record<SearchResult<CeilingStep>["stop"], string> = {
    converged: "the bracket is as narrow as asked",
    "max-rate": "the maximum rate was reached",
    "max-steps": "the step budget ran out before the bracket was as narrow as asked (raise --max-steps)",
    "none-sustained": `not even 1 ${perSecond(unit)} was sustained`,
    cancelled: "the search was cancelled; the steps done are kept",
    failed: `a step's run failed: ${r.error ?? "unknown error"}`,
    starved: "the runner was starved (not the target) every time the last rate was measured: run it on a less loaded machine",
    unconfirmed: "every longer run confirming the rate found failed: the bracket is not confirmed",
  };
  out.push(`${countWords(r.steps.length, "step")}; stopped because ${why[r.stop]}`);
  return out;
}
