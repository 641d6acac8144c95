// One source per live run, fanned out in memory to all its viewers (GET /api/runs/:id/events, lib/runs/events.ts).
//
// Why polling and not LISTEN/NOTIFY: the control store may be any Postgres (DATABASE_URL) and samples are written
// by the runner or by the CLI's `--save`; a NOTIFY would need a trigger or a change in every writer, and a missed
// notification (a reconnect) would still need a poll to repair. One poll per run every 250 ms costs the same
// whatever the number of viewers: a few transactions per second per run (one batched transaction a tick: status,
// then the new samples), which the API's Prisma pool carries without starving `GET /api/runs`.
//
// The hub keeps a bounded ring of the run's latest events, each encoded once and shared by every viewer. A viewer
// whose Last-Event-ID is older than the ring reads the gap from the store itself in bounded batches, then joins.
// The hub polls only while someone holds it (a viewer attached or catching up) and stops once the run is final.
import type { PrismaClient } from "../db";
import { FINAL_STATUSES, type RunStatus } from "../measurement/metrics";
import { storeErrorText } from "../status/health";
import { waitingForParts } from "./waiting";
import { toSample } from "./view";

export interface HubOptions {
  db: PrismaClient;
  pollMs: number;
  /** How long a hole in the seq numbers is waited for before it is skipped (a later sample committed first). */
  gapWaitMs: number;
  /** Rows per query. */
  batch: number;
  /** The ring of recent events: at most this many events and this many bytes. */
  ringEvents: number;
  ringBytes: number;
}

/** One SSE event, encoded once. `seq` is set on sample events (and on the problem that stands for an unreadable sample). */
export interface Frame {
  kind: "sample" | "status" | "end" | "problem";
  bytes: Uint8Array;
  seq?: number;
  /** Status frames: what the status was, to send a viewer each change once. */
  key?: string;
}

/** What the hub hands its viewers: the frames of one tick, or its failure. */
export interface HubListener {
  deliver(frames: Frame[]): void;
  /** The hub's read failed: the viewer says so and closes (EventSource reconnects and resumes). */
  fail(message: string): void;
  /** Called once a tick, to keep an idle stream from being closed by proxies. */
  tick(now: number): void;
}

const enc = new TextEncoder();

export function frame(kind: Frame["kind"], data: unknown, seq?: number): Frame {
  const id = seq !== undefined && kind === "sample" ? `id: ${seq}\n` : "";
  return { kind, seq, bytes: enc.encode(`${id}event: ${kind}\ndata: ${JSON.stringify(data)}\n\n`) };
}

/** A stored sample as the frame every viewer gets; a sample this version cannot read is named, never skipped silently. */
export function sampleFrame(row: Parameters<typeof toSample>[0]): Frame {
  const s = toSample(row);
  if (s) return frame("sample", s, s.seq);
  const f = frame("problem", {
    message: `sample ${row.seq} of this run does not match the sample schema (lib/measurement/sample.ts) and is not shown`,
  });
  return { ...f, seq: row.seq };
}

const STATUS_FIELDS = {
  ...{ status: true, phase: true, error: true, startedAt: true, finishedAt: true, cancelRequested: true },
  // Parts opened for other runners that none has taken yet (runner/parts/remote-parts.ts).
  parts: { where: { status: "open" }, select: { part: true, parts: true }, orderBy: { part: "asc" } },
} as const;

export class RunHub {
  /** Every sample with seq in (ringFloor, frontier] that the store holds is in the ring (holes waited for, then skipped). */
  ringFloor = -1;
  frontier = -1;
  /** The ring, oldest first. */
  private ring: Frame[] = [];
  private ringSize = 0;
  statusFrame: Frame | null = null;
  /** Set once the run is final (or deleted) and every sample is in: the hub has stopped polling. */
  endFrame: Frame | null = null;
  /** Set when a read failed: the hub has stopped and left the registry. */
  failure: string | null = null;
  /** Resolves after the first read (or its failure). */
  readonly ready: Promise<void>;
  /** Polls made so far (tests). */
  polls = 0;

  private holders = 0;
  private listeners = new Set<HubListener>();
  private gapSince: number | null = null;
  released = false;
  private wake: (() => void) | null = null;

  constructor(
    readonly runId: string,
    readonly opts: HubOptions,
    private readonly onRelease: (hub: RunHub) => void,
  ) {
    this.ready = this.poll(true).then(
      (full) => void this.follow(full),
      (err) => this.fail(err),
    );
  }

  /** True while the hub reads the store: someone holds it, the run is not final and no read failed. */
  get polling(): boolean {
    return !this.released && !this.endFrame && !this.failure;
  }

  /** Viewers attached to the live fan-out (not counting those still catching up from the store). */
  get viewers(): number {
    return this.listeners.size;
  }

  hold() {
    this.holders++;
  }

  /** A viewer left (or finished): the last one stops the polling and removes the hub. */
  release(listener?: HubListener) {
    if (listener) this.listeners.delete(listener);
    this.holders = Math.max(0, this.holders - 1);
    if (this.holders > 0 || this.released) return;
    this.released = true;
    this.wake?.();
    this.onRelease(this);
  }

  /**
   * Joins a viewer that has everything up to `after` (which must be ≥ ringFloor): hands it the status, the ring's
   * events after that, synchronously, then every later tick's. Returns false if the hub has ended or failed (the
   * end or the failure was delivered).
   */
  join(listener: HubListener, after: number): boolean {
    if (after < this.ringFloor) throw new Error(`viewer at ${after} joined a ring that starts after ${this.ringFloor}`);
    const frames = [...(this.statusFrame ? [this.statusFrame] : []), ...this.ring.filter((f) => f.seq! > after)];
    if (this.endFrame) frames.push(this.endFrame);
    listener.deliver(frames);
    if (this.failure) listener.fail(this.failure);
    if (!this.polling) return false;
    this.listeners.add(listener);
    return true;
  }

  /** Polls every pollMs (at once after a full batch) until released, final or failed. */
  private async follow(full: boolean) {
    while (this.polling) {
      if (!full) await this.sleep(this.opts.pollMs);
      if (!this.polling) return;
      try {
        full = await this.poll(false);
      } catch (err) {
        this.fail(err);
        return;
      }
    }
  }

  private fail(err: unknown) {
    this.failure = `reading the run failed: ${storeErrorText(err)}`;
    for (const l of this.listeners) l.fail(this.failure);
    this.listeners.clear();
    this.onRelease(this); // a reconnect starts a fresh hub
  }

  private sleep(ms: number) {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }

  /** One read: status first, then samples, so a run seen final here had written all its samples already. */
  private async poll(first: boolean): Promise<boolean> {
    const { db, batch } = this.opts;
    const runId = this.runId;
    // The first read takes the run's latest samples (newest first) to fill the ring; later reads the new ones.
    const samples = first
      ? db.sample.findMany({ where: { runId }, orderBy: { seq: "desc" }, take: Math.min(batch, this.opts.ringEvents) })
      : db.sample.findMany({ where: { runId, seq: { gt: this.frontier } }, orderBy: { seq: "asc" }, take: batch });
    const [run, rows] = await db.$transaction([db.run.findUnique({ where: { id: runId }, select: STATUS_FIELDS }), samples]);
    this.polls++;
    if (this.released) return false;
    if (first) {
      rows.reverse();
      if (rows.length) this.ringFloor = this.frontier = rows[0].seq - 1;
    }
    const frames: Frame[] = [];
    if (!run) {
      this.endFrame = frame("end", { status: "deleted" });
      frames.push(this.endFrame);
      this.publish(frames);
      return false;
    }
    const final = FINAL_STATUSES.includes(run.status as RunStatus);
    const status = {
      status: run.status,
      phase: run.phase,
      error: run.error,
      cancelRequested: run.cancelRequested,
      startedAt: run.startedAt?.toISOString() ?? null,
      finishedAt: run.finishedAt?.toISOString() ?? null,
      waitingForParts: final ? null : waitingForParts(run.parts),
    };
    const key = JSON.stringify(status);
    if (key !== this.statusFrame?.key) {
      this.statusFrame = { ...frame("status", status), key };
      frames.push(this.statusFrame);
    }
    let held = false;
    for (const row of rows) {
      // Seqs start at 0 (runner/engine.ts), so a fresh run also waits for a missing first one.
      if (row.seq !== this.frontier + 1 && !final) {
        this.gapSince ??= Date.now();
        if (Date.now() - this.gapSince < this.opts.gapWaitMs) {
          held = true;
          break;
        }
      }
      this.gapSince = null;
      const f = sampleFrame(row);
      this.keep(f);
      frames.push(f);
      this.frontier = row.seq;
    }
    const full = rows.length === batch && !held;
    if (final && !full && !held) {
      this.endFrame = frame("end", { status: run.status });
      frames.push(this.endFrame);
    }
    this.publish(frames);
    return full;
  }

  private keep(f: Frame) {
    this.ring.push(f);
    this.ringSize += f.bytes.byteLength;
    while (this.ring.length > 1 && (this.ring.length > this.opts.ringEvents || this.ringSize > this.opts.ringBytes)) {
      const old = this.ring.shift()!;
      this.ringSize -= old.bytes.byteLength;
      this.ringFloor = old.seq!;
    }
  }

  private publish(frames: Frame[]) {
    const now = Date.now();
    for (const l of [...this.listeners]) {
      if (frames.length) l.deliver(frames);
      l.tick(now);
    }
    // Nothing more to read; the registry drops the hub when its last holder leaves.
    if (this.endFrame) this.listeners.clear();
  }
}

// One hub per run in this process (kept on globalThis, as lib/db.ts keeps its client, so that a module loaded
// twice by the bundler still shares them).
const registry = globalThis as unknown as { __pgbbRunHubs?: Map<string, RunHub> };
const hubs = (registry.__pgbbRunHubs ??= new Map());

/** The run's hub, started if none is live; the caller holds it until `release`. */
export function acquireHub(runId: string, opts: HubOptions): RunHub {
  let hub = hubs.get(runId);
  if (!hub || hub.failure || hub.released) {
    hub = new RunHub(runId, opts, (h) => {
      if (hubs.get(runId) === h) hubs.delete(runId);
    });
    hubs.set(runId, hub);
  }
  hub.hold();
  return hub;
}

/** Hubs alive in this process (tests; the benchmark). */
export function liveHubs(): RunHub[] {
  return [...hubs.values()];
}
