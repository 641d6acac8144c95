// A run over N runner processes ("parts", issue #23): the engine (runner/engine.ts) becomes their coordinator once
// it has checked the target, created the run's schema and set the workload up. It forks N part processes
// (./part-main.ts), waits for each to be ready, measures each one's clock against its own (ping/pong), sets one
// start barrier, merges their seconds exactly (lib/measurement/parts.ts mergeSamples) as they arrive, ends the
// drain for all at once, and hands the engine every part's ledger (the engine's verify step, runner/run-steps.ts,
// verifies the whole run from them) and then merges their summaries (lib/measurement/merge-summaries.ts). It runs
// no load itself: each part runs the load step (runner/load.ts runLoad) on the shared timeline. A part that fails, exits or falls silent fails the
// run at once, naming it: a run's figures are merged from every part, never from some of them.
import os from "node:os";
import { type PartSummary, mergeSummaries } from "../../lib/measurement/merge-summaries";
import { mergeSamples, type PartSample } from "../../lib/measurement/parts";
import type { Phase } from "../../lib/measurement/metrics";
import type { RunSummary } from "../../lib/measurement/summary";
import { PaceTrack, paceSpecOf } from "../../lib/telemetry/pace";
import { paceInputOf } from "../../lib/telemetry/pace-rules";
import { definitionOf, pacingOf, type WorkloadConfig } from "../../lib/workloads/config";
import type { Ledger, WorkloadRun } from "../../workloads/runtime";
import type { Verification } from "../../lib/measurement/verification";
import type { LoadOutcome } from "../load-outcome";
import type { TargetClient } from "../core/pg/pgclient";
import { PRODUCT_VERSION } from "../../lib/env";
import { productCommit, type TargetFacts, unreadNote } from "../run-summary";
import type { Report, RunStats } from "../core/stats";
import { LiveReports } from "./live-report";
import { TelemetryRecorder } from "../telemetry/recorder";
import type { ClientInput } from "../../lib/telemetry/verdict";
import type { TelemetrySample } from "../../lib/telemetry/shape";
import type { SampleRunnerLoad } from "../../lib/measurement/runner-load";
import { clock, Stopper, sleepUntil } from "../core/timing";
import { FromPart, shapeProblem, type ToPart } from "./protocol";
import { forkPart, type PartEntry, partEntry } from "./part-entry";
import { PartHandle, stopParts } from "./part-handles";
import { RemoteParts, type RemotePartsOptions } from "./remote-parts";

/** A part that is not ready (connected, its readers started) within this fails the run. */
export const READY_TIMEOUT_MS = 30_000;
/** A part that sends no sample for this long, once the load has started, fails the run. */
export const SILENCE_MS = 5000;
/** The start barrier is this far ahead of the moment every part is ready (time for the message to arrive). */
const BARRIER_LEAD_MS = 500;
/** Clock probes per part: the one with the shortest round trip sets its offset. */
const PROBES = 10;

/** Tests only: another entry for the parts (one that never becomes ready), shorter bounds. */
export interface PartsForTest {
  entry?: string;
  readyTimeoutMs?: number;
  /** How long a ready part has to answer its clock probes (READY_TIMEOUT_MS otherwise). */
  probeTimeoutMs?: number;
  silenceMs?: number;
  /** This part only blocks its event loop for `forMs` every `everyMs` while its load runs (a starved part). */
  busyWait?: { part: number; everyMs: number; forMs: number };
}

export interface CoordinateInput {
  config: WorkloadConfig;
  targetUrl: string;
  runId: string;
  schemaName: string;
  /** The run's instance of the workload, set up and never started (its notes are the run's). */
  run: WorkloadRun;
  stats: RunStats;
  facts: TargetFacts;
  log: (line: string) => void;
  setPhase: (p: Phase) => void;
  onSample?: (s: { seq: number; phase: Phase; time: Date; metrics: import("../../lib/measurement/sample").SampleMetrics }) => void | Promise<void>;
  /** Called at each merged second (the engine's free-space check of the watched disks). */
  everySecond?: () => void;
  /** The CLI's live line, every config.reportIntervalSeconds (./live-report.ts). */
  onReport?: (r: Report) => void;
  telemetry: boolean;
  drainSeconds: number;
  /** Rejects with the run's first failure (a cancel, the admin connection lost, or a part's failure via `fail`). */
  failed: Promise<never>;
  fail: (err: Error) => void;
  /** Whether the run was cancelled (then parts get the engine's cancel deadline before they are killed). */
  cancelled: () => boolean;
  cancelDeadlineMs: number;
  track: (tc: TargetClient) => void;
  liveness?: { silenceMs?: number; probeTimeoutMs?: number };
  forTest?: PartsForTest;
  /** A runner with a control store: the parts past its RUNNER_MAX_LOCAL_PARTS go to other runners (./remote-parts.ts). */
  remote?: RemotePartsOptions;
  /** Without a control store: RUNNER_MAX_LOCAL_PARTS, only to say that every part is forked here all the same. */
  maxLocalParts?: number;
}

/** The load over parts: their ledgers, the telemetry recorder (finished by the summary), the merged summary. */
export interface PartsOutcome extends LoadOutcome {
  ledgers: Ledger[];
  telemetry?: TelemetryRecorder;
}

/** Runs the load over config.processes parts; the run's summary merges theirs once the engine verified the run. */
export async function coordinate(i: CoordinateInput): Promise<PartsOutcome> {
  const n = i.config.processes ?? 1;
  const parts: PartHandle[] = [];
  let remote: RemoteParts | undefined;
  let telemetry: TelemetryRecorder | undefined;
  let phase: Phase = "setup";
  const setPhase = (p: Phase) => {
    phase = p;
    i.setPhase(p);
  };
  const phaseStop = new Stopper();
  i.failed.catch(() => phaseStop.stop());
  try {
    const local = Math.min(n, i.remote?.maxLocal ?? n);
    if (!i.remote && i.maxLocalParts !== undefined && n > i.maxLocalParts)
      i.log(
        `forking all ${n} parts on this machine although RUNNER_MAX_LOCAL_PARTS is ${i.maxLocalParts}: only a runner with a control store (\`npm run runner\`, which runs the app's runs) hands parts to other runners`,
      );
    const entry = await partEntry();
    if (entry.fallback && local > 0) i.log(`parts run their sources under tsx (slower to start): ${entry.fallback}`);
    for (let index = 0; index < local; index++) parts.push(spawnPart(i, entry, index, n, () => phase));
    if (local < n) {
      const indexes = Array.from({ length: n - local }, (_, k) => local + k);
      remote = await Promise.race([
        RemoteParts.open(
          remoteCallbacks(i, () => phase),
          indexes,
          n,
          i.remote!,
        ),
        i.failed,
      ]);
      for (const p of remote.handles) p.send(runMessage(i, p.index, n));
      parts.push(...remote.handles);
    }
    const allReady = Promise.all(parts.map((p) => p.ready));
    await Promise.race([allReady, i.failed, readyTimeout(i, parts, remote?.allClaimed)]);
    i.log(`${n} parts ready: ${parts.map((p) => `part ${p.index} pid ${p.pid}`).join(", ")}`);
    if (i.telemetry)
      telemetry = await TelemetryRecorder.start(
        i.targetUrl,
        i.schemaName,
        parts.flatMap((p) => p.backendPids),
        i.log,
        i.track,
        // The parts forked on this host are the runner too: their CPU is never "other processes'".
        () => parts.filter((p) => p.host === os.hostname() && !p.hasExited).map((p) => p.pid),
      );
    const probeMs = i.forTest?.probeTimeoutMs ?? READY_TIMEOUT_MS;
    for (const p of parts) if (!p.remote) await Promise.race([measureClock(p, probeMs), i.failed]);
    if (remote) await Promise.race([remote.measureClocks(i.targetUrl), i.failed]);
    i.log(
      `parts' clocks against this one: ${parts.map((p) => `part ${p.index} ${p.clockOffsetMs.toFixed(3)} ± ${p.clockUncertaintyMs.toFixed(3)} ms`).join(", ")}`,
    );
    const atMs = clock() + BARRIER_LEAD_MS;
    for (const p of parts) p.send({ type: "start", atMs, clockOffsetMs: p.clockOffsetMs, uncertaintyMs: p.clockUncertaintyMs });
    await remote?.recordStart(atMs);
    const merger = new SecondMerger(i, parts, telemetry);
    const silence = watchSilence(i, parts, atMs);
    const timeline = runTimeline(i, atMs, setPhase, phaseStop, merger);
    try {
      await Promise.race([Promise.all(parts.map((p) => p.done)), i.failed]);
    } finally {
      clearInterval(silence);
      phaseStop.stop();
      await timeline.catch(() => undefined);
    }
    await merger.flush();
    await remote?.measureDrift(i.targetUrl).catch((err: Error) => i.log(`could not measure the parts' clocks again at the end: ${err.message}`));
    const recorder = telemetry;
    return {
      ledgers: parts.map((p) => p.result!.ledger as Ledger),
      ...(recorder ? { telemetry: recorder } : {}),
      summarize: (verification, unreadAtEnd) => wholeRun(i, parts, merger, recorder, verification, unreadAtEnd),
    };
  } catch (err) {
    // The run's failure is this error, said before the parts are stopped: their exit (killed while getting ready)
    // would otherwise be reported in its place (the engine reports the first failure).
    i.fail(err instanceof Error ? err : new Error(String(err)));
    await telemetry?.stop();
    throw err;
  } finally {
    const reason = i.cancelled() ? "the run was cancelled" : "the run failed";
    await stopParts(parts, i.cancelled() ? i.cancelDeadlineMs : 3000, reason);
    await remote?.close(`the run ended before this part was done (${reason})`);
  }
}

/** Forks part `index` and wires its messages and its exit; a part that exits before its `done` fails the run. */
function spawnPart(i: CoordinateInput, entry: PartEntry, index: number, of: number, phase: () => Phase): PartHandle {
  const child = forkPart(entry, { file: i.forTest?.entry });
  const p = new PartHandle(index, child, child.pid);
  const lines = (chunk: Buffer) => {
    for (const line of chunk.toString().split("\n").filter(Boolean)) {
      p.tail.push(line);
      if (p.tail.length > 5) p.tail.shift();
      i.log(line.startsWith("part ") ? line : `part ${index}: ${line}`);
    }
  };
  child.stdout?.on("data", lines);
  child.stderr?.on("data", lines);
  child.on("message", (raw) => onRaw(i, p, raw));
  child.on("error", (err) => i.fail(new Error(`${p.name()} could not be started: ${err.message}`)));
  // "close", not "exit": every message it sent (its `done`) has arrived by then.
  child.on("close", (code, signal) => onExit(i, p, code, signal, phase()));
  p.send(runMessage(i, index, of));
  return p;
}

/** The `run` message a part starts with (the same whether it is forked here or carried by another runner). */
function runMessage(i: CoordinateInput, index: number, of: number): ToPart {
  return {
    type: "run",
    runId: i.runId,
    config: i.config,
    targetUrl: i.targetUrl,
    schemaName: i.schemaName,
    part: { index, of },
    ...(i.liveness ? { liveness: i.liveness } : {}),
    ...(i.forTest?.busyWait?.part === index ? { busyWaitForTest: i.forTest.busyWait } : {}),
  };
}

/** A part's message as it arrived, over IPC or through the control store: checked, then handled. */
function onRaw(i: CoordinateInput, p: PartHandle, raw: unknown) {
  const parsed = FromPart.safeParse(raw);
  if (!parsed.success) return i.fail(new Error(`${p.name()} sent a message of another shape (${shapeProblem(parsed.error)})`));
  onMessage(i, p, parsed.data);
}

/** A part's process ended: before its `done`, the run fails naming it. */
function onExit(i: CoordinateInput, p: PartHandle, code: number | null, signal: NodeJS.Signals | null, phase: Phase) {
  p.closedWith(code, signal);
  if (p.isDone) return;
  const how = signal ? `with ${signal}` : `with code ${code}`;
  const said = p.error ? `: ${p.error}` : p.tail.length ? ` (its last words: ${p.tail.join(" | ")})` : "";
  i.fail(new Error(`${p.name()} exited ${how} while ${phaseWords(phase)}${said}; a run's figures are merged from every part, so the run failed`));
}

/** The same handling for parts carried by other runners (their last lines come with their exit). */
function remoteCallbacks(i: CoordinateInput, phase: () => Phase) {
  return {
    runId: i.runId,
    log: i.log,
    fail: i.fail,
    onMessage: (p: PartHandle, raw: unknown) => onRaw(i, p, raw),
    onExit: (p: PartHandle, code: number | null, signal: NodeJS.Signals | null, tail: string[]) => {
      p.tail.push(...tail.slice(-5));
      onExit(i, p, code, signal, phase());
    },
  };
}

/** How a part's product differs from this runner's, in words; null when it is the same (a commit unknown on either
 *  side, as in an image built without .git and no PGBB_COMMIT, is not compared). */
function productMismatch(part: { version: string; commit: string } | undefined): string | null {
  const mine = { version: PRODUCT_VERSION, commit: productCommit() };
  const words = (x: { version: string; commit: string }) =>
    `pg-broker-bench ${x.version}${x.commit === "unknown" ? "" : ` at commit ${x.commit.slice(0, 12)}`}`;
  if (!part) return `a version older than this runner's ${words(mine)} (it does not say which)`;
  const commitsDiffer = part.commit !== "unknown" && mine.commit !== "unknown" && part.commit !== mine.commit;
  return part.version !== mine.version || commitsDiffer ? `${words(part)}, this runner ${words(mine)}` : null;
}

const phaseWords = (p: Phase) => (p === "setup" ? "getting ready" : p === "warmup" ? "warming up" : p);

function onMessage(i: CoordinateInput, p: PartHandle, m: FromPart) {
  if (m.type === "ready") {
    const other = productMismatch(m.product);
    // Named by what it says of itself: a remote part's claim may not have been seen yet when its `ready` arrives.
    p.pid = m.pid;
    p.host = m.host;
    if (other)
      return i.fail(
        new Error(
          `${p.name()} runs ${other}: every part of a run must run the same version (their messages and ledgers must match); ${m.host === os.hostname() ? "this checkout changed since this runner started (a part reads the checkout's version when it starts): restart it (npm start, or npm run runner)" : `run the same version on host ${m.host} and here, and restart the runners`}`,
        ),
      );
    p.markReady(m.pid, m.host, m.backendPids);
  } else if (m.type === "pong") p.pong(m.t, m.partClock);
  else if (m.type === "sample") p.sample(m.slotMs, m.sample);
  else if (m.type === "writersDone") p.markWritersDone();
  else if (m.type === "done") p.markDone(m);
  else if (m.type === "failed") {
    p.error = m.error;
    i.fail(new Error(`${p.name()} failed: ${m.error}; a run's figures are merged from every part, so the run failed`));
  }
}

/** Rejects when some part is not ready in time, naming them. */
function readyTimeout(i: CoordinateInput, parts: PartHandle[], claimed: Promise<void> = Promise.resolve()): Promise<never> {
  const ms = i.forTest?.readyTimeoutMs ?? READY_TIMEOUT_MS;
  return new Promise<never>((_, reject) => {
    let t: NodeJS.Timeout | undefined;
    let over = false;
    const end = () => {
      over = true;
      clearTimeout(t);
    };
    // Parts carried by other runners count from when the last was taken (waiting for a runner has its own bound).
    void claimed.then(() => {
      if (!over) t = setTimeout(timedOut, ms);
    });
    const timedOut = () => {
      const late = parts.filter((p) => !p.isReady);
      const err = new Error(
        `${late.map((p) => p.name()).join(", ")} did not become ready within ${ms / 1000} s (connect, open its connections, start its readers): the run cannot start without every part; its last lines are in the run's log: check that the target accepts that many connections and that machine's load, or lower processes`,
      );
      i.fail(err);
      reject(err);
    };
    Promise.all(parts.map((p) => p.ready)).then(end, end);
    i.failed.catch(end);
  });
}

/**
 * The part's clock minus this one's: of PROBES round trips over IPC, the shortest one's midpoint. A part that does
 * not answer them all within `withinMs` (its event loop stuck, the process stopped) fails the run, never hangs it:
 * the silence watch only starts at the barrier.
 */
async function measureClock(p: PartHandle, withinMs: number): Promise<void> {
  let best = { rtt: Number.POSITIVE_INFINITY, offset: 0 };
  const deadline = clock() + withinMs;
  for (let k = 0; k < PROBES; k++) {
    const t = clock();
    const partClock = await answerWithin(p.ping(t), deadline - t, p, withinMs);
    const back = clock();
    if (back - t < best.rtt) best = { rtt: back - t, offset: partClock - (t + back) / 2 };
  }
  p.clockOffsetMs = best.offset;
  p.clockUncertaintyMs = best.rtt / 2;
}

/** The pong, or a rejection naming the part once `ms` have passed without it. */
function answerWithin(pong: Promise<number>, ms: number, p: PartHandle, totalMs: number): Promise<number> {
  let t: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    t = setTimeout(
      () =>
        reject(
          new Error(
            `${p.name()} did not answer its clock probes within ${totalMs / 1000} s after it was ready (its event loop blocked, or the process stopped): the run cannot start without every part's clock; check that machine's load and run again`,
          ),
        ),
      Math.max(ms, 0),
    );
  });
  return Promise.race([pong, late]).finally(() => clearTimeout(t));
}

/** Fails the run when a part sends no sample for SILENCE_MS once the load has started. */
function watchSilence(i: CoordinateInput, parts: PartHandle[], atMs: number): NodeJS.Timeout {
  const ms = i.forTest?.silenceMs ?? SILENCE_MS;
  return setInterval(() => {
    const now = clock();
    for (const p of parts) {
      if (p.isDone || p.hasExited) continue;
      const since = Math.max(p.lastSampleAt, atMs);
      if (now - since > ms)
        i.fail(
          new Error(
            `${p.name()} sent no sample for ${ms / 1000} s (its event loop blocked, the process stopped, or its machine overloaded); a run's figures are merged from every part, so the run failed: check that machine's load and run again, or lower processes`,
          ),
        );
    }
  }, 250);
}

/** The phases on the shared timeline (for onPhase), and the drain's end for every part. */
async function runTimeline(i: CoordinateInput, atMs: number, setPhase: (p: Phase) => void, stop: Stopper, merger: SecondMerger) {
  await sleepUntil(atMs, stop);
  const warmupEnd = atMs + i.config.warmupSeconds * 1000;
  if (i.config.warmupSeconds > 0) {
    setPhase("warmup");
    await sleepUntil(warmupEnd, stop);
  }
  if (stop.stopped) return;
  setPhase("measuring");
  const drainStart = warmupEnd + i.config.durationSeconds * 1000;
  await sleepUntil(drainStart, stop);
  if (stop.stopped) return;
  setPhase("draining");
  // A workload with no consumer groups has nothing to drain (as with one process: its backlog is 0 at once).
  if (i.stats.groups.length === 0) merger.drained = true;
  const deadline = drainStart + i.drainSeconds * 1000;
  // Drained once every part's writers have finished (an open loop's drain) and the merged seconds since say so.
  const over = () => merger.drained && merger.parts.every((p) => p.writersDoneAfter !== undefined);
  while (!stop.stopped && !over() && clock() < deadline) await stop.sleep(Math.min(100, deadline - clock()));
  if (stop.stopped) return;
  // On a whole second of the timeline at least 0.5 s ahead: every part cuts it as its last second, or, if the
  // message reached it late, has already sent it as one of its seconds (a slot is never sent twice).
  const end = atMs + Math.ceil((clock() + 500 - atMs) / 1000) * 1000;
  merger.drainEndsAt = end;
  for (const p of merger.parts) p.send({ type: "drained", atMs: end });
}

/** Merges each second once every part's has arrived, and judges the drain from the merged backlog. */
class SecondMerger {
  private seq = 0;
  private chain: Promise<void> = Promise.resolve();
  private readonly pace: PaceTrack;
  private readonly reports: LiveReports | undefined;
  drained = false;
  drainEndsAt: number | undefined;
  constructor(
    private readonly i: CoordinateInput,
    readonly parts: PartHandle[],
    private readonly telemetry: TelemetryRecorder | undefined,
  ) {
    this.pace = new PaceTrack(paceSpecOf(pacingOf(i.config), definitionOf(i.config).metrics));
    const mainOp = definitionOf(i.config).metrics.operations.find((o) => o.latency)?.name;
    if (i.onReport) this.reports = new LiveReports(i.config.reportIntervalSeconds, mainOp, i.onReport);
    for (const p of parts) p.onSample = (slot) => this.mergeSlot(slot);
  }

  get paceTrack() {
    return this.pace;
  }

  /** Merges the second of slot `slot` once every part has sent it. */
  private mergeSlot(slot: number) {
    if (!this.parts.every((p) => p.samples.has(slot))) return;
    const seconds = this.parts.map((p) => p.samples.get(slot) as PartSample);
    for (const p of this.parts) p.samples.delete(slot);
    this.mergeOne(seconds, slot);
  }

  private mergeOne(seconds: PartSample[], slot: number) {
    let metrics: ReturnType<typeof mergeSamples>;
    try {
      // Paired by their slot on the shared timeline, the parts' seconds are the same second even when one part's
      // busy event loop ended it late: any lateness short of the silence bound is accepted.
      metrics = mergeSamples(seconds, { toleranceSec: SILENCE_MS / 1000 });
    } catch (err) {
      this.i.log(`a second of the parts could not be merged, left out of the samples: ${(err as Error).message}`);
      return;
    }
    const phase = seconds[0].phase;
    this.i.everySecond?.();
    if (phase === "measuring") this.pace.addSample(metrics);
    // Only seconds after every part's writers finished: before, writes still to come are in no backlog.
    if (phase === "draining" && this.parts.every((p) => p.writersDoneAfter !== undefined && slot > p.writersDoneAfter)) this.judgeDrain(metrics);
    this.reports?.add(seconds, metrics, phase);
    const reading = this.telemetry?.tick(phase);
    const s = { seq: this.seq++, phase, time: new Date(), metrics };
    const cb = this.i.onSample;
    this.chain = this.chain
      .then(async () => {
        const t = await reading;
        if (t) s.metrics.telemetry = withPartsClient(t, metrics.runnerLoad);
        await cb?.(s);
      })
      .catch((e) => this.i.log(`could not store sample ${s.seq}: ${(e as Error).message}`));
  }

  /** Drained when the merged backlog is 0, or every part polled and found nothing for a whole second. */
  private judgeDrain(m: ReturnType<typeof mergeSamples>) {
    const read = m.operations.read;
    const idle = read !== undefined && read.count === 0 && (read.counters?.emptyPolls ?? 0) > 0 && m.intervalSec >= 0.9;
    if ((m.measures.backlog ?? 0) <= 0 || idle) this.drained = true;
  }

  /** Every merged second delivered; seconds not every part sent (its last, cut apart) are said and left out. */
  async flush() {
    const left = this.parts.filter((p) => p.samples.size);
    if (left.length) this.i.log(`${left.map((p) => `part ${p.index}: ${p.samples.size}`).join(", ")} second(s) not merged (not every part sent them)`);
    await this.chain;
  }
}

/**
 * A second's telemetry reading with the runner's numbers of the worst-loaded part of that second (the merged
 * sample's runnerLoad), not this coordinator's, which runs no load: the live verdict judges the client from them.
 */
function withPartsClient(t: TelemetrySample, load: SampleRunnerLoad | undefined): TelemetrySample {
  if (!load || load.eventLoopUtilization === undefined) return t;
  const client = {
    cpuPct: 100 * load.cpuCores,
    eventLoopUtilization: load.eventLoopUtilization,
    eventLoopDelayMaxMs: load.loopDelayMs.max,
    ...(load.runQueueWaitMsPerSec !== undefined ? { runQueueWaitMsPerSec: load.runQueueWaitMsPerSec } : {}),
  };
  return { ...t, client };
}

/** The run's summary: the parts' merged, the whole run's verification (from every ledger), the server's telemetry. */
async function wholeRun(
  i: CoordinateInput,
  parts: PartHandle[],
  merger: SecondMerger,
  telemetry: TelemetryRecorder | undefined,
  verification: Verification,
  unreadAtEnd: number,
): Promise<RunSummary> {
  const list: PartSummary[] = parts.map((p) => ({
    runId: i.runId,
    part: p.index,
    parts: parts.length,
    host: p.host,
    pid: p.pid,
    startSkewMs: p.result!.startSkewMs,
    clockOffsetMs: p.clockOffsetMs,
    ...(p.clockDriftMs !== undefined ? { clockDriftMs: p.clockDriftMs } : {}),
    summary: p.result!.summary,
  }));
  const merged = mergeSummaries(list, { config: i.config });
  const groups = merged.groups?.length ?? 0;
  const runTelemetry = await telemetry?.finish({
    pace: paceInputOf(merger.paceTrack, merged, { groups, unreadAtEnd }),
    ...(merged.runnerLoad ? { client: worstClient(merged) } : {}),
  });
  const summary: RunSummary = {
    ...merged,
    manifest: {
      ...merged.manifest,
      ...i.facts,
      e2eClock: parts.some((p) => p.remote) ? E2E_CLOCK_REMOTE : E2E_CLOCK_PARTS,
    },
    verification,
    ...(runTelemetry ? { telemetry: runTelemetry } : {}),
    totals: {
      operations: merged.totals?.operations ?? {},
      measures: { ...merged.totals?.measures, ...(groups || unreadAtEnd > 0 ? { unreadAtEnd } : {}) },
    },
    notes: [
      ...(merged.notes ?? []),
      ...i.run.notes.filter((n) => !(merged.notes ?? []).some((m) => m.endsWith(n))),
      ...(unreadAtEnd > 0 ? [unreadNote(unreadAtEnd, i.drainSeconds)] : []),
      ...driftNotes(parts),
    ],
  };
  return summary;
}

/** Drift below this (ms), or within twice the clock's measured uncertainty, is the measurement's own noise. */
const DRIFT_NOTE_FLOOR_MS = 1;

/** A note per part on another host whose clock drifted from this one's by more than the noise of measuring it. */
function driftNotes(parts: readonly PartHandle[]): string[] {
  return parts.flatMap((p) => {
    const d = p.clockDriftMs;
    if (d === undefined || Math.abs(d) <= Math.max(DRIFT_NOTE_FLOOR_MS, 2 * p.clockUncertaintyMs)) return [];
    return [
      `part ${p.index} (host ${p.host}): its clock moved ${d > 0 ? "+" : "−"}${Math.abs(d).toFixed(1)} ms against the coordinator's over the run ` +
        "(both measured against the target's clock at the start and at the end; the correction is applied once, at the start): " +
        `latencies timed from one host's stamp to another's clock (e2e across hosts) carry up to ${Math.abs(d).toFixed(1)} ms of error`,
    ];
  });
}

/**
 * The client check per part: the verdict judges the worst-loaded part's own numbers (never a merge or an average,
 * which would hide one starved part) and names it, with the other parts the client rule held for.
 */
function worstClient(merged: RunSummary): ClientInput {
  const worst = merged.runnerLoad!;
  const parts = merged.manifest.parts ?? [];
  const w = parts.find((p) => p.part === merged.manifest.worstPart);
  const alsoBound = parts.filter((p) => p !== w && p.runnerLoad?.clientBound).map((p) => p.part);
  return {
    cpuPct: 100 * worst.cpuCores,
    exposedDelayMs: worst.exposedDelayMs,
    eventLoopDelayMaxMs: worst.loopDelayMs.max,
    ...(worst.eventLoopUtilization !== undefined ? { eventLoopUtilization: worst.eventLoopUtilization } : {}),
    ...(worst.runQueueWaitMsPerSec !== undefined ? { runQueueWaitMsPerSec: worst.runQueueWaitMsPerSec } : {}),
    ...(worst.judgedAgainst ? { mainP99Ms: worst.judgedAgainst.p99, serviceMs: worst.judgedAgainst.p50 } : {}),
    ...(w ? { part: { index: w.part, of: parts.length, host: w.host, pid: w.pid, ...(alsoBound.length ? { alsoBound } : {}) } } : {}),
  };
}

const E2E_CLOCK_PARTS =
  "runner monotonic clock (performance.timeOrigin + performance.now()) of each runner process, corrected to the coordinating process's clock before the load (offset measured by ping/pong over IPC on this host, the shortest of 10 round trips): the writer stamps it into each payload's first 8 bytes just before BEGIN, the reader subtracts it from its own corrected clock when it has the row";

const E2E_CLOCK_REMOTE =
  "runner monotonic clock (performance.timeOrigin + performance.now()) of each runner process, corrected to the coordinating process's clock before the load: parts forked by the coordinator by ping/pong over IPC, parts carried by other runners through the target's clock (each side's offset to the target's clock_timestamp(), the shortest of 10 round trips, subtracted): the writer stamps it into each payload's first 8 bytes just before BEGIN, the reader subtracts it from its own corrected clock when it has the row";
