// Fields the DBOS workloads share (browser-safe): the target rate of the open loop, the connections it may
// use, and the timing fields every workload has.
import { field, timingFields } from "../fields";
import { ownedCount, type PartsDef, type Pacing, type RateKnob } from "../types";

/** The open loop's target rate, in `unit` per second (the study's --rps). */
export const rateField = (unit: string, what: string) =>
  field({
    name: "rate",
    label: "Target rate",
    unit: `${unit}/s`,
    hint: `${what} on a fixed timetable, whatever the database answers (open loop)`,
    control: "int",
    min: 1,
    max: 10_000_000,
    default: 1000,
    group: "load",
    cli: { flag: "rate", ours: true, help: `target rate in ${unit}/s, on a fixed timetable (the study's --rps)` },
    compareLabel: `Target rate (${unit}/s)`,
  });

/** The open loop's pacing (runner/core/open-loop.ts): `operation` started at the target rate on a fixed timetable. */
export const openLoopPacing = (c: { rate: number }, unit: string, operation: string): Pacing => ({
  kind: "open-loop",
  targetPerSecond: c.rate,
  unit,
  operation,
});

/** The open loop's target rate as the knob a ceiling search raises. */
export const openLoopKnob = (): RateKnob => ({ fields: ["rate"], set: (c, perSecond) => ({ ...c, rate: perSecond }) });

export const connectionsField = field({
  name: "connections",
  label: "Connections",
  hint: "the pool the timetable's work waits for; at most this many in flight",
  control: "int",
  min: 1,
  max: 1000,
  default: 32,
  group: "load",
  cli: { flag: "connections", ours: true, help: "connections (the study's processes × pool size); due work waits for a free one" },
  compareLabel: "Connections",
});

/** Warm-up, measured window and the CLI's report interval (no payload or write throttle: these workloads have their own). */
export { timingFields };

export const timingParts = (c: { durationSeconds: number }) => [`${c.durationSeconds.toLocaleString("en-US")} s measured`];

/**
 * How an open-loop DBOS run splits over runner processes: each part runs the timetable at rate / N (the study
 * ran several benchmark processes the same way) on the connections it owns by index ("conn 3" in every part).
 */
export const connectionParts = <C extends { connections: number }>(): PartsDef<C> => ({
  unit: "connection",
  field: "connections",
  max: (c) => c.connections,
  share: (_c, part) => 1 / part.of,
});

/**
 * Queued workflows over runner processes: each part owns enqueuers and workers by index and enqueues its
 * enqueuers' share of the rate; every part needs one of each, so the fewer of the two limits the split.
 */
export const queuedParts = <C extends { enqueuers: number; workers: number }>(): PartsDef<C> => ({
  unit: (c) => (c.enqueuers <= c.workers ? "enqueuer" : "worker"),
  field: (c) => (c.enqueuers <= c.workers ? "enqueuers" : "workers"),
  max: (c) => Math.min(c.enqueuers, c.workers),
  share: (c, part) => ownedCount(c.enqueuers, part) / c.enqueuers,
});
