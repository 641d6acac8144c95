// The ceiling search's text: one line per step, and the result in words (the CLI and the bench script).
import type { SearchResult } from "../../lib/ceiling/search";
import { answerOfResult } from "../../lib/ceiling/answer";
import type { Slo } from "../../lib/ceiling/slo";
import { verdictText } from "../../lib/ceiling/verdict";
import { fmtLatency, fmtPercent } from "../../lib/runs/format";
import { perSecond } from "../../lib/words";
import { num } from "../format";
import type { CeilingStep } from "./driver";

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

/** The flags that act on why a search stopped, for the CLI's last line. */
const FLAG_ADVICE: Partial<Record<SearchResult<CeilingStep>["stop"], string>> = {
  "max-rate": " (raise --max-rate to look further)",
  "max-steps": " (raise --max-steps)",
};

/**
 * The result, from the search's one answer (lib/ceiling/answer.ts), as the page and the published figures say
 * it: its status (confirmed ceiling, confirmed or unconfirmed lower bound, none, cancelled, failed), the rate
 * with the goal, its bracket or what was tried above it, how it was confirmed, why the rate above failed.
 */
export function resultLines(r: SearchResult<CeilingStep>, slo: Slo, metricLabel: string, unit: string): string[] {
  const a = answerOfResult(r, slo, metricLabel, unit);
  const out = [`result: ${a.status}: ${a.headline}`];
  if (a.above) out.push(a.above);
  if (a.confirmation) out.push(a.confirmation);
  if (a.why) out.push(a.why);
  if (r.stop === "failed") out.push(`the step's run failed: ${r.error ?? "unknown error"}`);
  if (a.stopped) out.push(`${a.stopped}${FLAG_ADVICE[r.stop] ?? ""}`);
  return out;
}
