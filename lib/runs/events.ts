// The live event stream of one run (GET /api/runs/:id/events), as Server-Sent Events:
//   id: <seq> / event: sample / data: <Sample JSON>     one per stored sample, in seq order
//   event: status / data: {status, phase, error, …}     at connect and whenever the run's status/phase changes
//   event: end / data: {status}                         once the run is final and every sample was sent
//   event: problem / data: {message}                    a read failed, or this viewer fell too far behind: it reconnects
// Every viewer of a run is served by the run's one hub (lib/runs/live-hub.ts), which polls the control store every
// 250 ms while anyone watches: the runner writes one sample per second, so a sample reaches the browser within
// ~250 ms + one round trip of being written (the bound is 1.5 s), and the store's work does not grow with
// the number of viewers. Resuming with Last-Event-ID = the last seq received sends exactly the samples after it: no
// gap, no duplicate (older than the hub's ring: read from the store in batches first, then joined to the hub).
import { prisma, type PrismaClient } from "../db";
import { storeErrorText } from "../status/health";
import { acquireHub, frame, type Frame, type HubListener, type HubOptions, type RunHub, sampleFrame } from "./live-hub";

/** Bytes a viewer may leave unread before it is dropped with a `problem` telling it to reconnect. */
export const VIEWER_QUEUE_BYTES = 512 * 1024;
/** What the stream buffers ahead of a reader before a replay waits for it (and Next's pipe stops pulling). */
const HIGH_WATER_BYTES = 64 * 1024;

export interface RunEventOptions {
  db?: PrismaClient;
  /** Aborted when the client goes away (the route passes request.signal). */
  signal?: AbortSignal;
  pollMs?: number;
  /** A comment line after this much silence keeps proxies from closing an idle stream. */
  heartbeatMs?: number;
  /**
   * How long a hole in the seq numbers is waited for before it is skipped. Holes only appear if a later
   * sample commits before an earlier one; waiting keeps a resumed stream from jumping past a sample forever.
   */
  gapWaitMs?: number;
  /** Rows per query: bounds memory when a long finished run is replayed from the start. */
  batch?: number;
  /** Unread bytes after which this viewer is dropped (default VIEWER_QUEUE_BYTES). */
  maxQueuedBytes?: number;
  /** A replay waits this long for the reader to take a batch before the viewer is dropped (default 60 s). */
  stallMs?: number;
  /** The hub's ring of recent events (events and bytes); a viewer resuming from older than that reads the store. */
  ringEvents?: number;
  ringBytes?: number;
}

/** Last-Event-ID header, else `?after=`; -1 (from the start) when neither is a whole number. */
export function resumeAfter(lastEventId: string | null, afterParam: string | null): number {
  for (const v of [lastEventId, afterParam]) {
    if (v != null && /^-?\d+$/.test(v.trim())) return Number(v.trim());
  }
  return -1;
}

/**
 * `?after=` as a client typed it: null when absent or a sample's sequence number (an integer, -1 for "from the
 * start"), else what is wrong with it. A mistyped value (`after=NaN`, `after=1.5`) is refused, never read as the
 * start: a client resuming from it would silently get every sample again.
 */
export function afterParamProblem(afterParam: string | null): string | null {
  if (afterParam === null || /^\s*-?\d+\s*$/.test(afterParam)) return null;
  return `after=${JSON.stringify(afterParam).slice(1, -1)} is not a sample's sequence number: give the seq of the last sample received (an integer; -1 or none for the start)`;
}

const enc = new TextEncoder();
const KEEP_ALIVE = enc.encode(": keep-alive\n\n");

/** The run's hub as these options ask for it, each unset one at its default. */
function hubOptionsOf(opts: RunEventOptions): HubOptions {
  return {
    db: opts.db ?? prisma(),
    pollMs: opts.pollMs ?? 250,
    gapWaitMs: opts.gapWaitMs ?? 1000,
    batch: opts.batch ?? 1000,
    ringEvents: opts.ringEvents ?? 300,
    ringBytes: opts.ringBytes ?? 4 * 1024 * 1024,
  };
}

export function runEventStream(runId: string, afterSeq: number, opts: RunEventOptions = {}): ReadableStream<Uint8Array> {
  const hubOpts = hubOptionsOf(opts);
  const heartbeatMs = opts.heartbeatMs ?? 15_000;
  const maxQueued = opts.maxQueuedBytes ?? VIEWER_QUEUE_BYTES;
  const stallMs = opts.stallMs ?? 60_000;

  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let hub: RunHub | undefined;
  let closed = false;
  let roomWaiter: (() => void) | null = null;
  let after = afterSeq;
  let sentStatus: string | undefined;
  let lastWrite = Date.now();

  const close = () => {
    if (closed) return;
    closed = true;
    roomWaiter?.();
    hub?.release(listener);
    try {
      controller.close();
    } catch {
      /* already closed or cancelled by the client */
    }
  };
  const write = (bytes: Uint8Array) => {
    if (closed) return;
    try {
      controller.enqueue(bytes);
      lastWrite = Date.now();
    } catch {
      close(); // the client went away between two writes
    }
  };
  /** Sends a frame unless this viewer has it already (a sample at or before `after`, the same status). */
  const send = (f: Frame) => {
    if (f.kind === "status") {
      if (f.key === sentStatus) return;
      sentStatus = f.key;
    } else if (f.seq !== undefined) {
      if (f.seq <= after) return;
      after = f.seq;
    }
    write(f.bytes);
  };
  const queuedBytes = () => HIGH_WATER_BYTES - (controller.desiredSize ?? 0);
  /**
   * Resolves true once the reader has taken what was queued (pull), so a replay never piles up in memory; false
   * if it has not within stallMs (the viewer is then dropped, as a live one that stops reading is).
   */
  const room = () =>
    closed || (controller.desiredSize ?? 0) > 0
      ? Promise.resolve(true)
      : new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), stallMs);
          timer.unref?.(); // a stalled stream alone does not keep a process alive
          roomWaiter = () => {
            clearTimeout(timer);
            resolve(true);
          };
        });
  const problem = (message: string) => write(frame("problem", { message }).bytes);
  /** Drops this viewer with a problem saying why; EventSource reconnects and resumes from the store. */
  const fellBehind = (stalled: boolean) => {
    const unread = `${Math.round(queuedBytes() / 1024)} KiB unread`;
    const why = stalled ? `read nothing for ${stallMs / 1000} s (${unread})` : `fell behind (${unread}, the limit is ${Math.round(maxQueued / 1024)} KiB)`;
    problem(`this viewer ${why}: reconnect to resume from the last sample received`);
    close();
  };
  const listener: HubListener = {
    deliver(frames) {
      for (const f of frames) send(f);
      if (frames.some((f) => f.kind === "end")) return close();
      // The hub never waits for a viewer: one that does not read is cut off, never held in memory without end.
      if (queuedBytes() > maxQueued) fellBehind(false);
    },
    fail(message) {
      problem(message);
      close();
    },
    tick(now) {
      if (now - lastWrite >= heartbeatMs) write(KEEP_ALIVE);
    },
  };

  /** Sends what the store holds after `after` up to the hub's ring, in batches the reader takes one by one. */
  const catchUp = async (h: RunHub) => {
    while (!closed && !h.failure && after < h.ringFloor) {
      if (!(await room())) return fellBehind(true);
      const floor = h.ringFloor;
      const rows = await hubOpts.db.sample.findMany({
        where: { runId, seq: { gt: after, lte: floor } },
        orderBy: { seq: "asc" },
        take: hubOpts.batch,
      });
      for (const row of rows) send(sampleFrame(row));
      // The hub skipped any hole below its ring already; a short batch means everything up to the floor was sent.
      if (rows.length < hubOpts.batch) after = Math.max(after, floor);
    }
  };

  const serve = async () => {
    // EventSource reconnects after this many ms if the connection drops.
    write(enc.encode("retry: 1000\n\n"));
    const h = acquireHub(runId, hubOpts);
    hub = h;
    if (closed) return h.release(listener);
    await h.ready;
    try {
      // Status first, then samples.
      if (h.statusFrame) send(h.statusFrame);
      await catchUp(h);
      if (!closed && !(await room())) return fellBehind(true);
    } catch (err) {
      // The control store went away mid-stream: say so; EventSource reconnects and resumes from the last id.
      problem(`reading the run failed: ${storeErrorText(err)}`);
      return close();
    }
    if (closed) return;
    if (h.failure) return listener.fail(h.failure);
    if (!h.join(listener, after) && !closed) close();
  };

  opts.signal?.addEventListener("abort", close, { once: true });
  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        if (opts.signal?.aborted) close(); // the client left before the stream started
        // Not awaited: pull (below) is only called once start has returned.
        void serve();
      },
      pull() {
        const w = roomWaiter;
        roomWaiter = null;
        w?.();
      },
      cancel() {
        close();
      },
    },
    { highWaterMark: HIGH_WATER_BYTES, size: (chunk) => chunk.byteLength },
  );
}
