// The DBOS scripts' load model: an open loop on a fixed timetable. Unit k (a batch of inserts, a workflow) is
// due at start + k/rate whatever the database answers; the study launched each as a task that then waited
// for one of its pooled connections. Here one loop per connection takes the next due unit, so at most
// `connections` units are in flight and the rest wait their turn in timetable order, exactly as the study's
// tasks queued in pool.acquire(), without holding a task per waiting unit (the timetable is arithmetic).
// Latency from the scheduled time therefore includes that wait, as the study's batch latency did.
//
// At the end of the measured window the timetable stops: units due before then still run (the study waited
// for every launched task), and the drain time, last completion minus the timetable's end, is what the
// study printed: "> 0 means the database could not keep up". A drain longer than MAX_DRAIN_SECONDS is cut
// off: units still waiting then are not run, counted and noted.
import { MAX_DRAIN_SECONDS } from "../../lib/workloads/config";
import { type TargetClient, clock, sleepUntil, Throttle } from "../../runner/core";
import type { WorkloadContext } from "../runtime";

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
  private readonly timetable: Throttle;
  private started = 0;
  private stopAt = Number.POSITIVE_INFINITY;
  private lastDone = 0;
  private startedAtStop = 0;
  private cutOff = false;
  private ran = 0;
  private startAt = 0;
  private loops: Promise<void>[] = [];

  constructor(
    private readonly ctx: Pick<WorkloadContext<never>, "writersStop" | "readersStop">,
    /** Units per second (a batch of 10 inserts at 1,000 inserts/s: 100). */
    private readonly unitsPerSecond: number,
    /** Runs one unit on a connection; `due` is its scheduled time (clock ms). Handles its own errors;
     *  returns false when the loop must end (its connection is lost). */
    private readonly runUnit: (tc: TargetClient, due: number) => Promise<boolean>,
  ) {
    this.timetable = new Throttle(unitsPerSecond);
  }

  start(clients: TargetClient[]) {
    this.startAt = clock();
    this.timetable.begin(this.startAt);
    // Woken by stop() itself, before any loop's I/O resumes: the timetable's end is the moment of the stop.
    void (async () => {
      while (!this.ctx.writersStop.stopped) await this.ctx.writersStop.sleep(3_600_000);
      this.ended();
    })();
    this.loops = clients.map((tc) => this.loop(tc));
  }

  private ended(): number {
    if (this.stopAt === Number.POSITIVE_INFINITY) {
      this.stopAt = clock();
      this.startedAtStop = this.started;
    }
    return this.stopAt;
  }

  private async loop(tc: TargetClient) {
    for (;;) {
      // A cancel or a failure stops the readers too: then nothing more runs, not even what is due.
      if (this.ctx.readersStop.stopped || tc.lost) return;
      const due = this.timetable.next(1);
      const end = this.ctx.writersStop.stopped ? this.ended() : Number.POSITIVE_INFINITY;
      if (due >= end) return this.timetable.done(due);
      await sleepUntil(due, this.ctx.writersStop);
      // Woken by the stop before this unit was due: it is after the timetable's end.
      if (clock() < due) return this.timetable.done(due);
      if (this.ctx.writersStop.stopped && clock() > this.ended() + MAX_DRAIN_SECONDS * 1000) {
        this.cutOff = true;
        return this.timetable.done(due);
      }
      this.started++;
      let go = true;
      try {
        go = await this.runUnit(tc, due);
      } finally {
        this.timetable.done(due);
      }
      this.ran++;
      this.lastDone = clock();
      if (!go) return;
    }
  }

  done(): Promise<void> {
    return Promise.all(this.loops).then(() => undefined);
  }

  /** How far behind the timetable the loops are now, in ms (the oldest due unit not finished). */
  behindMs(): number {
    return this.timetable.behindMs(clock());
  }

  result(): OpenLoopResult {
    const stopped = this.stopAt !== Number.POSITIVE_INFINITY;
    // Units due by the end: the timetable's count up to it (unit k is due at start + k/rate, k from 1).
    const dueByEnd = stopped ? Math.floor(((this.stopAt - this.startAt) * this.unitsPerSecond) / 1000 + 1e-9) : this.started;
    return {
      ran: this.ran,
      notRun: Math.max(0, dueByEnd - this.started),
      waitingAtEnd: stopped ? Math.max(0, dueByEnd - this.startedAtStop) : 0,
      drainSeconds: stopped ? Math.max(0, this.lastDone - this.stopAt) / 1000 : null,
      cutOff: this.cutOff,
    };
  }
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
