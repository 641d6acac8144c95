// A finished run's headline facts from its summary alone, browser-safe: whether the rate asked was met (what the
// runner's load is judged against: runner-load.ts runnerRole), the runner's load in words by that role, and
// whether the consumers kept up with the writers (the verification tile: nothing lost is not everything kept up).
// The run page, the CLI, the summary's note, compare and the A/B read them from here, so they say the same.
import { phasesInWindow, phasesWords } from "../phases/window";
import { judgedRate } from "../telemetry/pace-rules";
import { PACE_THRESHOLDS, paceSpecOf } from "../telemetry/pace";
import { definitionOf, pacingOf, type WorkloadConfig } from "../workloads/config";
import type { Operations } from "./metrics";
import { groupsOf, throughputOf } from "./operations";
import { type RunnerRole, runnerLoadRole, runnerLoadText, type SummaryRunnerLoad } from "./runner-load";
import type { RunSummary } from "./summary";

/**
 * Whether the paced operation reached the rate asked (or a closed loop's think time offers) over the measured
 * window: the verdict's own test (rate-bound's and behind-schedule's first line, PACE_THRESHOLDS.rateAchieved) on
 * the same numbers. Undefined when no rate was asked.
 */
export function rateMetOf(config: WorkloadConfig, m: { operations: Operations }): boolean | undefined {
  let spec: ReturnType<typeof paceSpecOf>;
  try {
    spec = paceSpecOf(pacingOf(config), definitionOf(config).metrics);
  } catch {
    return undefined; // a workload no longer registered
  }
  const rate = judgedRate(spec);
  if (!rate || !(rate.perSec > 0)) return undefined;
  return (throughputOf(m, spec.operation)?.perSecond ?? 0) / rate.perSec >= PACE_THRESHOLDS.rateAchieved;
}

/** The runner's load of a finished run: its role and its sentence (undefined when the rule did not hold). */
export function runnerLoadOf(s: Pick<RunSummary, "config" | "operations" | "runnerLoad">): { role: RunnerRole; text?: string } {
  const l: SummaryRunnerLoad | undefined = s.runnerLoad;
  if (!l) return { role: "none" };
  const met = rateMetOf(s.config, s);
  return { role: runnerLoadRole(l, met), text: runnerLoadText(l, met) };
}

/** The runner's load by its role (runner-load.ts runnerRole), as the manifest and the CLI say it. */
export const RUNNER_ROLE_WORDS: Record<RunnerRole, string> = {
  limit: "CLIENT-BOUND (the runner was the limit)",
  caution: "its delay is in the latencies (a caution, not the limit)",
  none: "not client-bound",
};

/** Whether a note of the summary is the runner's load (shown inside the verdict on the page, not again as a note). */
export const isRunnerLoadNote = (n: string) => /^client-bound:|^these latencies include up to /.test(n);

export interface KeepUp {
  /** The consumers read everything written: the backlog did not grow over the window and nothing was left unread. */
  keptUp: boolean;
  /** Written and read per second over the window (read per consumer group), the backlog's unit. */
  writePerSec: number;
  readPerSec: number;
  unit: string;
  /** Left unread when the drain ended. */
  unreadAtEnd?: number;
  /** The verdict's consumers-behind rule held (the backlog grew through the window). */
  backlogGrew: boolean;
  /** In words: "the consumers kept up" or "the consumers fell behind: read 1,300 of 2,239 msg/s, 50,041 unread at the end". */
  text: string;
}

const int = (n: number) => Math.round(n).toLocaleString("en-US");

/**
 * Whether the consumers kept up, for a workload that counts a backlog (undefined otherwise): they fell behind
 * when the verdict's consumers-behind rule held (the backlog grew ≥ 5% of the write rate and held ≥ 1 s of writes
 * at the window's end) or anything was still unread when the drain ended.
 */
export function keepUpOf(s: Pick<RunSummary, "config" | "operations" | "groups" | "totals" | "telemetry" | "phases">): KeepUp | undefined {
  let model: ReturnType<typeof definitionOf>["metrics"];
  try {
    model = definitionOf(s.config).metrics;
  } catch {
    return undefined;
  }
  const backlog = model.backlog;
  if (!backlog) return undefined;
  const writePerSec = throughputOf(s, "write")?.perSecond ?? 0;
  const readPerSec = (throughputOf(s, "read")?.perSecond ?? 0) / Math.max(1, groupsOf(s).length);
  const unreadAtEnd = s.totals?.measures.unreadAtEnd;
  const v = s.telemetry?.verdict;
  const backlogGrew = !!v?.findings.some((f) => f.category === "consumers-behind" && f.matched);
  const keptUp = !backlogGrew && !(unreadAtEnd !== undefined && unreadAtEnd > 0);
  const unit = model.operations.find((o) => o.name === "write")?.unit ?? backlog.unit;
  const perGroup = groupsOf(s).length > 1 ? " per group" : "";
  // A pause the run asked for is why its consumers fell behind, or most of it: said beside it.
  const paused = phasesInWindow(s.config, s.phases).filter((p) => p.kind === "pause-workers");
  const why = !keptUp && paused.length ? ` (${phasesWords(paused, s.config.durationSeconds)})` : "";
  const text = keptUp
    ? `the consumers kept up (read ${int(readPerSec)} of ${int(writePerSec)} ${unit}/s written${perGroup}, nothing left unread)`
    : `the consumers fell behind: read ${int(readPerSec)} of ${int(writePerSec)} ${unit}/s written${perGroup}${unreadAtEnd !== undefined ? `, ${int(unreadAtEnd)} ${backlog.unit} unread at the end` : ""}${why}`;
  return { keptUp, writePerSec, readPerSec, unit, ...(unreadAtEnd !== undefined ? { unreadAtEnd } : {}), backlogGrew, text };
}
