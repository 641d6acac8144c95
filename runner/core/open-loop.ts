// The engine core's open loop with a drain (the DBOS scripts' load model): a fixed timetable. Unit k (a batch
// of inserts, a workflow) is due at start + k/rate whatever the database answers; the study launched each as a task that then waited
// for one of its pooled connections. Here one loop per connection takes the next due unit, so at most
// `connections` units are in flight and the rest wait their turn in timetable order, exactly as the study's
// tasks queued in pool.acquire(), without holding a task per waiting unit (the timetable is arithmetic).
// Latency from the scheduled time therefore includes that wait, as the study's batch latency did.
//
// At the end of the measured window the timetable stops: units due before then still run (the study waited
// for every launched task), and the drain time, last completion minus the timetable's end, is what the
// study printed: "> 0 means the database could not keep up". A drain longer than MAX_DRAIN_SECONDS is cut
// off: units still waiting then are not run, counted and noted.
import { MAX_DRAIN_SECONDS } from "../../lib/run-time";
import { type Pacer, Slot } from "./pacing";
import type { TargetClient } from "./pg/pgclient";
import type { Stopper } from "./timing";

export interface OpenLoopResult {
  /** Units run to their end (successfully or not). */
  ran: number;
  /** Due before the timetable ended but not run: the drain was cut off, or the run was cancelled. */
  notRun: number;
  /** Units due by the end of the timetable and not yet started then. */
  waitingAtEnd: number;
  /** Last completion − end of the timetable, in s (0 when nothing ran after it); null before the end. */
  drainSeconds: number | null;
  cutOff: boolean;
}

export class OpenLoop {
  private started = 0;
  private stopAt = Number.POSITIVE_INFINITY;
  private lastDone = 0;
  private startedAtStop = 0;
  private cutOff = false;
  private ran = 0;
  private loops: Promise<void>[] = [];

  constructor(
    /** The run's pacer: its open-loop timetable (items per second) and its clock. */
    private readonly pacer: Pacer,
    private readonly ctx: { writersStop: Stopper; readersStop: Stopper },
    /** Items in one unit (a batch of 10 inserts: 10): unit k is due at start + k × itemsPerUnit / rate. */
    private readonly itemsPerUnit: number,
    /** Runs one unit on a connection; `slot.due` is its scheduled time (clock ms), `slot.answered` times an item
     *  from it. Handles its own errors; returns false when the loop must end (its connection is lost). */
    private readonly runUnit: (tc: TargetClient, slot: Slot) => Promise<boolean>,
  ) {
    if (!pacer.timetable) throw new Error(`an open loop needs an open-loop pacing with a rate (this run is paced "${pacer.pacing.kind}")`);
  }

  private get timetable() {
    return this.pacer.timetable!;
  }

  private get unitsPerSecond() {
    return this.timetable.perSecond / this.itemsPerUnit;
  }

  /** Starts one loop per connection; the timetable started at the pacer's begin (the load's start). */
  start(clients: TargetClient[]) {
    // Woken by stop() itself, before any loop's I/O resumes: the timetable's end is the moment of the stop.
    void (async () => {
      while (!this.ctx.writersStop.stopped) await this.ctx.writersStop.sleep(3_600_000);
      this.ended();
    })();
    this.loops = clients.map((tc, i) => this.loop(tc, i));
  }

  private ended(): number {
    if (this.stopAt === Number.POSITIVE_INFINITY) {
      this.stopAt = this.pacer.clock.now();
      this.startedAtStop = this.started;
    }
    return this.stopAt;
  }

  private async loop(tc: TargetClient, index: number) {
    const slot = new Slot(index, this.pacer);
    const now = () => this.pacer.clock.now();
    for (;;) {
      // A cancel or a failure stops the readers too: then nothing more runs, not even what is due.
      if (this.ctx.readersStop.stopped || tc.lost) return;
      const due = this.timetable.next(this.itemsPerUnit, index);
      const end = this.ctx.writersStop.stopped ? this.ended() : Number.POSITIVE_INFINITY;
      if (due >= end) return this.timetable.done(due);
      await this.pacer.clock.sleepUntil(due, this.ctx.writersStop);
      // Woken by the stop before this unit was due: it is after the timetable's end.
      if (now() < due) return this.timetable.done(due);
      if (this.ctx.writersStop.stopped && now() > this.ended() + MAX_DRAIN_SECONDS * 1000) {
        this.cutOff = true;
        return this.timetable.done(due);
      }
      this.started++;
      slot.due = due;
      let go = true;
      try {
        go = await this.runUnit(tc, slot);
      } finally {
        this.timetable.done(due);
      }
      this.ran++;
      this.lastDone = now();
      if (!go) return;
    }
  }

  done(): Promise<void> {
    return Promise.all(this.loops).then(() => undefined);
  }

  /** How far behind the timetable the loops are now, in ms (the oldest due unit not finished). */
  behindMs(): number {
    return this.timetable.behindMs(this.pacer.clock.now());
  }

  result(): OpenLoopResult {
    const stopped = this.stopAt !== Number.POSITIVE_INFINITY;
    // Units due by the end: the timetable's count up to it (unit k is due at start + k/rate, k from 1).
    const dueByEnd = stopped ? Math.floor(((this.stopAt - this.pacer.startedAt) * this.unitsPerSecond) / 1000 + 1e-9) : this.started;
    return {
      ran: this.ran,
      notRun: Math.max(0, dueByEnd - this.started),
      waitingAtEnd: stopped ? Math.max(0, dueByEnd - this.startedAtStop) : 0,
      drainSeconds: stopped ? Math.max(0, this.lastDone - this.stopAt) / 1000 : null,
      cutOff: this.cutOff,
    };
  }
}

/** The open loop of a run over several processes: every part's units added, the latest drain, cut off if one was. */
export function mergeOpenLoopResults(results: readonly OpenLoopResult[]): OpenLoopResult {
  const drains = results.map((r) => r.drainSeconds).filter((d): d is number => d !== null);
  return {
    ran: results.reduce((n, r) => n + r.ran, 0),
    notRun: results.reduce((n, r) => n + r.notRun, 0),
    waitingAtEnd: results.reduce((n, r) => n + r.waitingAtEnd, 0),
    drainSeconds: drains.length ? Math.max(...drains) : null,
    cutOff: results.some((r) => r.cutOff),
  };
}

/** The summary's notes on the drain, in the study's words. */
export function drainNotes(r: OpenLoopResult, unit: string): string[] {
  if (r.drainSeconds === null) return [];
  const out = [
    `drain time ${r.drainSeconds.toFixed(3)} s (> 0 means the database could not keep up): the last ${unit} finished that long after the timetable ended; ${r.waitingAtEnd.toLocaleString("en-US")} ${unit}(s) were due and still waiting for a connection when it ended`,
  ];
  if (r.notRun > 0)
    out.push(
      `${r.notRun.toLocaleString("en-US")} ${unit}(s) due before the timetable ended were never run (${r.cutOff ? `the drain was cut off after ${MAX_DRAIN_SECONDS} s` : "the run stopped"})`,
    );
  return out;
}
