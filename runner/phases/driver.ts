// Carries out a run's phases (lib/phases/shape.ts) on its timeline and measures each (lib/phases/report.ts). Started
// at the load's start instant (runner/local-load.ts): each phase begins at its start and ends after its length, on the
// clock (Node's timers fire early); the recorder keeps the seconds before, during and after each apart (spans:
// runner/core/span.ts); the run's dead tuples and table and index size are read at each phase's start and end, on
// a connection of the driver's own that never waits on a lock (../telemetry/sizes.ts). The run's end, early or not, ends any phase still on.
import pg from "pg";
import { type PhaseReport, type PhaseWindow, type RecoverySecond, recoveryOf, recoveryRuleText } from "../../lib/phases/report";
import { type Phase, phaseEnd, phaseText } from "../../lib/phases/shape";
import { definitionOf, pacingOf, type WorkloadConfig } from "../../lib/workloads/config";
import { clock, type Pause, type RunStats, Stopper } from "../core";
import type { Span } from "../core/span";
import { isConnectionError } from "../core/pg/pgclient";
import { TableSizeReader } from "../telemetry/sizes";
import { type Begun, begin, PhaseActedError } from "./actions";

/** The rate before a phase is read over at most this long before it. */
const BEFORE_SEC = 10;
/** A phase that begins sooner than this after the warm-up has no rate before it to recover to. */
const MIN_BEFORE_SEC = 2;

interface TargetReading {
  deadTuples: number;
  tableBytes?: number;
  indexBytes?: number;
}

/** One phase as it went: its spans, what it did, when, and what the target read at its start and end. */
interface Carried {
  phase: Phase;
  before: Span | null;
  during: Span;
  after: Span | null;
  did?: string;
  startedMs?: number;
  endedMs?: number;
  problem?: string;
  atStart?: TargetReading;
  atEnd?: TargetReading;
}

export interface PhaseDriverInput {
  phases: readonly Phase[];
  config: WorkloadConfig;
  targetUrl: string;
  schemaName: string;
  stats: RunStats;
  pause: Pause;
  /** The run's own loops' connections as they are now (kill-backend terminates one of them). */
  backends: () => readonly { role: string; pid: number }[];
  /** A run with a restart-target phase: the target's cluster folder and the run's outage (./actions.ts ActionContext). */
  clusterDir?: string;
  outage?: <T>(down: () => Promise<T>) => Promise<T>;
  /** The run's admin session's backend pid now (./actions.ts ActionContext). */
  adminPid?: () => number;
  log: (line: string) => void;
}

export class PhaseDriver {
  private readonly halt = new Stopper();
  private carried: Carried[] = [];
  private running: Promise<void> = Promise.resolve();
  private atMs = 0;
  private admin: (pg.Client & { lost?: boolean }) | null = null;
  private sizes?: TableSizeReader;

  constructor(private readonly i: PhaseDriverInput) {}

  /** Starts the phases on the timeline that began at `atMs` (clock ms): declares their spans, then runs them in order. */
  start(atMs: number) {
    const { phases, config, stats } = this.i;
    this.atMs = atMs;
    const at = (sec: number) => atMs + sec * 1000;
    const warmupEndSec = config.warmupSeconds;
    const windowEndSec = config.warmupSeconds + config.durationSeconds;
    this.carried = phases.map((p, k) => {
      const beforeFrom = Math.max(warmupEndSec, p.startSec - BEFORE_SEC, k > 0 ? phaseEnd(phases[k - 1]) : 0);
      const afterTo = Math.min(windowEndSec, phases[k + 1]?.startSec ?? windowEndSec);
      return {
        phase: p,
        before: p.startSec - beforeFrom >= MIN_BEFORE_SEC ? stats.span(at(beforeFrom), at(p.startSec)) : null,
        during: stats.span(at(p.startSec), at(phaseEnd(p))),
        after: afterTo > phaseEnd(p) ? stats.span(at(phaseEnd(p)), at(afterTo)) : null,
      };
    });
    this.running = this.runAll();
  }

  private async runAll() {
    try {
      this.admin = await this.connect();
    } catch (err) {
      for (const c of this.carried) c.problem = `not carried out: the phases' connection failed (${(err as Error).message})`;
      return;
    }
    for (const c of this.carried) {
      if (this.halt.stopped) {
        c.problem = "not carried out: the run ended before it was due";
        continue;
      }
      await this.carryOut(c);
    }
  }

  private async carryOut(c: Carried) {
    const { phase } = c;
    await this.sleepUntil(this.atMs + phase.startSec * 1000);
    if (this.halt.stopped) {
      c.problem = "not carried out: the run ended before it was due";
      return;
    }
    c.atStart = await this.read();
    // The reading may take a while (a reconnect): a run that ended meanwhile gets no phase (no restart after a cancel).
    if (this.halt.stopped) {
      c.problem = "not carried out: the run ended before it was due";
      return;
    }
    let begun: Begun;
    // When it began acting: a restart's begin lasts the whole outage, which its report shows from here to its end.
    const beganMs = clock();
    try {
      const { targetUrl, schemaName, pause, backends, clusterDir, outage, adminPid } = this.i;
      begun = await begin(phase, { targetUrl, schemaName, pause, backends, clusterDir, outage, adminPid });
    } catch (err) {
      c.problem = (err as Error).message;
      if (err instanceof PhaseActedError) {
        // It acted (the target went down) before it failed: its seconds are a phase's, with what went wrong beside.
        [c.startedMs, c.did, c.endedMs] = [beganMs, err.did, clock()];
        this.i.log(`phase ${phaseText(phase)}: ${err.did}, and it failed: ${c.problem}`);
        c.atEnd = await this.read();
      } else this.i.log(c.problem);
      return;
    }
    c.startedMs = beganMs;
    c.did = begun.did;
    this.i.log(`phase ${phaseText(phase)}: ${begun.did}`);
    await this.sleepUntil(this.atMs + phaseEnd(phase) * 1000);
    if (this.halt.stopped && clock() < this.atMs + phaseEnd(phase) * 1000)
      c.problem = `cut short at ${this.secOf(clock()).toFixed(1)} s, when the run's measured window ended`;
    await begun.end();
    c.endedMs = clock();
    c.atEnd = await this.read();
    this.i.log(`phase ${phaseText(phase)} ended`);
  }

  /** Sleeps until the clock reads `due` (timers fire early), or the run ends. */
  private async sleepUntil(due: number) {
    while (!this.halt.stopped && clock() < due) await this.halt.sleep(Math.max(due - clock(), 1));
  }

  /** The run's tables' dead tuples and sizes now; the sizes left out when a lock kept them from being read at once.
   *  A connection that went with a restart of the target (restart-target) is opened again for it, once. */
  private async read(): Promise<TargetReading | undefined> {
    if (!this.admin) return undefined;
    const first = await this.readOn(this.admin);
    if (!(first instanceof Error)) return first;
    if (!this.admin.lost && !isConnectionError(first)) return undefined;
    await this.admin.end().catch(() => undefined);
    this.sizes = undefined;
    try {
      this.admin = await this.connect();
    } catch {
      return undefined;
    }
    const again = await this.readOn(this.admin);
    return again instanceof Error ? undefined : again;
  }

  /** The driver's own connection, named for the phases, that marks itself `lost` when the target ends it. */
  private async connect(): Promise<pg.Client & { lost?: boolean }> {
    const c: pg.Client & { lost?: boolean } = new pg.Client({ connectionString: this.i.targetUrl, application_name: "pgbb phases" });
    c.on("error", () => (c.lost = true));
    c.on("end", () => (c.lost = true));
    await c.connect();
    return c;
  }

  private async readOn(admin: pg.Client): Promise<TargetReading | Error> {
    try {
      const dead = await admin.query<{ dead: string }>("SELECT coalesce(sum(n_dead_tup), 0) AS dead FROM pg_stat_user_tables WHERE schemaname = $1", [
        this.i.schemaName,
      ]);
      const out: TargetReading = { deadTuples: Number(dead.rows[0].dead) };
      // The telemetry's own lock-free reading (NOWAIT, a short lock_timeout): a refusal keeps its last sizes, which
      // would be the wrong ones here, so a refused reading leaves the sizes out.
      this.sizes ??= new TableSizeReader(admin, this.i.schemaName);
      const refused = this.sizes.refused;
      await this.sizes.refresh();
      const sizes = this.sizes.latest;
      if (sizes && this.sizes.refused === refused && !this.sizes.failed) Object.assign(out, sizes);
      return out;
    } catch (err) {
      return err as Error;
    }
  }

  /** Ends any phase still on (the run ended) and waits for it; then closes the driver's connection. */
  async stop(): Promise<void> {
    this.halt.stop();
    await this.running;
    await this.admin?.end().catch(() => undefined);
    this.admin = null;
  }

  private secOf(ms: number) {
    return (ms - this.atMs) / 1000;
  }

  /** Each phase's report, once the load has ended (stop()). */
  reports(): PhaseReport[] {
    const { config, stats } = this.i;
    const def = definitionOf(config);
    // The consumers' rate (what drains the backlog) where the run has consumers; else the paced operation's.
    const rateOp = stats.drainingOperation() ?? def.metrics.consumer?.read ?? pacingOf(config).operation;
    const opDef = def.metrics.operations.find((o) => o.name === rateOp);
    const unit = opDef?.unit ?? pacingOf(config).unit;
    const latency = def.metrics.delivery ?? def.metrics.operations.find((o) => o.latency);
    // The consumers' rate the run asked for, where it asked for one: the paced rate, read once per consumer group.
    const target = pacingOf(config).targetPerSecond;
    const asked = target && stats.drainingOperation() ? target * Math.max(1, stats.groups.length) : undefined;
    const windowOf = (s: Span | null): PhaseWindow | null => {
      if (!s || s.seconds === 0) return null;
      const ops = stats.spanFigures(s);
      const lat = latency ? s.percentiles(latency.name) : undefined;
      const backlogs = s.perSecond.map((x) => x.backlog).filter((b): b is number => b !== undefined);
      return {
        seconds: s.seconds,
        perSecond: ops[rateOp]?.perSecond ?? 0,
        ...(lat ? { latencyMs: { p50: lat.p50, p99: lat.p99, p999: lat.p999, max: lat.max } } : {}),
        ...(def.metrics.backlog && backlogs.length ? { backlogMax: Math.max(...backlogs) } : {}),
      };
    };
    return this.carried.map((c) => {
      const before = windowOf(c.before);
      const after = windowOf(c.after);
      const afterSeconds: RecoverySecond[] = (c.after?.perSecond ?? []).map((x) => ({
        fromSec: (x.endMs - x.sec * 1000 - c.after!.fromMs) / 1000,
        perSecond: (x.counts[rateOp] ?? 0) / x.sec,
        ...(x.backlog !== undefined ? { backlog: x.backlog } : {}),
      }));
      const pair = (k: keyof TargetReading) => {
        const a = c.atStart?.[k];
        const b = c.atEnd?.[k];
        return a !== undefined && b !== undefined ? { start: a, end: b } : undefined;
      };
      const deadTuples = pair("deadTuples");
      const tableBytes = pair("tableBytes");
      const indexBytes = pair("indexBytes");
      return {
        phase: c.phase,
        did: c.did ?? "nothing",
        startedSec: c.startedMs === undefined ? null : this.secOf(c.startedMs),
        endedSec: c.endedMs === undefined ? null : this.secOf(c.endedMs),
        ...(c.problem ? { problem: c.problem } : {}),
        rate: { operation: rateOp, label: opDef?.label ?? rateOp, unit },
        ...(latency ? { latency: { name: latency.name, label: latency.label } } : {}),
        before,
        during: windowOf(c.during),
        after,
        ...(deadTuples ? { deadTuples } : {}),
        ...(tableBytes ? { tableBytes } : {}),
        ...(indexBytes ? { indexBytes } : {}),
        recoverySec: before && c.startedMs !== undefined ? recoveryOf(afterSeconds, before, asked) : null,
        recoveryRule: recoveryRuleText(before, unit, asked),
      };
    });
  }
}
