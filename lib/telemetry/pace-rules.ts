// The verdict's rules about the run's own pace (./pace.ts gathers their numbers): rate-bound (the rate asked was
// met with the server's headroom), behind-schedule (it was not: who fell behind), consumers-behind (the backlog
// grew) and stall (a stretch behind schedule or at a fraction of the rate, and its catch-up). Browser-safe;
// ./verdict.ts runs them beside the server-side rules and picks the headline.
import type { Category, Evidence, Finding } from "./verdict";
import type { Operations } from "../measurement/metrics";
import { latencyOf, throughputOf } from "../measurement/operations";
import { isPaced, PACE_THRESHOLDS, type PaceFacts, type PaceSpec, type PaceTrack } from "./pace";
import type { TelemetryWindow } from "./window";
import { doersOf as doersOfLabel, plural as pluralOf } from "../words";

/** The pace of the measured window, as the engine (or the live page) hands it to the verdict. */
export interface PaceInput {
  spec: PaceSpec;
  /** The paced operation's rate over the window, per second. */
  achievedPerSec: number;
  facts?: PaceFacts;
  /** Writes and reads per second over the window (consumers behind), unread at the end of the drain, e2e p50. */
  writePerSec?: number;
  readPerSec?: number;
  unreadAtEnd?: number;
  e2eP50Ms?: number;
  /** The paced operation's from-schedule latency p99 over the window, ms. */
  fromScheduleP99Ms?: number;
  /** The paced operation's mean latency over the window, ms (a closed loop's request time beside its think time). */
  meanLatencyMs?: number;
}

/**
 * The pace input of a finished window: the track's facts with the window's rates (a summary's counters, read by
 * the declared names), the consumer groups the reads sum, what was left unread after the drain.
 */
export function paceInputOf(track: PaceTrack, m: { operations: Operations }, o: { groups: number; unreadAtEnd?: number; meanLatencyMs?: number }): PaceInput {
  const s = track.spec;
  const mean = o.meanLatencyMs ?? latencyOf(m, s.operation)?.mean;
  const e2e = s.delivery ? latencyOf(m, s.delivery)?.p50 : undefined;
  const fromSchedule = s.scheduled ? latencyOf(m, s.scheduled)?.p99 : undefined;
  return {
    spec: s,
    achievedPerSec: throughputOf(m, s.operation)?.perSecond ?? 0,
    facts: track.result(),
    ...(s.backlog
      ? {
          writePerSec: throughputOf(m, "write")?.perSecond ?? 0,
          readPerSec: (throughputOf(m, "read")?.perSecond ?? 0) / Math.max(1, o.groups),
          ...(o.unreadAtEnd !== undefined ? { unreadAtEnd: o.unreadAtEnd } : {}),
        }
      : {}),
    ...(e2e !== undefined ? { e2eP50Ms: e2e } : {}),
    ...(fromSchedule !== undefined ? { fromScheduleP99Ms: fromSchedule } : {}),
    ...(mean !== undefined ? { meanLatencyMs: mean } : {}),
  };
}

/** A closed loop's users' share of each cycle spent thinking (think / (think + mean request time)), when known. */
export function thinkShare(pace: PaceInput | undefined): number | undefined {
  const s = pace?.spec;
  if (s?.kind !== "closed-loop" || !s.thinkMs || pace?.meanLatencyMs === undefined) return undefined;
  return s.thinkMs / (s.thinkMs + pace.meanLatencyMs);
}

const T = PACE_THRESHOLDS;
const ge = (what: string, value: number, threshold: number, unit: string): Evidence => ({ what, value, unit, threshold, cmp: "≥", holds: value >= threshold });
const lt = (what: string, value: number, threshold: number, unit: string): Evidence => ({ what, value, unit, threshold, cmp: "<", holds: value < threshold });
const fact = (what: string, value: number, unit: string): Evidence => ({ what, value, unit });
const none = (category: Category): Finding => ({ category, matched: false, evidence: [] });

/** The paced operation's items in words: "enqueue" → "enqueues", "all requests" → "requests". */
export const plural = (s: PaceSpec) => pluralOf(s.label.replace(/^all /, ""));

/** "enqueues achieved / rate asked": the evidence's first line, which the statement and tests look up. */
export const achievedWhat = (s: PaceSpec) => `${plural(s)} achieved / rate asked`;

/** rate-bound: the rate asked was met, with the server's headroom (active share and CPU, verdict.ts's thresholds). */
export function rateBound(
  pace: PaceInput | undefined,
  w: TelemetryWindow | undefined,
  serverCpuPct: number | undefined,
  headroom: { active: number; cpuPct: number },
): Finding {
  if (!pace) return none("rate-bound");
  const s = pace.spec;
  const thinking = thinkShare(pace);
  if (thinking !== undefined) return closedLoopBound(pace, thinking, w, serverCpuPct, headroom);
  if (!isPaced(s))
    return { category: "rate-bound", matched: false, evidence: [fact(`no rate asked (${s.kind}): ${plural(s)} achieved`, pace.achievedPerSec, `${s.unit}/s`)] };
  const target = s.targetPerSec!;
  const ev = [ge(achievedWhat(s), pace.achievedPerSec / target, T.rateAchieved, "ratio")];
  if (w) ev.push(lt("share of time the run's connections were active on the server", w.runActiveShare, headroom.active, "ratio"));
  if (serverCpuPct !== undefined) ev.push(lt("server processes' CPU, % of the host", serverCpuPct, headroom.cpuPct, "%"));
  ev.push(fact(`rate asked (${s.kind})`, target, `${s.unit}/s`), fact(`${plural(s)} achieved`, pace.achievedPerSec, `${s.unit}/s`));
  return { category: "rate-bound", matched: ev.every((e) => e.holds !== false), evidence: ev };
}

/**
 * A closed loop with think time asks no rate, but its load model sets one: N users each sending, then thinking.
 * When they spent most of each cycle thinking and the server had headroom, the users set the pace (rate-bound);
 * when the answers took most of it, something else did, and the other rules say what.
 */
function closedLoopBound(
  pace: PaceInput,
  thinking: number,
  w: TelemetryWindow | undefined,
  serverCpuPct: number | undefined,
  headroom: { active: number; cpuPct: number },
): Finding {
  const s = pace.spec;
  const ev = [ge("share of each user's cycle spent thinking", thinking, T.closedLoopThinkShare, "ratio")];
  if (w) ev.push(lt("share of time the run's connections were active on the server", w.runActiveShare, headroom.active, "ratio"));
  if (serverCpuPct !== undefined) ev.push(lt("server processes' CPU, % of the host", serverCpuPct, headroom.cpuPct, "%"));
  ev.push(
    fact("virtual users", s.virtualUsers ?? 0, "users"),
    fact("think time", s.thinkMs ?? 0, "ms"),
    fact(`${s.label} mean time`, pace.meanLatencyMs ?? 0, "ms"),
    fact(`${plural(s)} achieved`, pace.achievedPerSec, `${s.unit}/s`),
  );
  return { category: "rate-bound", matched: ev.every((e) => e.holds !== false), evidence: ev };
}

/** behind-schedule: the rate asked was missed; the evidence says how far behind its schedule the operation fell. */
export function behindSchedule(pace: PaceInput | undefined): Finding {
  if (!pace || !isPaced(pace.spec)) return none("behind-schedule");
  const s = pace.spec;
  const target = s.targetPerSec!;
  const ev = [lt(achievedWhat(s), pace.achievedPerSec / target, T.rateAchieved, "ratio")];
  ev.push(fact(`rate asked (${s.kind})`, target, `${s.unit}/s`), fact(`${plural(s)} achieved`, pace.achievedPerSec, `${s.unit}/s`));
  const f = pace.facts;
  if (f?.behindMaxMs !== undefined)
    ev.push(fact("furthest behind schedule", f.behindMaxMs, "ms"), fact("behind schedule at the window's end", f.behindEndMs ?? 0, "ms"));
  if (pace.fromScheduleP99Ms !== undefined) ev.push(fact(`${s.label} latency from schedule, p99`, pace.fromScheduleP99Ms, "ms"));
  return { category: "behind-schedule", matched: ev[0].holds === true, evidence: ev };
}

/** consumers-behind: the backlog grew through the window and held seconds of writes at its end. */
export function consumersBehind(pace: PaceInput | undefined): Finding {
  const f = pace?.facts;
  if (!pace?.spec.backlog || f?.backlogSlopePerSec === undefined || !pace.writePerSec) return none("consumers-behind");
  const unit = pace.spec.unit;
  const w = pace.writePerSec;
  const end = f.backlogEnd ?? 0;
  const ev = [
    ge("backlog growth / write rate", f.backlogSlopePerSec / w, T.backlogGrowthShare, "ratio"),
    ge("backlog at the window's end, in seconds of writes", end / w, T.backlogEndSeconds, "s"),
    ge("backlog at the window's end", end, T.backlogMin, unit),
    fact("backlog growth", f.backlogSlopePerSec, `${unit}/s`),
    fact("written", w, `${unit}/s`),
  ];
  if (pace.readPerSec !== undefined) ev.push(fact("read", pace.readPerSec, `${unit}/s`));
  if (pace.unreadAtEnd !== undefined) ev.push(fact("unread at the end of the drain", pace.unreadAtEnd, unit));
  if (pace.e2eP50Ms !== undefined) ev.push(fact("e2e p50", pace.e2eP50Ms, "ms"));
  return { category: "consumers-behind", matched: ev.every((e) => e.holds !== false), evidence: ev };
}

/** stall: the longest stretch behind schedule or at a fraction of the expected rate, with its time, size and catch-up. */
export function stall(pace: PaceInput | undefined): Finding {
  const st = pace?.facts?.stalls[0];
  if (!pace || !st) return none("stall");
  const unit = pace.spec.unit;
  const behind = ge("furthest behind schedule in it", st.maxBehindMs, T.stallBehindMs, "ms");
  const dip = lt("its lowest rate / the rate expected", st.expectedRate > 0 ? st.minRate / st.expectedRate : 1, T.stallRateShare, "ratio");
  // Either suffices (stallsOf found it by one of them); the other is context.
  if (behind.holds && !dip.holds) delete dip.holds;
  if (dip.holds && !behind.holds) delete behind.holds;
  const ev = [
    fact("stall start, into the measured window", st.startSec, "s"),
    fact("stall length", st.seconds, "s"),
    ...(isPaced(pace.spec) || st.maxBehindMs > 0 ? [behind] : []),
    dip,
    fact("rate expected", st.expectedRate, `${unit}/s`),
    fact("catch-up", st.catchUpSeconds, "s"),
    fact("catch-up peak", st.catchUpPeakRate, `${unit}/s`),
    fact("caught up by the window's end (1 yes, 0 no)", st.caughtUp ? 1 : 0, ""),
  ];
  if (pace.facts!.stalls.length > 1) ev.push(fact("stalls in the window", pace.facts!.stalls.length, ""));
  return { category: "stall", matched: true, evidence: ev };
}

/** How big a pace finding's effect is, to pick the headline between them: the share of the window's work it touched. */
export function paceStrength(f: Finding, pace: PaceInput | undefined): number {
  if (f.category === "consumers-behind") return f.evidence.find((e) => e.what === "backlog growth / write rate")?.value ?? 0;
  if (f.category === "stall") {
    const st = pace?.facts?.stalls[0];
    return st && pace?.facts?.seconds ? (st.seconds + st.catchUpSeconds) / pace.facts.seconds : 0;
  }
  return 0;
}

const pct = (x: number) => `${Math.round(x * 100)}%`;
const num = (x: number) => (Math.abs(x) >= 100 ? Math.round(x).toLocaleString("en-US") : String(Math.round(x * 10) / 10));
const secs = (ms: number) => `${num(ms / 1000)} s`;

/** Who does the paced operation under a throttle: "write" → "writers", "enqueue" → "enqueuers". */
export const doersOf = (s: PaceSpec) => doersOfLabel(s.label);

/** Who does the paced operation: the throttle's writers ("the enqueuers"), or an open loop's timetable. */
function doers(s: PaceSpec): string {
  return s.kind === "open-loop" ? `the open loop's ${plural(s)}` : `the ${doersOf(s)}`;
}

/** The statements of the pace categories; `limit` names a server-side or client limit that also held. */
export function paceStatement(category: Category, pace: PaceInput, w: TelemetryWindow | undefined, limit: string | undefined): string {
  const s = pace.spec;
  const f = pace.facts;
  const asked = `${num(pace.achievedPerSec)} of the ${num(s.targetPerSec ?? 0)} ${s.unit}/s asked`;
  switch (category) {
    case "rate-bound":
      if (s.kind === "closed-loop")
        return `rate-bound: the closed loop's ${num(s.virtualUsers ?? 0)} users set the pace, each thinking ${num(s.thinkMs ?? 0)} ms between ${plural(s)} that took ${num(pace.meanLatencyMs ?? 0)} ms on average (${num(pace.achievedPerSec)} ${s.unit}/s)${w ? `, and the run's connections were on the server only ${pct(w.runActiveShare)} of the time` : ""}: the server had headroom`;
      return `rate-bound: ${doers(s)} reached ${asked}${w ? `, and the run's connections were on the server only ${pct(w.runActiveShare)} of the time` : ""}: the server had headroom`;
    case "behind-schedule": {
      const behind = f?.behindMaxMs !== undefined ? `, up to ${secs(f.behindMaxMs)} behind schedule` : "";
      const who = limit
        ? `the limit was ${limit}`
        : `${doers(s)} did not keep up${w ? ` while the server had room (the run's connections active ${pct(w.runActiveShare)} of the time)` : ""}`;
      return `behind schedule: ${doers(s)} reached ${asked} (${pct(pace.achievedPerSec / (s.targetPerSec ?? 1))})${behind}: ${who}`;
    }
    case "consumers-behind": {
      const read = pace.readPerSec !== undefined ? `took ${num(pace.readPerSec)} of the ${num(pace.writePerSec ?? 0)} ${s.unit}/s written` : "";
      const tail = [
        `the backlog grew ${num(f?.backlogSlopePerSec ?? 0)} ${s.unit}/s to ${num(f?.backlogEnd ?? 0)} at the window's end`,
        ...(pace.unreadAtEnd !== undefined ? [`${num(pace.unreadAtEnd)} unread after the drain`] : []),
        ...(pace.e2eP50Ms !== undefined ? [`e2e p50 ${secs(pace.e2eP50Ms)}`] : []),
      ];
      return `consumers behind: ${read ? `the consumers ${read}; ` : ""}${tail.join(", ")}${limit ? ` (also: ${limit})` : ""}`;
    }
    case "stall": {
      const st = f!.stalls[0];
      const behind = st.maxBehindMs > 0 ? `, up to ${secs(st.maxBehindMs)} behind schedule` : "";
      const catchUp = !st.caughtUp
        ? "; not caught up by the window's end"
        : st.catchUpSeconds > 0
          ? `; caught up in ${num(st.catchUpSeconds)} s at up to ${num(st.catchUpPeakRate)} ${s.unit}/s`
          : "; back on schedule within the next second";
      return `stall: ${plural(s)} stalled ${num(st.startSec)} s into the measured window for ${num(st.seconds)} s (down to ${num(st.minRate)} ${s.unit}/s against ${num(st.expectedRate)})${behind}${catchUp}${f!.stalls.length > 1 ? ` (${f!.stalls.length} stalls in the window)` : ""}`;
    }
    default:
      return "";
  }
}
