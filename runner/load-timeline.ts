// Where a load's start instant comes from and where its seconds are cut (runner/load.ts runLoad's timeline).
// A run in one process keeps its own time: the load starts now, each second ends a second after the previous one
// ended, and the measured window lasts its duration from when the warm-up actually ended. The parts of a run over
// several processes share the coordinator's timeline: the load starts at its barrier, seconds end at the
// timeline's whole seconds (the coordinator pairs the parts' seconds by them, so each is cut once, however late)
// and the phases end at fixed instants of it. Each caller keeps its behaviour from before the two were one.
import { clock } from "./core/timing";

export interface LoadTimeline {
  /** Waits for the load's start and returns its instant (clock ms). */
  start(): Promise<number>;
  /** Where the measured window ends, the warm-up having been due to end at `warmupEnd`. */
  measureEnd(warmupEnd: number, durationMs: number): number;
  /** When the next second is due to end (clock ms). */
  due(): number;
  /** Whether to cut the second due at `due` now, woken at `t`, in a phase ending at `end`. */
  cutsAt(t: number, due: number, end: number): boolean;
  /** A second was cut: at `slotAt` on the timeline, the clock reading `at` once it was. */
  cut(slotAt: number, at: number): void;
  /** Whether the phase's last interval, ending at `end`, is still to cut. */
  lastOpen(end: number): boolean;
  /** The phase ended at `end`. */
  phaseEnded(end: number): void;
}

/** One process's own time: the load starts now; a second ends one second after the previous one was cut. */
export function ownTimeline(): LoadTimeline {
  let last = 0;
  return {
    start: async () => (last = clock()),
    measureEnd: (_warmupEnd, durationMs) => clock() + durationMs,
    due: () => last + 1000,
    // Woken past the phase's end: its last interval (cut at the end) takes that time.
    cutsAt: (t, _due, end) => t < end,
    cut: (_slot, at) => {
      last = at;
    },
    lastOpen: () => true,
    phaseEnded: () => undefined,
  };
}

/**
 * The shared timeline of a run's parts: the load starts at `barrier()`'s instant; seconds end at its whole seconds
 * and at the phases' ends, each slot cut once (a part whose event loop was late still sends each slot, late).
 */
export function sharedTimeline(barrier: () => Promise<number>): LoadTimeline {
  /** The next whole second of the timeline (clock ms): seconds are cut there, however late the last cut was. */
  let tickDue = Number.POSITIVE_INFINITY;
  /** The last slot cut: a slot is cut once, never twice. */
  let lastCut = Number.NEGATIVE_INFINITY;
  return {
    start: async () => {
      const at = await barrier();
      tickDue = at + 1000;
      return at;
    },
    measureEnd: (warmupEnd, durationMs) => warmupEnd + durationMs,
    due: () => tickDue,
    cutsAt: (_t, due, end) => due < end,
    cut: (slotAt) => {
      lastCut = slotAt;
      if (slotAt === tickDue) tickDue += 1000;
    },
    // A drain's end that arrived after this part cut that slot: that second is sent already (what was read since
    // is in this part's totals, not in a second).
    lastOpen: (end) => end > lastCut,
    phaseEnded: (end) => {
      while (tickDue <= end) tickDue += 1000;
    },
  };
}
