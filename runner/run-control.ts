// A run's failure plumbing, the same for the engine's own run (runner/engine.ts) and for each part of a run over
// several processes (runner/parts/part-main.ts): the first failure (a cancel, a lost or silent connection, a loop's
// error, a stop from the coordinator) is kept, wakes the phase clock and stops the loops; steps race it or check it.
// Also the catch-up watch every paced load keeps (ScheduleWatch), built one way for both.
import { definitionOf, pacingOf, type WorkloadConfig } from "../lib/workloads/config";
import { lostConnection } from "../lib/targets/pgurl";
import { paceSpecOf } from "../lib/telemetry/pace";
import { doersOf, plural } from "../lib/telemetry/pace-rules";
import { runRoles, type WorkloadRun } from "../workloads/runtime";
import { writeBatchOf } from "../workloads/types";
import { type LivenessOptions, LivenessWatch } from "./pg/liveness";
import type { LostWatch, TargetClient } from "./core/pg/pgclient";
import { ScheduleWatch } from "./core/schedule-watch";
import { clock, Pause, Stopper, type Throttle } from "./core/timing";

/** After a stop, loops get this long to finish their statement before it is cancelled (or their connection closed). */
export const STOP_GRACE_MS = 700;
/** The longest a statement that cancels the loops' statements may wait for the target, once the run is stopping. */
const STOP_QUERY_MS = 2000;
/** A loop that lost its connection in a run that reconnects gives up (and fails the run) after this long without a new one. */
export const RECONNECT_GIVE_UP_MS = 30_000;
/** Its first wait between tries, doubled after each up to RECONNECT_MAX_WAIT_MS. */
const RECONNECT_FIRST_WAIT_MS = 50;
const RECONNECT_MAX_WAIT_MS = 2000;

export class RunControl {
  readonly writersStop = new Stopper();
  readonly readersStop = new Stopper();
  /** Closed while a pause-workers phase lasts (runner/phases/): the consumers wait at it. */
  readonly readersPause = new Pause();
  /** Woken on a failure, so the phase clock (runner/load.ts) reacts at once. */
  readonly phaseSleep = new Stopper();
  /** Every connection of the run is watched for silence: a target that stops answering fails the run, naming it. */
  readonly liveness: LivenessWatch;
  /** Rejects with the first failure, to race set-up steps against. */
  readonly failed: Promise<never>;
  private first: Error | undefined;
  private rejectFailed: (e: Error) => void = () => undefined;
  /** Set once the run closes its connections on purpose: a connection ending then is no loss. */
  closing = false;
  /**
   * Set before the loops' connections open when the run's phases take connections from under them (kill-backend:
   * lib/phases/shape.ts RECONNECT_KINDS): a loop that loses its connection then reconnects (reconnect()) instead of
   * failing the run. Every other connection of the run (admin, telemetry) still fails it when lost.
   */
  reconnects = false;
  /** How many times the run's loops got a new connection after losing one: the summary's note says so. */
  reconnections = 0;
  /** How long a loop tries to reconnect before the run fails (RECONNECT_GIVE_UP_MS; a test shortens it). */
  reconnectGiveUpMs = RECONNECT_GIVE_UP_MS;
  /** Set while a restart-target phase has the target down (throughOutage): every connection's loss is expected. */
  private outage = false;
  /** Run after each outage, once the target answers again: what reopens the run's other connections. */
  private readonly afterOutage: (() => Promise<void>)[] = [];

  constructor(
    private readonly targetUrl: string,
    liveness?: LivenessOptions,
  ) {
    this.failed = new Promise<never>((_, rej) => (this.rejectFailed = rej));
    this.failed.catch(() => undefined);
    this.liveness = new LivenessWatch(targetUrl, (err) => this.fail(err), liveness);
  }

  /** The run's first failure, if any. */
  get failure(): Error | undefined {
    return this.first;
  }

  /** Fails the run (the first failure wins): stops the loops and wakes the phase clock. */
  readonly fail = (err: Error): void => {
    this.first ??= err;
    this.rejectFailed(this.first);
    this.writersStop.stop();
    this.readersStop.stop();
    this.phaseSleep.stop();
  };

  /** Throws the run's failure, if any. */
  readonly check = (): void => {
    if (this.first) throw this.first;
  };

  /** A promise whose rejection fails the run (a loop's end). */
  failOn(p: Promise<unknown>): void {
    p.catch((e) => this.fail(e instanceof Error ? e : new Error(String(e))));
  }

  /** The watch every connection of the run is opened with: losing one fails the run at once, naming it; except
   *  while the run restarts its target (throughOutage), after which it is opened again (onOutageEnd). */
  readonly watch: LostWatch = {
    closing: () => this.closing,
    track: (tc) => this.liveness.add(tc),
    onLost: (tc, err) => {
      if (!this.outage) this.fail(new Error(lostConnection(tc.role, this.targetUrl, err), { cause: err }));
    },
  };

  /** What to do after each outage of the target, in the order told (the admin connection reopened, its locks re-taken). */
  onOutageEnd(fn: () => Promise<void>): void {
    this.afterOutage.push(fn);
  }

  /**
   * Takes the target down and up again (`down`, a restart-target phase): meanwhile a lost connection does not fail
   * the run and the liveness watch does not probe (a target restarting is not one that stopped answering); then,
   * once `down` is done (the target answers), each onOutageEnd step reopens what it must. A step that cannot fails
   * the run, naming it. Resolves with what `down` did; throws what kept it from doing it (after the steps all the same).
   */
  async throughOutage<T>(down: () => Promise<T>): Promise<T> {
    // A run that failed or was cancelled since its phase came due does not take its target down any more.
    if (this.first) throw new Error(`not carried out: the run was ending (${this.first.message})`);
    this.outage = true;
    this.liveness.hold(true);
    // A restart that failed (the target may be down) is why what follows it fails: the run's failure names it first.
    let downFailed: Error | undefined;
    try {
      return await down().catch((err: Error) => {
        downFailed = err;
        throw err;
      });
    } finally {
      try {
        for (const fn of this.afterOutage) await fn();
      } catch (err) {
        const after = (err as Error).message;
        this.fail(
          new Error(downFailed ? `the target's restart failed: ${downFailed.message}; then ${after}` : `after the target's restart: ${after}`, {
            cause: err,
          }),
        );
      } finally {
        this.outage = false;
        this.liveness.hold(false);
      }
    }
  }

  /** The watch the loops' connections are opened with: as `watch`, but in a run that reconnects a loop's lost
   *  connection is its loop's to find (its statement fails) and reopen, not the run's end. */
  readonly loopWatch: LostWatch = {
    closing: () => this.closing,
    track: (tc) => this.liveness.add(tc),
    onLost: (tc, err) => {
      if (!this.reconnects) this.watch.onLost(tc, err);
    },
  };

  /**
   * A new connection for a loop whose connection was lost, in a run that reconnects: tried at once, then after a
   * back-off doubling from 50 ms to 2 s, until it opens (true), the loop's `stop` stops or the run fails (false), or
   * RECONNECT_GIVE_UP_MS pass without the target taking one: the run then fails, in words, naming the loop.
   */
  readonly reconnect = async (tc: TargetClient, stop: Stopper): Promise<boolean> => {
    const opened = await this.reopen(tc, stop);
    if (opened) this.reconnections++;
    return opened;
  };

  /**
   * As `reconnect`, for a connection of the run's own rather than a loop's (its admin session after a restart), so
   * not counted among the loops' reconnections; with no `stop`, it tries until it opens, the run fails or gives up.
   */
  async reopen(tc: TargetClient, stop: Stopper = new Stopper()): Promise<boolean> {
    const since = clock();
    let wait = RECONNECT_FIRST_WAIT_MS;
    for (;;) {
      if (stop.stopped || this.first) return false;
      try {
        await tc.reconnect();
        return true;
      } catch (err) {
        if (clock() - since >= this.reconnectGiveUpMs) {
          const why = `${tc.role} lost its connection and the target took no new one for ${this.reconnectGiveUpMs / 1000} s: ${(err as Error).message}`;
          this.fail(new Error(why, { cause: err }));
          return false;
        }
      }
      await stop.sleep(wait);
      wait = Math.min(wait * 2, RECONNECT_MAX_WAIT_MS);
    }
  }

  /**
   * Stops every loop: politely first; those still in a statement after STOP_GRACE_MS have it cancelled on the
   * server through `admin` when there is one (the engine's), else are left to their connections' closing (a part's).
   */
  async stopLoops(run: WorkloadRun | undefined, admin?: TargetClient, loops: readonly TargetClient[] = []): Promise<void> {
    this.writersStop.stop();
    this.readersStop.stop();
    if (!run) return;
    const done = Promise.all([run.writersDone().catch(() => undefined), runRoles.readersDone(run).catch(() => undefined)]);
    const timedOut = await Promise.race([done.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), STOP_GRACE_MS))]);
    if (!timedOut || !admin || admin.lost || !loops.length) return;
    // Bounded: on a target that stopped answering this would wait for ever (the liveness watch then destroys the
    // connections, and the loops end on that).
    const cancelled = admin.client.query("SELECT pg_cancel_backend(pid) FROM unnest($1::int[]) AS pid", [loops.map((c) => c.pid)]);
    await Promise.race([cancelled.catch(() => undefined), new Promise((r) => setTimeout(r, STOP_QUERY_MS))]);
    await Promise.race([done, new Promise((r) => setTimeout(r, 500))]);
  }
}

/**
 * The catch-up watch of a paced load (null unpaced), in the workload's own words. Its slack: one batch in flight
 * per writer, plus one batch of rounding.
 */
export function scheduleWatchOf(config: WorkloadConfig, throttle: Throttle | null, writers: number): ScheduleWatch | null {
  if (!throttle) return null;
  const spec = paceSpecOf(pacingOf(config), definitionOf(config).metrics);
  const words = { unit: spec.unit, items: plural(spec), doers: doersOf(spec) };
  return new ScheduleWatch(throttle.perSecond, (writers + 1) * writeBatchOf(definitionOf(config), config), words);
}
