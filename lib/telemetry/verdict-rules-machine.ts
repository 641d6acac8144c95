// The verdict rules on the machine the run shared: other processes filling the host (host-bound) and the runner
// at its own limit (client-bound, the one client rule of ../measurement/runner-load.ts).
import { clientReason, judgeClient, runnerRole } from "../measurement/runner-load";
import { consumerRoundTrips, judgedRate } from "./pace-rules";
import { busyOrPinned, clientMeasures, clientOf, fact, ge, lt, num, pct, rateMet, THRESHOLDS, all } from "./verdict-evidence";
import type { RuleCategory, RuleContext, VerdictRule } from "./verdict-rule";
import { type Evidence, type Finding, partWords } from "./verdict-shape";

/** host-bound: other processes used the host's CPUs while the runner waited for one. */
export function hostBound({ input, w }: RuleContext): Finding {
  const c = clientOf(input, w);
  if (!w?.host || w.host.otherCpuCores === undefined || c?.runQueueWaitMsPerSec === undefined) return { category: "host-bound", matched: false, evidence: [] };
  const h = w.host;
  const ev = [
    ge("other processes' CPU, % of the host", (100 * h.otherCpuCores!) / h.cores, THRESHOLDS.hostOtherCpuPct, "%"),
    ...busyOrPinned(
      ge("host CPU busy (all processes)", h.cpuBusyPct, THRESHOLDS.hostCpuBusyPct, "%"),
      ge("the runner's CPU full: its wait for a CPU", c.runQueueWaitMsPerSec, THRESHOLDS.hostPinnedWaitMsPerSec, "ms/s"),
    ),
    ge("runner's wait for a CPU (runnable, not running)", c.runQueueWaitMsPerSec, THRESHOLDS.clientRunQueueWaitMsPerSec, "ms/s"),
    ...(h.topOthers ?? []).map((o) => fact(`CPU of ${o.name}`, o.cores, "cores")),
    fact("server processes' CPU", h.serverCpuCores, "cores"),
    ...(h.runnerCpuCores !== undefined ? [fact("runner CPU", h.runnerCpuCores, "cores")] : []),
    fact("host cores", h.cores, "cores"),
  ];
  return { category: "host-bound", matched: all(ev), evidence: ev };
}

function clientBound({ input, w, pace }: RuleContext): Finding {
  const c = clientOf(input, w);
  if (!c || (c.cpuPct === undefined && c.eventLoopUtilization === undefined && c.runQueueWaitMsPerSec === undefined && c.exposedDelayMs === undefined))
    return { category: "client-bound", matched: false, evidence: [] };
  // The one client rule every surface applies (the runner-load note, the page, the CLI, the A/B, the ceiling):
  // the runner is the limit only when it was at its limit and the rate asked (if any) was missed. Starved, or
  // busy while the rate was met, it is a caution on the latencies (verdictOf), not the verdict.
  const j = judgeClient(clientMeasures(c));
  const met = rateMet(input);
  const ev: Evidence[] = [...j.checks];
  const rate = pace && judgedRate(pace.spec);
  if (j.saturated && pace && rate)
    ev.push(lt(`${rate.what} (a runner at its limit limits only a rate it missed)`, pace.achievedPerSec / rate.perSec, THRESHOLDS.rateAchieved, "ratio"));
  if (j.bound && !j.saturated) ev.push(fact("starved of CPU, not at its limit: a caution on the latencies, never the limit", 1, ""));
  if (c.exposedDelayMs !== undefined) ev.push(fact("runner event-loop delay over 1% of the time", c.exposedDelayMs, "ms"));
  if (c.serviceMs !== undefined) ev.push(fact("the operation's service time (p50)", c.serviceMs, "ms"));
  if (c.eventLoopDelayMaxMs !== undefined) ev.push(fact("longest event-loop delay", c.eventLoopDelayMaxMs, "ms"));
  if (w) ev.push(fact("share of time the run's connections were active on the server", w.runActiveShare, "ratio"));
  // Over several processes these numbers are one part's, the worst-loaded: say which (its index is the value).
  if (c.part) ev.unshift(fact(`the runner process judged, the worst-loaded: ${partWords(c.part)}`, c.part.index, "part"));
  return { category: "client-bound", matched: runnerRole(j, met) === "limit", evidence: ev };
}

function hostWords({ input, w }: RuleContext): string {
  const h = w!.host!;
  const top = (h.topOthers ?? []).map((o) => `${o.name} ${num(100 * o.cores)}% of a core`).join(", ");
  const c = clientOf(input, w);
  const part = c?.part;
  // The host's busy share is the reason unless the runner's own CPU being full was (busyOrPinned: either suffices).
  const busy = h.cpuBusyPct >= THRESHOLDS.hostCpuBusyPct ? "" : " but the runner's own CPU full";
  return `host-bound: other processes used ${num((100 * h.otherCpuCores!) / h.cores)}% of the host's ${h.cores} CPUs${top ? ` (${top})` : ""} with the host ${num(h.cpuBusyPct)}% busy${busy}, and the runner${part ? ` (${partWords(part)})` : ""} waited ${num(c?.runQueueWaitMsPerSec ?? 0)} ms/s for a CPU; the target's processes used ${h.serverCpuCores.toFixed(2)} cores${h.runnerCpuCores !== undefined ? `, the runner ${h.runnerCpuCores.toFixed(2)}` : ""}: these numbers are the shared machine's, not the target's alone`;
}

/** The runner-load note's own words: only the numbers that met their threshold are the reason. */
function clientWords({ input, w }: RuleContext): string {
  const c = clientOf(input, w);
  const m = c ? clientMeasures(c) : {};
  const who = c?.part ? `${partWords(c.part)}: ` : "";
  return `client-bound: ${who}${clientReason(judgeClient(m), m, "limit")}${w ? ` while its connections waited on it ${pct(w.runIdleShare + w.runIdleInTxShare)} of the time` : ""}`;
}

export const MACHINE_RULES = {
  "host-bound": {
    label: "host-bound (other processes)",
    tier: 4,
    // Consumers whose own round trips set their pace are behind for that reason, not for the shared machine's.
    cause: ({ pace, w }) => !consumerRoundTrips(pace, w).holds,
    cpuShortage: true,
    missedRate: "as-limit",
    judge: hostBound,
    words: hostWords,
  },
  "client-bound": {
    label: "client-bound (the runner)",
    tier: 2,
    cause: true,
    cpuShortage: true,
    missedRate: "as-limit",
    judge: clientBound,
    words: clientWords,
  },
} satisfies Partial<Record<RuleCategory, VerdictRule>>;
