// The coordinator's side of parts carried by other runners (issue #23): it opens a run_part row per part it does
// not fork, and each becomes a PartHandle whose link is the control store (./remote-store.ts) instead of an IPC
// channel: the coordinator's logic (./coordinator.ts) is the same for both. Here too: the wait for runners to take
// them (PARTS_WAIT_SECONDS), their carrying runners' heart-beats, and their clocks, measured against the target's.
import type pg from "pg";
import { PartHandle, type PartLink } from "./part-handles";
import type { ToPart } from "./protocol";
import { closeParts, connectStore, type ExitedMessage, openParts, PART_STALE_MS, PartMailbox, type PartRow, partRows, sql, wakeFor } from "./remote-store";
import { type ClockOffset, offsetToTarget } from "./target-clock";

/** Where the parts a runner does not fork itself go: its control store, the other runners sharing it. */
export interface RemotePartsOptions {
  controlUrl: string;
  /** RUNNER_MAX_LOCAL_PARTS: the parts this runner forks; the others are opened for other runners. */
  maxLocal: number;
  /** PARTS_WAIT_SECONDS: a part no runner took by then fails the run. */
  waitSeconds: number;
}

export interface RemoteCallbacks {
  runId: string;
  log: (line: string) => void;
  fail: (err: Error) => void;
  /** A part's message as it arrived (checked and handled as a forked part's). */
  onMessage: (p: PartHandle, raw: unknown) => void;
  /** A part's process ended (its runner says how). */
  onExit: (p: PartHandle, code: number | null, signal: NodeJS.Signals | null, tail: string[]) => void;
}

const WATCH_MS = 500;

export class RemoteParts {
  readonly handles: PartHandle[] = [];
  /** Resolves once a runner has claimed every part. */
  readonly allClaimed: Promise<void>;
  private resolveClaimed!: () => void;
  private readonly boxes = new Map<number, PartMailbox>();
  private readonly claimed = new Set<number>();
  private readonly openedAt = Date.now();
  private watch: NodeJS.Timeout | undefined;
  private failedAlready = false;
  private closed = false;
  /** This process's clock against the target's when the parts' clocks were measured. */
  private mineAtStart: ClockOffset | undefined;

  private constructor(
    private readonly c: pg.Client,
    private readonly cb: RemoteCallbacks,
    private readonly opts: RemotePartsOptions,
    private readonly of: number,
  ) {
    this.allClaimed = new Promise((r) => (this.resolveClaimed = r));
  }

  /** Opens the rows of parts `indexes` (of `of`) and starts watching them. */
  static async open(cb: RemoteCallbacks, indexes: number[], of: number, opts: RemotePartsOptions): Promise<RemoteParts> {
    let self: RemoteParts | undefined;
    const c = await connectStore(
      opts.controlUrl,
      (payload) => self?.wake(payload),
      (err) => cb.fail(new Error(`the control store connection that carries the remote parts was lost: ${err.message}`)),
    );
    self = new RemoteParts(c, cb, opts, of);
    await openParts(c, cb.runId, indexes, of);
    for (const index of indexes) self.add(index);
    cb.log(
      `waiting for ${partList(indexes)} of ${of} (this runner forks at most ${opts.maxLocal}: RUNNER_MAX_LOCAL_PARTS); ` +
        `any runner started with the same DATABASE_URL takes them`,
    );
    self.watch = setInterval(() => void self?.check(), WATCH_MS);
    return self;
  }

  private add(index: number) {
    const box = new PartMailbox(this.c, this.cb.runId, index);
    let open = true;
    const link: PartLink = {
      get connected() {
        return open && !handle.hasExited;
      },
      send: (m: ToPart, done) =>
        box.post(true, m).then(
          () => done(null),
          (err: Error) => done(err),
        ),
      // A process on another machine cannot be killed from here: its row is given up, and its runner stops it.
      kill: () => {
        open = false;
        void sql(
          this.c,
          "UPDATE run_part SET status = 'failed', error = coalesce(error, 'stopped by the coordinator') WHERE run_id = $1 AND part = $2 AND status NOT IN ('done', 'failed')",
          [this.cb.runId, index],
        ).catch(() => undefined);
        handle.closedWith(null, "SIGKILL");
      },
    };
    const handle = new PartHandle(index, link, undefined);
    handle.remote = true;
    handle.host = "(not taken yet)";
    this.boxes.set(index, box);
    this.handles.push(handle);
  }

  private wake(payload: string) {
    for (const p of this.handles) if (payload === wakeFor(this.cb.runId, p.index, false)) this.pump(p);
  }

  private pump(p: PartHandle) {
    this.boxes
      .get(p.index)
      ?.pump(false, (body) => {
        const b = body as { type?: string };
        if (b?.type !== "exited") return this.cb.onMessage(p, body);
        const e = body as ExitedMessage;
        this.cb.onExit(p, e.code, e.signal as NodeJS.Signals | null, e.tail);
      })
      .catch((err) => this.cb.log(`could not read part ${p.index}'s messages: ${(err as Error).message}`));
  }

  /** The rows' state: claims, the parts never taken, carrying runners that died or went silent. */
  private async check() {
    if (this.closed) return;
    let rows: PartRow[];
    try {
      rows = await partRows(this.c, this.cb.runId);
    } catch (err) {
      return this.cb.log(`could not read the run's parts: ${(err as Error).message}`);
    }
    for (const p of this.handles) this.pump(p);
    const open: number[] = [];
    for (const row of rows) {
      const p = this.handles.find((h) => h.index === row.part);
      if (!p) continue;
      if (row.status === "open") open.push(row.part);
      else this.noteClaim(p, row);
      const carrying = row.status === "claimed" || row.status === "ready" || row.status === "running";
      if (!carrying || p.isDone || p.hasExited) continue;
      const who = `${p.name()}, carried by runner ${row.runnerId}`;
      if (row.gone) this.failOnce(`${who}, was lost: that runner's control-store session ended (it died or lost the store)`);
      else if ((row.silentMs ?? 0) > PART_STALE_MS)
        this.failOnce(`${who}, was lost: that runner stopped heart-beating ${Math.round(row.silentMs! / 1000)} s ago`);
    }
    const waited = (Date.now() - this.openedAt) / 1000;
    if (open.length && waited > this.opts.waitSeconds)
      this.failOnce(
        `${partList(open)} of ${this.of} ${open.length === 1 ? "was" : "were"} never taken by a runner within ${this.opts.waitSeconds} s (PARTS_WAIT_SECONDS): ` +
          `start \`npm run runner\` with the same DATABASE_URL on another machine, or lower processes`,
        false,
      );
  }

  private noteClaim(p: PartHandle, row: PartRow) {
    if (row.pid && !p.isReady) p.pid = row.pid;
    if (row.host && !p.isReady) p.host = row.host;
    if (this.claimed.has(p.index)) return;
    this.claimed.add(p.index);
    this.cb.log(`part ${p.index} taken by runner ${row.runnerId} on host ${row.host}`);
    if (this.claimed.size === this.handles.length) this.resolveClaimed();
  }

  private failOnce(what: string, merged = true) {
    if (this.failedAlready) return;
    this.failedAlready = true;
    this.cb.fail(new Error(merged ? `${what}; a run's figures are merged from every part, so the run failed` : what));
  }

  /**
   * Each part's clock minus this process's: the part's against the target (measured where it runs, in its row)
   * minus this process's against the target, with both uncertainties added.
   */
  async measureClocks(targetUrl: string): Promise<void> {
    const mine: ClockOffset = await offsetToTarget(targetUrl);
    this.mineAtStart = mine;
    const rows = await partRows(this.c, this.cb.runId);
    for (const p of this.handles) {
      const row = rows.find((r) => r.part === p.index);
      if (row?.targetOffsetMs == null) throw new Error(`${p.name()} became ready without its clock against the target's`);
      p.clockOffsetMs = row.targetOffsetMs - mine.offsetMs;
      p.clockUncertaintyMs = (row.uncertaintyMs ?? 0) + mine.uncertaintyMs;
    }
  }

  /**
   * Once every part is done: how far each part's clock moved against this one's over the run, from both clocks
   * against the target's measured again (the part's by its runner as its load ended, this one's now). The
   * correction was applied once, at the start; this is what was left of it at the end. A part whose end reading
   * is missing (its runner could not measure it) has none.
   */
  async measureDrift(targetUrl: string): Promise<void> {
    if (!this.mineAtStart) return;
    const mine = await offsetToTarget(targetUrl);
    const rows = await partRows(this.c, this.cb.runId);
    for (const p of this.handles) {
      const row = rows.find((r) => r.part === p.index);
      if (row?.targetOffsetMs == null || row.targetOffsetEndMs == null) continue;
      p.clockDriftMs = row.targetOffsetEndMs - row.targetOffsetMs - (mine.offsetMs - this.mineAtStart.offsetMs);
    }
  }

  /** Records the start barrier and each part's applied clock offset in its row. */
  async recordStart(atMs: number): Promise<void> {
    for (const p of this.handles)
      await sql(
        this.c,
        "UPDATE run_part SET start_at = to_timestamp($3 / 1000.0), clock_offset_ms = $4, clock_uncertainty_ms = $5 WHERE run_id = $1 AND part = $2",
        [this.cb.runId, p.index, atMs, p.clockOffsetMs, p.clockUncertaintyMs],
      );
  }

  /** Gives up the parts not done (no runner takes them any more) and drops the run's messages. */
  async close(reason: string): Promise<void> {
    this.closed = true;
    clearInterval(this.watch);
    await closeParts(this.c, this.cb.runId, reason).catch((err) => this.cb.log(`could not close the run's parts: ${(err as Error).message}`));
    await this.c.end().catch(() => undefined);
  }
}

/** "part 1" or "parts 2, 3". */
export const partList = (indexes: number[]) => `${indexes.length === 1 ? "part" : "parts"} ${indexes.join(", ")}`;
