// The verdict rules on what the run left behind and how it waited: dead tuples autovacuum did not keep up with, a
// snapshot held outside the run (./held-snapshot.ts), and connections waiting on the client's round trips.
import { heldSnapshot, heldSnapshotWords } from "./held-snapshot";
import { consumerRoundTrips, consumersBehind, judgedRate, type PaceInput, roundTripWords } from "./pace-rules";
import { all, clientJudgement, clientOf, fact, ge, gt, lt, num, pct, THRESHOLDS } from "./verdict-evidence";
import type { RuleCategory, RuleContext, VerdictRule } from "./verdict-rule";
import { hostBound } from "./verdict-rules-machine";
import type { Evidence, Finding } from "./verdict-shape";

/**
 * Whether dead tuples matter: autovacuum lagging (none ran in a window of two naptimes or more), or the run slowing
 * as they rose (its last third's rate or latency against its first third's) while its backlog did not grow (a
 * growing backlog slows a run by itself: larger tables to scan) and no CPU shortage explains it (`cpuExplains`:
 * host-bound or client-bound held). Either suffices.
 */
function deadEffect(autovacuumRuns: number, seconds: number, pace: PaceInput | undefined, cpuExplains: boolean): { holds: boolean; evidence: Evidence[] } {
  const lag = ge("measured window with no autovacuum run", autovacuumRuns === 0 ? seconds : 0, THRESHOLDS.autovacuumLagSec, "s");
  const ev = [lag];
  const backlogGrew = consumersBehind(pace).matched;
  if (cpuExplains) ev.push(fact("a slowdown is the host's or the runner's CPU (host-bound or client-bound held): not judged", 1, ""));
  const first = backlogGrew || cpuExplains ? undefined : pace?.facts?.firstThird;
  const last = pace?.facts?.lastThird;
  if (first && last && first.rate > 0) ev.push(lt("last third's rate / the first third's", last.rate / first.rate, THRESHOLDS.slowRateShare, "ratio"));
  if (first?.p50Ms && last?.p50Ms !== undefined)
    ev.push(ge("last third's latency p50 / the first third's", last.p50Ms / first.p50Ms, THRESHOLDS.slowLatencyFactor, "ratio"));
  const holds = ev.some((e) => e.holds);
  if (holds) for (const e of ev) if (!e.holds) delete e.holds;
  return { holds, evidence: ev };
}

function autovacuumPressure(ctx: RuleContext): Finding {
  const { input, w } = ctx;
  if (!w) return { category: "autovacuum-pressure", matched: false, evidence: [] };
  const ev: Evidence[] = [];
  let dead = false;
  if (w.tables) {
    const t = w.tables;
    const total = t.deadTuplesEnd + t.liveTuplesEnd;
    const rising = gt("dead tuples' trend", t.deadTuplesSlopePerSec, 0, "tuples/s");
    const many = ge("dead tuples at the end", t.deadTuplesEnd, THRESHOLDS.deadTuplesMin, "tuples");
    const share = ge("dead share of the run's tables' tuples", total > 0 ? t.deadTuplesEnd / total : 0, THRESHOLDS.deadShare, "ratio");
    ev.push(rising, many, share, fact("autovacuum runs", t.autovacuumRuns, "runs"));
    // Dead tuples are pressure only when autovacuum lags behind them or they slow the run: workflows and queues
    // leave thousands within seconds by design, before autovacuum has had its first chance to run.
    // A run slowed by the host's other processes or a starved runner says nothing about its dead tuples.
    const cpuExplains = hostBound(ctx).matched || clientJudgement(input, w)?.bound === true;
    const effect = deadEffect(t.autovacuumRuns, w.seconds, ctx.pace, cpuExplains);
    ev.push(...effect.evidence);
    dead = [rising, many, share].every((e) => e.holds) && effect.holds;
  }
  return { category: "autovacuum-pressure", matched: dead, evidence: ev };
}

function connectionBound({ input, w, pace }: RuleContext): Finding {
  if (!w) return { category: "connection-bound", matched: false, evidence: [] };
  const c = clientOf(input, w);
  // Or the consumers' own round trips set their pace (pace-rules.ts consumerRoundTrips): either suffices.
  const rt = consumerRoundTrips(pace, w);
  const ev = [
    ge("share of time the run's connections waited on the client (idle)", w.runIdleShare + w.runIdleInTxShare, THRESHOLDS.connectionIdleShare, "ratio"),
  ];
  if (c?.cpuPct !== undefined) ev.push(lt("runner CPU, % of one core", c.cpuPct, THRESHOLDS.connectionClientCpuPct, "%"));
  if (c?.eventLoopUtilization !== undefined) ev.push(lt("runner event-loop utilization", c.eventLoopUtilization, THRESHOLDS.connectionClientElu, "ratio"));
  ev.push(fact("the run's connections", w.runConnections, "connections"));
  // A run that met the rate it was asked for idles by design: that is rate-bound, not round trips. A closed
  // loop's virtual users that spent most of their time thinking (achieved ÷ offered is that share) leave the
  // connections idle because nobody asks: more connections would not raise its rate.
  const rate = pace && judgedRate(pace.spec);
  if (pace && rate) {
    const share = pace.achievedPerSec / rate.perSec;
    ev.push(
      rate.offered
        ? lt("share of the virtual users' time spent thinking", share, THRESHOLDS.connectionThinkShare, "ratio")
        : lt(rate.what, share, THRESHOLDS.rateAchieved, "ratio"),
    );
  }
  const idle = c !== undefined && all(ev);
  if (rt.holds && !idle) for (const e of ev) delete e.holds;
  return { category: "connection-bound", matched: idle || rt.holds, evidence: [...ev, ...rt.evidence] };
}

/** A held snapshot that is the bigger effect (./held-snapshot.ts: leads) comes first, and consumers behind yields to it. */
const snapshotLeads = ({ input, w }: RuleContext) => heldSnapshot(input, w).leads;

export const TABLE_RULES = {
  "autovacuum-pressure": {
    label: "autovacuum/bloat pressure",
    tier: 6,
    missedRate: "as-limit",
    judge: autovacuumPressure,
    words: ({ w }) =>
      `autovacuum/bloat pressure: ${w?.tables ? `dead tuples rose to ${num(w.tables.deadTuplesEnd)} (${num(w.tables.deadTuplesSlopePerSec)}/s)` : ""}${w?.oldestXactSecMax !== undefined && w.oldestXactSecMax >= THRESHOLDS.xminHeldSec ? `${w?.tables ? "; " : ""}a transaction open ${num(w.oldestXactSecMax)} s held the xmin horizon` : ""}`,
  },
  "held-snapshot": {
    label: "held snapshot (xmin horizon)",
    tier: 7,
    leads: snapshotLeads,
    cause: snapshotLeads,
    missedRate: "as-limit",
    judge: ({ input, w }) => heldSnapshot(input, w).finding,
    words: ({ w, pace }) => heldSnapshotWords(w!, pace),
  },
  "connection-bound": {
    label: "connection-bound (round trips)",
    tier: 8,
    judge: connectionBound,
    words: ({ w, pace }) => {
      if (consumerRoundTrips(pace, w).holds) return `connection-bound: ${roundTripWords(pace!)}`;
      return `connection-bound: the run's ${num(w!.runConnections)} connections waited on the client ${pct(w!.runIdleShare + w!.runIdleInTxShare)} of the time while the runner was not busy: the round trips limit it (more connections, or batching, would raise throughput)`;
    },
  },
} satisfies Partial<Record<RuleCategory, VerdictRule>>;
