// The coordinator's handle on one part process: what it said (ready, pongs, samples, done), how it ended, and the
// stop of every part at the run's end (politely, then SIGKILL: no part process is ever left behind).
import type { ChildProcess } from "node:child_process";
import os from "node:os";
import type { PartSample } from "../../lib/measurement/parts";
import { clock } from "../timing";
import type { FromPart, ToPart } from "./protocol";

export type DoneMessage = Extract<FromPart, { type: "done" }>;

export class PartHandle {
  readonly pid: number;
  /** Where it runs (its `ready` says; this host until then: parts are forked here). */
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
  /** Its seconds not merged yet, in order. */
  readonly samples: PartSample[] = [];
  lastSampleAt = 0;
  onSample: (() => void) | undefined;
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
    readonly child: ChildProcess,
  ) {
    this.pid = child.pid ?? 0;
    this.ready = new Promise((r) => (this.resolveReady = r));
    this.done = new Promise((r) => (this.resolveDone = r));
    this.closed = new Promise((r) => (this.resolveClosed = r));
  }

  name(): string {
    return `part ${this.index} (pid ${this.pid} on host ${this.host})`;
  }

  /** Sends a message if the channel is still open (a part that exited cannot be told anything). */
  send(m: ToPart): void {
    if (!this.child.connected) return;
    this.child.send(m, (err) => {
      if (err) this.tail.push(`could not be sent a ${m.type}: ${err.message}`);
    });
  }

  markReady(pid: number, host: string, backendPids: number[]) {
    this.host = host;
    this.backendPids = backendPids;
    this.isReady = true;
    void pid; // the fork's pid: the same process
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

  sample(s: PartSample) {
    this.samples.push(s);
    this.lastSampleAt = clock();
    this.onSample?.();
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
  for (const p of running) if (!p.hasExited) p.child.kill("SIGKILL");
  await within(Promise.all(running.map((p) => p.closed)), 5000);
}
