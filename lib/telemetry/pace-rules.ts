// The verdict's rules about the run's own pace (./pace.ts gathers their numbers): rate-bound (the rate asked was
// met with the server's headroom), behind-schedule (it was not: who fell behind), consumers-behind (the backlog
// grew) and stall (a stretch behind schedule or at a fraction of the rate, and its catch-up). Browser-safe;
// ./verdict-rules-pace.ts makes them verdict rules beside the others, and ./verdict.ts picks the headline.
import type { Category, Evidence, Finding } from "./verdict-shape";
import type { Operations } from "../measurement/metrics";
import { latencyOf, throughputOf } from "../measurement/operations";
import { type ConsumerPolls, isPaced, PACE_THRESHOLDS, type PaceInput, type PaceSpec, type PaceTrack } from "./pace";
import type { TelemetryWindow } from "./window";
import { doersOf as doersOfLabel, plural as pluralOf } from "../words";

export type { ConsumerPolls, PaceInput } from "./pace";

/** The consumers' polls from a window's latencies (PaceSpec.consumer names them) over `seconds`, or undefined. */
export function consumerPolls(spec: PaceSpec, m: { operations: Operations }, readers: number, seconds: number): ConsumerPolls | undefined {
  const c = spec.consumer;
  if (!c || readers <= 0 || seconds <= 0) return undefined;
  const claim = latencyOf(m, c.claim);
  const read = latencyOf(m, c.read);
  const items = throughputOf(m, c.read)?.count ?? 0;
  if (!claim?.count || !read?.count) return undefined;
  // The queue's read times its whole dequeue transaction, claim included: its empty polls add their claims only.
  const ms = c.readIncludesClaim
    ? read.count * read.mean + Math.max(claim.count - read.count, 0) * claim.mean
    : claim.count * claim.mean + read.count * read.mean;
  return { readers, claimsPerSec: claim.count / seconds, msPerClaim: ms / claim.count, itemsPerClaim: items / read.count };
}

/**
 * The pace input of a finished window: the track's facts with the window's rates (a summary's counters, read by
 * the declared names), the consumer groups the reads sum, what was left unread after the drain.
 */
export function paceInputOf(track: PaceTrack, m: { operations: Operations }, o: { groups: number; unreadAtEnd?: number; readers?: number }): PaceInput {
  const s = track.spec;
  const e2e = s.delivery ? latencyOf(m, s.delivery)?.p50 : undefined;
  const fromSchedule = s.scheduled ? latencyOf(m, s.scheduled)?.p99 : undefined;
  const facts = track.result();
  const consumers = o.readers ? consumerPolls(s, m, o.readers, facts.seconds) : undefined;
  return {
    spec: s,
    achievedPerSec: throughputOf(m, s.operation)?.perSecond ?? 0,
    facts,
    ...(consumers ? { consumers } : {}),
    ...(s.backlog
      ? {
          writePerSec: throughputOf(m, "write")?.perSecond ?? 0,
          readPerSec: (throughputOf(m, "read")?.perSecond ?? 0) / Math.max(1, o.groups),
          ...(o.unreadAtEnd !== undefined ? { unreadAtEnd: o.unreadAtEnd } : {}),
        }
      : {}),
    ...(e2e !== undefined ? { e2eP50Ms: e2e } : {}),
    ...(fromSchedule !== undefined ? { fromScheduleP99Ms: fromSchedule } : {}),
  };
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
/** A closed loop with think time: "requests achieved / rate the think time offers". */
export const offeredWhat = (s: PaceSpec) => `${plural(s)} achieved / rate the think time offers`;

/** The rate a run is held against and its evidence's words: the rate asked, or a closed loop's offered rate. */
export function judgedRate(s: PaceSpec): { perSec: number; what: string; words: string; offered: boolean } | undefined {
  if (isPaced(s)) return { perSec: s.targetPerSec!, what: achievedWhat(s), words: `rate asked (${s.kind})`, offered: false };
  const o = s.offered;
  return o
    ? { perSec: o.perSec, what: offeredWhat(s), words: `rate offered: ${o.virtualUsers} virtual users ÷ ${o.thinkMs} ms think time`, offered: true }
    : undefined;
}

/** rate-bound: the rate asked was met, with the server's headroom (active share and CPU, verdict-evidence.ts's thresholds). */
export function rateBound(
  pace: PaceInput | undefined,
  w: TelemetryWindow | undefined,
  serverCpuPct: number | undefined,
  headroom: { active: number; cpuPct: number },
): Finding {
  if (!pace) return none("rate-bound");
  const s = pace.spec;
  const rate = judgedRate(s);
  if (!rate)
    return { category: "rate-bound", matched: false, evidence: [fact(`no rate asked (${s.kind}): ${plural(s)} achieved`, pace.achievedPerSec, `${s.unit}/s`)] };
  const ev = [ge(rate.what, pace.achievedPerSec / rate.perSec, T.rateAchieved, "ratio")];
  if (w) ev.push(lt("share of time the run's connections were active on the server", w.runActiveShare, headroom.active, "ratio"));
  if (serverCpuPct !== undefined) ev.push(lt("server processes' CPU, % of the host", serverCpuPct, headroom.cpuPct, "%"));
  ev.push(fact(rate.words, rate.perSec, `${s.unit}/s`), fact(`${plural(s)} achieved`, pace.achievedPerSec, `${s.unit}/s`));
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

/**
 * The consumers' round trips set their pace: they fell behind (consumers behind held), and each reader's claims
 * filled its time with round trips (claims a second per reader × time a claim ≥ roundTripBusyShare of the
 * second) at a few items a claim: larger batches (where the workload has them) or more readers would raise it.
 */
export function consumerRoundTrips(pace: PaceInput | undefined, w?: TelemetryWindow): { holds: boolean; evidence: Evidence[] } {
  const c = pace?.consumers;
  if (!pace || !c) return { holds: false, evidence: [] };
  const unit = pace.spec.unit;
  const perReader = c.claimsPerSec / c.readers;
  // A claim whose time grew through the window is slowed by something else (a held snapshot's dead tuples): a
  // round trip's cost is flat.
  const first = pace.facts?.firstThird?.claimP50Ms;
  const last = pace.facts?.lastThird?.claimP50Ms;
  const ev = [
    ge("a reader's time in its claims' round trips (claims/s per reader × time a claim)", (perReader * c.msPerClaim) / 1000, T.roundTripBusyShare, "ratio"),
    lt(`${unit} a claim`, c.itemsPerClaim, T.roundTripItemsPerClaim, unit),
    ...(first && last !== undefined ? [lt("the claim's latency p50, last third / first third", last / first, T.slowLatencyFactor, "ratio")] : []),
    // A claim that is the server's time (the run's connections busy on it: a WAL flush, a lock, a scan) is not a
    // round trip's cost: more items a claim would not shorten it.
    ...(w ? [lt("share of time the run's connections were active on the server", w.runActiveShare, T.roundTripServerShare, "ratio")] : []),
    fact("claims per reader", perReader, "/s"),
    fact("time a claim (its round trips)", c.msPerClaim, "ms"),
    fact("readers", c.readers, "readers"),
  ];
  return { holds: consumersBehind(pace).matched && ev.every((e) => e.holds !== false), evidence: ev };
}

const msWords = (ms: number) => `${ms < 10 ? ms.toFixed(2) : num(ms)} ms`;

/** "the readers' round trips set their pace: each of the 4 readers made 1,300 claims/s × 0.74 ms a claim …: larger read batches …". */
export function roundTripWords(pace: PaceInput): string {
  const c = pace.consumers!;
  const perReader = c.claimsPerSec / c.readers;
  const who = c.readers === 1 ? "the one reader" : `each of the ${num(c.readers)} readers`;
  const flag = pace.spec.consumer?.batchFlag;
  const fix = flag ? `larger read batches (--${flag}) or more readers` : "more readers";
  return `the readers' round trips set their pace: ${who} made ${num(perReader)} claims/s × ${msWords(c.msPerClaim)} a claim = ${pct((perReader * c.msPerClaim) / 1000)} of its time in round trips, ${num(c.itemsPerClaim)} ${pace.spec.unit} a claim: ${fix} would raise it`;
}

/** stall: the longest stretch behind schedule or at a fraction of the expected rate, with its time, size and catch-up. */
export function stall(pace: PaceInput | undefined): Finding {
  const st = pace?.facts?.stalls[0];
  if (!pace || !st) return none("stall");
  const unit = pace.spec.unit;
  // How far behind schedule only where it was measured: a 0 would read as "on schedule".
  const behind = st.maxBehindMs !== undefined ? ge("furthest behind schedule in it", st.maxBehindMs, T.stallBehindMs, "ms") : undefined;
  const dip = lt("its lowest rate / the rate expected", st.expectedRate > 0 ? st.minRate / st.expectedRate : 1, T.stallRateShare, "ratio");
  // Either suffices (stallsOf found it by one of them); the other is context.
  if (behind?.holds && !dip.holds) delete dip.holds;
  if (dip.holds && behind && !behind.holds) delete behind.holds;
  const ev = [
    fact("stall start, into the measured window", st.startSec, "s"),
    fact("stall length", st.seconds, "s"),
    ...(behind ? [behind] : []),
    dip,
    fact("rate expected", st.expectedRate, `${unit}/s`),
    fact("catch-up", st.catchUpSeconds, "s"),
    fact("catch-up peak", st.catchUpPeakRate, `${unit}/s`),
    ...(st.caughtUp !== undefined ? [fact("caught up by the window's end (1 yes, 0 no)", st.caughtUp ? 1 : 0, "")] : []),
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

/**
 * The statements of the pace categories; `limit` names a server-side or client limit that also held. `why` false:
 * behind schedule's numbers without who is to blame (beside another pace effect, which is the headline's story).
 */
export function paceStatement(category: Category, pace: PaceInput, w: TelemetryWindow | undefined, limit: string | undefined, why = true): string {
  const s = pace.spec;
  const f = pace.facts;
  const asked = `${num(pace.achievedPerSec)} of the ${num(s.targetPerSec ?? 0)} ${s.unit}/s asked`;
  switch (category) {
    case "rate-bound": {
      const o = s.offered && !isPaced(s) ? s.offered : undefined;
      const reached = o
        ? `the ${num(o.virtualUsers)} virtual users reached ${num(pace.achievedPerSec)} of the ${num(o.perSec)} ${s.unit}/s their ${num(o.thinkMs)} ms think time offers`
        : `${doers(s)} reached ${asked}`;
      return `rate-bound: ${reached}${w ? `, and the run's connections were on the server only ${pct(w.runActiveShare)} of the time` : ""}: ${o ? "the think time set the rate, " : ""}the server had headroom`;
    }
    case "behind-schedule": {
      const behind = f?.behindMaxMs !== undefined ? `, up to ${secs(f.behindMaxMs)} behind schedule` : "";
      const who = limit
        ? `the limit was ${limit}`
        : `${doers(s)} did not keep up${w ? ` while the server had room (the run's connections active ${pct(w.runActiveShare)} of the time)` : ""}`;
      return `behind schedule: ${doers(s)} reached ${asked} (${pct(pace.achievedPerSec / (s.targetPerSec ?? 1))})${behind}${why ? `: ${who}` : ""}`;
    }
    case "consumers-behind": {
      const read = pace.readPerSec !== undefined ? `took ${num(pace.readPerSec)} of the ${num(pace.writePerSec ?? 0)} ${s.unit}/s written` : "";
      const tail = [
        `the backlog grew ${num(f?.backlogSlopePerSec ?? 0)} ${s.unit}/s to ${num(f?.backlogEnd ?? 0)} at the window's end`,
        ...(pace.unreadAtEnd !== undefined ? [`${num(pace.unreadAtEnd)} unread after the drain`] : []),
        ...(pace.e2eP50Ms !== undefined ? [`e2e p50 ${secs(pace.e2eP50Ms)}`] : []),
      ];
      // Their round trips, when they set the consumers' pace, are the cause: said first.
      const cause = consumerRoundTrips(pace, w).holds ? `${roundTripWords(pace)}; ` : "";
      return `consumers behind: ${cause}${read ? `the consumers ${read}; ` : ""}${tail.join(", ")}${limit ? ` (also: ${limit})` : ""}`;
    }
    case "stall": {
      const st = f!.stalls[0];
      const behind =
        st.maxBehindMs === undefined
          ? isPaced(s)
            ? ", how far behind schedule not measured"
            : ""
          : st.maxBehindMs > 0
            ? `, up to ${secs(st.maxBehindMs)} behind schedule`
            : "";
      // Caught up only where being back on schedule was measured; otherwise the seconds above the usual rate, as such.
      const catchUp =
        st.caughtUp === false
          ? "; not caught up by the window's end"
          : st.caughtUp === undefined
            ? st.catchUpSeconds > 0
              ? `; then ${num(st.catchUpSeconds)} s above the rate expected, at up to ${num(st.catchUpPeakRate)} ${s.unit}/s`
              : ""
            : st.catchUpSeconds > 0
              ? `; caught up in ${num(st.catchUpSeconds)} s at up to ${num(st.catchUpPeakRate)} ${s.unit}/s`
              : "; back on schedule within the next second";
      // "Down to" only for a dip: a stall found behind schedule may have run at its usual rate or above.
      const dipped = st.minRate < T.stallRateShare * st.expectedRate;
      const down = dipped ? ` (down to ${num(st.minRate)} ${s.unit}/s against ${num(st.expectedRate)})` : "";
      return `stall: ${plural(s)} stalled ${num(st.startSec)} s into the measured window for ${num(st.seconds)} s${down}${behind}${catchUp}${f!.stalls.length > 1 ? ` (${f!.stalls.length} stalls in the window)` : ""}`;
    }
    default:
      return "";
  }
}
