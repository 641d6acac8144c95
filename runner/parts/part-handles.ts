// The coordinator's handle on one part process: what it said (ready, pongs, samples, done), how it ended, and the
// stop of every part at the run's end (politely, then SIGKILL: no part process is ever left behind).
import os from "node:os";
import type { PartSample } from "../../lib/measurement/parts";
import { clock } from "../core/timing";
import type { FromPart, ToPart } from "./protocol";

export type DoneMessage = Extract<FromPart, { type: "done" }>;

/**
 * How the coordinator reaches a part: the forked child itself (a ChildProcess), or a part carried by another runner
 * through the control store (./remote-parts.ts), which can be told things but not killed from here.
 */
export interface PartLink {
  readonly connected: boolean;
  send(m: ToPart, done: (err: Error | null) => void): unknown;
  kill(signal: NodeJS.Signals): unknown;
}

export class PartHandle {
  /** Its process id (a remote part's once its runner forked it: 0 until then). */
  pid: number;
  /** Carried by another runner through the control store (its clock is measured against the target's). */
  remote = false;
  /** Where it runs (its `ready` says; this host until then for a forked part, the claiming runner's for a remote one). */
  host = os.hostname();
  backendPids: number[] = [];
  isReady = false;
  isDone = false;
  hasExited = false;
  /** What it said when it failed. */
  error: string | undefined;
  /** Its last lines of output, for an exit before it could say anything. */
  readonly tail: string[] = [];
  clockOffsetMs = 0;
  clockUncertaintyMs = 0;
  /** A remote part's clock drift against this one's over the run (RemoteParts.measureDrift), once measured. */
  clockDriftMs: number | undefined;
  /** Its seconds not merged yet, by their slot on the timeline (ms after the barrier). */
  readonly samples = new Map<number, PartSample>();
  lastSampleAt = 0;
  /** Its writers have finished: the slot of the last second it sent before (its seconds after it are whole drain seconds). */
  writersDoneAfter: number | undefined;
  private lastSlot = Number.NEGATIVE_INFINITY;
  onSample: ((slotMs: number) => void) | undefined;
  result: DoneMessage | undefined;
  readonly ready: Promise<void>;
  readonly done: Promise<void>;
  readonly closed: Promise<void>;
  private resolveReady!: () => void;
  private resolveDone!: () => void;
  private resolveClosed!: () => void;
  private pings = new Map<number, (partClock: number) => void>();

  constructor(
    readonly index: number,
    readonly link: PartLink,
    pid: number | undefined,
  ) {
    this.pid = pid ?? 0;
    this.ready = new Promise((r) => (this.resolveReady = r));
    this.done = new Promise((r) => (this.resolveDone = r));
    this.closed = new Promise((r) => (this.resolveClosed = r));
  }

  name(): string {
    return `part ${this.index} (pid ${this.pid} on host ${this.host})`;
  }

  /** Sends a message if the channel is still open (a part that exited cannot be told anything). */
  send(m: ToPart): void {
    if (!this.link.connected) return;
    this.link.send(m, (err) => {
      if (err) this.tail.push(`could not be sent a ${m.type}: ${err.message}`);
    });
  }

  markReady(pid: number, host: string, backendPids: number[]) {
    this.host = host;
    this.pid = pid;
    this.backendPids = backendPids;
    this.isReady = true;
    this.resolveReady();
  }

  /** One clock probe: resolves with the part's clock reading when its pong comes back. */
  ping(t: number): Promise<number> {
    return new Promise((resolve) => {
      this.pings.set(t, resolve);
      this.send({ type: "ping", t });
    });
  }
  pong(t: number, partClock: number) {
    this.pings.get(t)?.(partClock);
    this.pings.delete(t);
  }

  sample(slotMs: number, s: PartSample) {
    this.samples.set(slotMs, s);
    this.lastSlot = Math.max(this.lastSlot, slotMs);
    this.lastSampleAt = clock();
    this.onSample?.(slotMs);
  }

  markWritersDone() {
    this.writersDoneAfter = this.lastSlot;
  }

  markDone(m: DoneMessage) {
    this.result = m;
    this.isDone = true;
    this.resolveDone();
  }

  closedWith(_code: number | null, _signal: NodeJS.Signals | null) {
    this.hasExited = true;
    this.resolveClosed();
  }
}

const within = (p: Promise<unknown>, ms: number) => Promise.race([p, new Promise((r) => setTimeout(r, ms))]);

/**
 * Ends every part: those still running are told to stop, given `graceMs` to exit, then killed (SIGKILL); resolves
 * once every part process has exited.
 */
export async function stopParts(parts: readonly PartHandle[], graceMs: number, reason: string): Promise<void> {
  const running = parts.filter((p) => !p.hasExited);
  for (const p of running) if (!p.isDone) p.send({ type: "stop", reason });
  await within(Promise.all(running.map((p) => p.closed)), graceMs);
  for (const p of running) if (!p.hasExited) p.link.kill("SIGKILL");
  await within(Promise.all(running.map((p) => p.closed)), 5000);
}
