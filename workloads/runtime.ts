// The uniform shape of a workload (openmessaging/benchmark's driver split): the engine owns phases, timing,
// samples and the schema; a workload owns its tables, its loops and its verification.
import type pg from "pg";
import type { RunSummary } from "../lib/measurement/summary";
import type { Verification } from "../lib/measurement/verification";
import type { WorkloadConfig } from "../lib/workloads/config";
import type { PartOfRun } from "../lib/workloads/parts";
import {
  type Counter,
  isConnectionError,
  type Operation,
  rollbackQuietly,
  type TargetClient,
  type RunFootprint,
  type RunStats,
  type Pause,
  type Stopper,
  type Pacer,
} from "../runner/core";

export interface WorkloadContext<C extends WorkloadConfig> {
  config: C;
  /** The target's connection string: for a library that opens its own pool (a queue library's workers), never
   *  for the workload's own loops, which get their connections from the engine (roles). */
  targetUrl: string;
  /** The run's own schema on the target, already quoted (e.g. "pgbb_r_1a2b3c"). Every table lives in it. */
  schema: string;
  stats: RunStats;
  /** Paces the run's operations as its definition declares (runner/core/pacing.ts): the workload supplies only the
   *  operations; `pacer.throttle` is null unless the run is throttle-paced. */
  pacer: Pacer;
  /** Stops the writer loops (end of the measured window, or cancel). */
  writersStop: Stopper;
  /** Stops the reader loops (end of the drain, or cancel). */
  readersStop: Stopper;
  /** Paused by a pause-workers phase (runner/phases/): a workload whose definition declares `pausable` passes it at the
   *  top of each consumer turn (`await ctx.readersPause?.pass(readersStop)`). Absent: never paused. */
  readersPause?: Pause;
  /** A loop whose connection is lost calls this; the engine fails the run with the error. */
  fatal: (err: Error) => void;
  /**
   * Present when the run's phases take connections from under its loops (kill-backend): a new connection for `tc` in
   * place of its lost one, retried with back-off; false when the loop must exit (its stop stopped, or the run failed,
   * as when the target took no new connection for 30 s). stepFailed calls it; absent, a lost connection is fatal.
   */
  reconnect?: (tc: TargetClient, stop: Stopper) => Promise<boolean>;
  log: (line: string) => void;
  /** What the run leaves on the target outside its schema (extensions, scheduled jobs), undone at tear-down. */
  footprint: RunFootprint;
  /**
   * The part of a run carried by several runner processes that this instance runs (lib/workloads/parts.ts): it opens
   * only the roles it owns, by their global index (writer w is "writer w" in every part), and writes ids no other
   * part writes. Absent: the whole run, in this one process.
   */
  part?: PartOfRun;
}

/** A verification in the workload's own terms: its facts, and items checked in the unit its definition declares
 *  (verifiedUnit, which the engine adds). */
export interface WorkloadVerification extends Omit<Verification, "unit"> {
  /** Messages written but not read when the readers stopped (not a failure: the drain is time-boxed). Absent: the
   *  workload reads nothing back (runRoles reads it as 0). */
  unreadAtEnd?: number;
}

/** A workload's readers (consumers, subscribers): the connections after its writers' in `roles`. */
export interface Readers {
  /** Starts the reader loops on their clients; resolves once every reader has done its first step. */
  start(clients: TargetClient[]): Promise<void>;
  /** Resolves when every reader loop has exited (after ctx.readersStop.stop()). */
  done(): Promise<void>;
}

export interface WorkloadRun {
  /** Connection roles, one per client: "writer 3", "reader g1 p2", … (one connection each, as the reference). */
  readonly roles: string[];
  /** Remarks for the summary, e.g. a metric that cannot be measured with this config. */
  readonly notes: string[];
  /** Creates the workload's tables inside ctx.schema (the schema exists already). */
  setup(admin: pg.Client): Promise<void>;
  /** Its readers, when it has any (a workload without readers declares none). */
  readonly readers?: Readers;
  /** Starts the writer loops. */
  startWriters(clients: TargetClient[]): void;
  /** Resolves when every writer loop has exited (after ctx.writersStop.stop()). */
  writersDone(): Promise<void>;
  /** Whether the run has done all it set out to do before its measured window's end (a drain of pre-loaded jobs
   *  that finished): the window then ends early. Absent: the window runs its length. */
  finished?(): boolean;
  /** Checks what was read against what was written, in memory and in SQL. Loops must have stopped. It reads only
   *  this instance's own record of what it did (what ledger() returns and absorb() adds to), never ctx.stats. */
  verify(admin: pg.Client): Promise<WorkloadVerification>;
  /**
   * A part's record of what it did that verify() needs (what each writer committed, what was read, …), JSON-safe.
   * A workload whose definition declares `parts` has it.
   */
  ledger?(): Ledger;
  /**
   * On the run's coordinating instance (created without a part, set up, never started): takes every part's ledger,
   * so that verify() then checks the whole run, every item of every part accounted for.
   */
  absorb?(ledgers: readonly Ledger[]): void;
}

/**
 * The roles a workload may leave out, as the engine, a part, the coordinator and the test harness read them: the
 * defaults of a workload without readers, consumer groups or anything unread, in this one place.
 */
export const runRoles = {
  groups: <C extends WorkloadConfig>(module: WorkloadModule<C>, config: C): string[] => module.groupNames?.(config) ?? [],
  startReaders: (run: WorkloadRun, clients: TargetClient[]): Promise<void> => run.readers?.start(clients) ?? Promise.resolve(),
  readersDone: (run: WorkloadRun): Promise<void> => run.readers?.done() ?? Promise.resolve(),
  unreadAtEnd: (v: WorkloadVerification): number => v.unreadAtEnd ?? 0,
};

/** A part's record for verification (WorkloadRun.ledger): plain JSON, sent from the part's process to the coordinator's. */
export type Ledger = Record<string, unknown>;

export interface WorkloadModule<C extends WorkloadConfig = WorkloadConfig> {
  kind: C["kind"];
  /** Consumer group names for stats and samples ("g0", "g1", …; the queue has one: "queue"). Absent: none. */
  groupNames?(config: C): string[];
  /** Writers first in `roles`, then readers; the engine opens one client per role. With a part: the writers it owns. */
  writerCount(config: C, part?: PartOfRun): number;
  create(ctx: WorkloadContext<C>): WorkloadRun;
}

/** A CLI sweep a workload offers: one ordinary run per value of a flag given as a list (runner/cli.ts asks each
 *  one in workloads/runners.ts CLI_SWEEPS whether the command line is its). */
export interface CliSweep {
  plan(argv: string[]): SweepPlan;
  /** The table printed after the last run. */
  text(points: SweepPoint[]): string;
}

export type SweepPlan =
  | { kind: "none" }
  | { kind: "error"; message: string }
  | { kind: "sweep"; flag: string; counts: number[]; argvFor: (value: number) => string[] };

export interface SweepPoint {
  value: number;
  summary?: RunSummary;
  /** Why the run has no summary, or why its verification failed. */
  error?: string;
  runId?: string;
}

/** One consumer group's operations in a broker's recorder (brokerOperations). */
export interface BrokerGroup {
  name: string;
  /** A non-empty read (a poll's rows, a dequeue), timed as the reference times it; its empty polls beside it. */
  read: Operation;
  emptyPolls: Counter;
  /** Every poll's claim, empty or not: timed, never counted (lib/measurement/metrics.ts). */
  claim: Operation;
  /** Each message's delivery from its writer's stamp (and from its scheduled time under a throttle). */
  e2e: Operation;
  e2eScheduled: Operation;
}

/**
 * The operations of a message broker's metric model (workloads/fields.ts brokerMetrics), declared in the run's
 * recorder in its stored order: the run-wide write and, per consumer group, the read (whose backlog is what was
 * written and it has not read), the claim and the delivery.
 */
export function brokerOperations(stats: RunStats): { write: Operation; groups: BrokerGroup[] } {
  const write = stats.op("write");
  const read = stats.perGroup("read", { counters: ["emptyPolls"], drains: { operation: "write", idle: "emptyPolls" } });
  const claim = stats.perGroup("claim", { counted: false });
  const e2e = stats.perGroup("e2e", { counted: false });
  const e2eScheduled = stats.perGroup("e2eScheduled", { counted: false });
  const groups = stats.groups.map((g, i) => ({
    name: g.name,
    read: read[i],
    emptyPolls: read[i].counter("emptyPolls"),
    claim: claim[i],
    e2e: e2e[i],
    e2eScheduled: e2eScheduled[i],
  }));
  return { write, groups };
}

/** Bytes of each payload that carry the writer's clock stamp (a Float64, little-endian). */
export const STAMP_BYTES = 8;

/** Whether payloads of this size can carry the stamp; when not, adds a note saying e2e is not measured. */
export function canStampE2e(payloadBytes: number, notes: string[]): boolean {
  if (payloadBytes >= STAMP_BYTES) return true;
  notes.push(`e2e latency not measured: it needs payloads of at least ${STAMP_BYTES} bytes to carry the writer's clock stamp (payload is ${payloadBytes})`);
  return false;
}

/**
 * Under a throttle, payload bytes 8..15 carry the write's *scheduled* time (a Float64, little-endian, on the same
 * clock), so readers also time delivery from the schedule (e2eScheduled: coordinated omission corrected; a write
 * held up by a stall is late from its schedule, not from when it was finally sent). Every workload keeps this
 * layout: bytes after these 16 are the workload's own (the queue's message identity).
 */
export const SCHEDULE_STAMP_OFFSET = STAMP_BYTES;
export const STAMPS_BYTES = SCHEDULE_STAMP_OFFSET + STAMP_BYTES;

/** Whether a throttled run's payloads carry the scheduled time too; when they cannot, adds a note saying so. */
export function canStampSchedule(payloadBytes: number, throttled: boolean, notes: string[]): boolean {
  if (!throttled) return false;
  if (payloadBytes >= STAMPS_BYTES) return true;
  notes.push(
    `e2e from schedule not measured: it needs payloads of at least ${STAMPS_BYTES} bytes to carry the write's scheduled time beside its send time (payload is ${payloadBytes})`,
  );
  return false;
}

/**
 * Reads the writer's stamp from a bytea value in text form ("\x" + hex, which every runner session asks for:
 * runner/core/pg/pgclient.ts SESSION_SETTINGS): hex chars 2..17 are the first 8 bytes. `scratch` is an 8-byte Buffer reused
 * by the caller, so reading a stamp allocates nothing. Returns NaN when the value is not in hex form or is not
 * a clock reading of this run (between `notBefore` and `notAfter`, clock ms): such a stamp is never a sample.
 * `atByte`: where the stamp starts in the payload (SCHEDULE_STAMP_OFFSET for the scheduled time).
 */
export function stampOfHex(hex: string, scratch: Buffer, notBefore: number, notAfter: number, atByte = 0): number {
  const from = 2 + 2 * atByte;
  if (hex.length < from + 2 * STAMP_BYTES || hex.charCodeAt(0) !== 0x5c || hex.charCodeAt(1) !== 0x78) return NaN; // "\x"
  if (scratch.write(hex.substring(from, from + 2 * STAMP_BYTES), 0, STAMP_BYTES, "hex") !== STAMP_BYTES) return NaN; // not hex
  const t = scratch.readDoubleLE(0);
  return t >= notBefore && t <= notAfter ? t : NaN;
}

/**
 * The verification fact of a run whose loops reconnect (a kill-backend phase): how many operations were in doubt,
 * sent when their connection went and not answered (an insert, a COMMIT), each then settled from the target (it took
 * effect, or it did not) and either outcome accepted. Always passes: what it settled is checked exactly by the others.
 */
export const inDoubtFact = (n: number) => ({ name: "operations in doubt (connection lost before the reply; settled either way)", value: n, ok: true });

/** Pause after a failed write or read (the reference retried at once): a persistent error must not spin a core. */
export const ERROR_PAUSE_MS = 1;

export const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * What every workload loop does when a step fails, in this order: roll back the open transaction, count the
 * error, note it for the summary; when the connection is lost, fail the run (retrying on a dead socket would
 * only count errors), or in a run that reconnects (ctx.reconnect: a kill-backend phase) count what was in flight as
 * in doubt (step.inDoubt) and reconnect; else pause before the next try. Returns true when the loop must exit.
 */
export async function stepFailed(
  ctx: Pick<WorkloadContext<WorkloadConfig>, "stats" | "fatal" | "reconnect">,
  tc: TargetClient,
  err: unknown,
  step: {
    /** Names the step in the noted error ("write p3", "dequeue"). */
    what: string;
    /** Counts the error where it belongs (a write error of B messages, a group's read error). */
    count: () => void;
    /** The step ran outside a transaction: nothing to roll back. */
    noTransaction?: boolean;
    /** Before the next try; default a pause of ERROR_PAUSE_MS. Null: the loop pauses on its own. */
    pause: (() => Promise<unknown>) | null;
    /**
     * When the connection was lost: records what the step had sent and not had answered, which may or may not
     * have taken effect (an autocommit insert, a COMMIT), in the workload's ledger as in doubt. Absent: the step
     * had nothing in doubt (the server rolls back a transaction whose connection dies before its COMMIT).
     */
    inDoubt?: () => void;
    /** The loop's stopper: a reconnection gives up when it stops. Needed where ctx.reconnect may be present. */
    stop?: Stopper;
  },
): Promise<boolean> {
  const lost = isConnectionError(err, tc);
  if (!step.noTransaction && !lost) await rollbackQuietly(tc.client);
  step.count();
  ctx.stats.noteError(`${step.what}: ${errorMessage(err)}`);
  if (lost) {
    if (!ctx.reconnect || !step.stop) {
      ctx.fatal(new Error(`${tc.role} lost its connection: ${errorMessage(err)}`));
      return true;
    }
    // A statement refused by a client already known dead never left: nothing of it is in doubt.
    if (!/not queryable/i.test(errorMessage(err))) step.inDoubt?.();
    return !(await ctx.reconnect(tc, step.stop));
  }
  await step.pause?.();
  return false;
}
