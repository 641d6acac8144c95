// Keeps one child of `npm start` alive (the runner, the web app, the embedded Postgres): when it dies it is
// started again after a back-off (1 s, doubling up to 30 s while it keeps dying quickly), with a log line
// saying what died and how, until stop() is called. Waits check the clock: Node timers may fire early.

export interface Incarnation {
  /** Resolves with how it ended ("SIGKILL", "exit code 1") when the child is gone. */
  exited: Promise<string>;
  /** Stops it for good (in order, politely); resolves once it has exited. */
  stop(): Promise<void>;
}

export type PartState = { state: "starting" | "up" | "restarting" | "stopped"; detail: string; since: number };

export interface SupervisorOptions {
  name: string;
  /** Starts one incarnation; a rejection counts as a death (retried after the back-off). */
  start(): Promise<Incarnation>;
  /** Told at once when an incarnation died (before the back-off), e.g. to mark the runner's runs interrupted. */
  onDeath?(how: string): Promise<void> | void;
  onState?(s: PartState): void;
  log?(line: string): void;
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** An incarnation that lived this long resets the back-off to its minimum. */
  healthyAfterMs?: number;
  /**
   * A start failure that restarting cannot mend (a full disk): supervision ends there, the state says why, and
   * onGiveUp is told, instead of restarting forever with no word of the cause.
   */
  isFatal?(err: unknown): boolean;
  onGiveUp?(err: unknown): Promise<void> | void;
}

/** Sleeps until `ms` have passed on the clock (or `wake` resolves), re-arming early timer firings. */
export async function sleepUntil(deadline: number, wake?: Promise<unknown>) {
  let woken = false;
  void wake?.then(() => (woken = true));
  while (!woken && Date.now() < deadline) {
    await Promise.race([new Promise((r) => setTimeout(r, Math.max(deadline - Date.now(), 1))), ...(wake ? [wake] : [])]);
  }
}

export class Supervisor {
  private current: Incarnation | undefined;
  private stopping = false;
  private held = false;
  private wakeStop!: () => void;
  private readonly stopped = new Promise<void>((r) => (this.wakeStop = r));
  state: PartState = { state: "starting", detail: "starting", since: Date.now() };
  restarts = 0;
  /** Resolves once the first incarnation has started (or rejects with its error, for start-up to report). */
  readonly firstStart: Promise<void>;
  private readonly loop: Promise<void>;

  constructor(private readonly o: SupervisorOptions) {
    let first: { resolve: () => void; reject: (e: unknown) => void } | undefined;
    this.firstStart = new Promise((resolve, reject) => (first = { resolve, reject }));
    this.firstStart.catch(() => undefined);
    this.loop = this.run(first!);
  }

  private set(state: PartState["state"], detail: string) {
    this.state = { state, detail, since: Date.now() };
    this.o.onState?.(this.state);
  }

  private async run(first: { resolve: () => void; reject: (e: unknown) => void }) {
    const min = this.o.minBackoffMs ?? 1000;
    const max = this.o.maxBackoffMs ?? 30_000;
    const healthy = this.o.healthyAfterMs ?? 30_000;
    let backoff = min;
    let isFirst = true;
    while (!this.stopping) {
      const startedAt = Date.now();
      let how: string;
      try {
        this.current = await this.o.start();
        this.set("up", "running");
        if (isFirst) first.resolve();
        isFirst = false;
        how = await Promise.race([this.current.exited, this.stopped.then(() => "")]);
        if (this.stopping) return;
      } catch (err) {
        if (isFirst) return first.reject(err); // start-up reports it and gives up
        if (this.o.isFatal?.(err)) {
          this.current = undefined;
          this.set("stopped", (err as Error).message);
          this.o.log?.(`the ${this.o.name} could not be started again, and is not retried: ${(err as Error).message}`);
          await this.o.onGiveUp?.(err);
          return;
        }
        how = `could not start: ${(err as Error).message.split("\n").find((l) => l.trim()) ?? err}`;
      }
      this.current = undefined;
      if (this.stopping) return;
      if (this.held) return this.set("stopped", `the ${this.o.name} exited (${how}) while the product was stopping`);
      if (Date.now() - startedAt >= healthy) backoff = min;
      this.restarts++;
      this.set("restarting", `the ${this.o.name} stopped (${how}); restarting`);
      this.o.log?.(`the ${this.o.name} stopped unexpectedly (${how}); restarting it in ${(backoff / 1000).toFixed(0)} s (restart #${this.restarts})`);
      try {
        await this.o.onDeath?.(how);
      } catch (err) {
        this.o.log?.(`after the ${this.o.name} stopped: ${(err as Error).message.split("\n").find((l) => l.trim())}`);
      }
      await sleepUntil(Date.now() + backoff, this.stopped);
      backoff = Math.min(backoff * 2, max);
    }
  }

  /**
   * The product is shutting down and will stop this child in its turn: from now on an exit is not restarted. The
   * terminal's Ctrl-C reaches every child of the process group at once, so one may exit before its turn comes.
   */
  hold() {
    this.held = true;
  }

  /** Stops supervising and stops the child; resolves once it has exited. */
  async stop() {
    this.stopping = true;
    this.wakeStop();
    const c = this.current;
    await this.loop.catch(() => undefined);
    await (c ?? this.current)?.stop();
    this.set("stopped", "stopped");
  }
}
