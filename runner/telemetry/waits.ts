// The wait/activity sampler: what the run's backends were doing, counted several times a second on a
// connection and a timer of its own, never on the engine's tick. Why: the engine's once-a-second tick runs
// exactly when the run's connections wait on the client (their replies queue behind the tick), so a reading
// taken then saw them idle: "active" read 0.2-17 % where an independent sampler saw 37-65 %. Here each
// reading is taken at random instants, ~10 a second (it cannot phase-lock with the load's own rhythm), and the counts of
// all the readings of a second make that second's sample.
//
// Where the target has the pg_wait_sampling extension, its profile (the server's own 100 Hz sampling of every
// backend) is read instead, once per sample: the same counts without a statement ten times a second.
import { explainPgError } from "../../lib/targets/pgurl";
import type { BackendCounts, LockBlocker, WaitCounts, WaitSource } from "../../lib/telemetry/shape";
import { closeClient, openClient, type TargetClient } from "../core/pg/pgclient";
import { clock, Stopper } from "../core/timing";

/** The counts of the readings since the last take: each backend seen in one reading counts once. */
export interface WaitTally {
  /** Readings counted (per backend for pg_wait_sampling: its samples in the interval). */
  ticks: number;
  run: BackendCounts;
  other: BackendCounts;
  runWaits: WaitCounts;
  otherWaits: WaitCounts;
  /** The most backends waiting on a heavyweight lock (ungranted locks) in one reading (pg_stat_activity readings only). */
  lockMax?: number;
  /** Who blocked the run's connections on a lock, read while they waited (pg_stat_activity readings only). */
  blockers: LockBlocker[];
}

export interface WaitSamplerOptions {
  /** The run's own backend pids. */
  runPids: () => readonly number[];
  /** Mean period between readings (default 100 ms: 10 Hz); the gaps are exponential around it (Poisson instants). */
  periodMs?: number;
  /** Use pg_wait_sampling when installed (default true). */
  extension?: boolean;
  track?: (tc: TargetClient) => void;
  log?: (line: string) => void;
}

/** The longest mean period the budget may set: one reading a second at random instants still samples at random instants (unbiased), only coarser. */
const MAX_PERIOD_MS = 1000;

/** The share of the target's CPU the sampler's readings may cost the target (under the 1 % budget, with room). The
 *  runner's side of a reading is the runner's own CPU, shown with the runner's load, not charged to the target. */
export const WAITS_COST_SHARE = 0.009;

/**
 * The mean period that keeps the readings' cost under WAITS_COST_SHARE of the target's CPU: given what a reading
 * cost the target (its backend's CPU seconds) and the cores the target's processes used. Never below minPeriodMs,
 * never beyond MAX_PERIOD_MS; `current` when the numbers say nothing (no cost measured, an idle target).
 */
export function budgetPeriodMs(costSecPerReading: number, targetCores: number, minPeriodMs: number, current: number): number {
  if (!(costSecPerReading > 0) || !(targetCores > 0)) return current;
  const allowedPerSec = (WAITS_COST_SHARE * targetCores) / costSecPerReading;
  return Math.min(Math.max(1000 / allowedPerSec, minPeriodMs), MAX_PERIOD_MS);
}

const emptyCounts = (): BackendCounts => ({ total: 0, active: 0, idle: 0, idleInTx: 0 });
const emptyTally = (): WaitTally => ({ ticks: 0, run: emptyCounts(), other: emptyCounts(), runWaits: {}, otherWaits: {}, blockers: [] });

/** Backends waiting on heavyweight locks in a tally's waits: each waits on one lock, so these are its ungranted locks. */
export const lockWaitsIn = (waits: WaitCounts) =>
  Object.entries(waits)
    .filter(([k]) => k.startsWith("Lock:"))
    .reduce((a, [, v]) => a + v, 0);

/** At most one blockers read this often while the run's connections wait on locks (it reads pg_locks: costlier than a reading). */
const BLOCKERS_EVERY_MS = 250;
/** Distinct blockers kept a tally (a second): bounded memory however many sessions block. */
const MAX_BLOCKERS = 20;

/**
 * Who blocks the run's waiting connections: for each of their ungranted locks, the sessions pg_blocking_pids names,
 * the lock's relation (or object) and the mode each holds it in (none: it only waits ahead in line), grouped.
 */
const BLOCKERS_SQL = `SELECT pid, app, query, relation, mode, count(*)::int AS waiters FROM (
    SELECT b.pid, coalesce(b.application_name, '') AS app, left(coalesce(b.query, ''), 300) AS query,
      CASE WHEN wl.relation IS NOT NULL THEN coalesce(n.nspname || '.' || c.relname, wl.relation::text)
           WHEN wl.transactionid IS NOT NULL THEN 'transaction ' || wl.transactionid
           ELSE wl.locktype END AS relation,
      (SELECT string_agg(DISTINCT hl.mode, ', ') FROM pg_locks hl
        WHERE hl.pid = b.pid AND hl.granted AND hl.locktype = wl.locktype
          AND hl.database IS NOT DISTINCT FROM wl.database AND hl.relation IS NOT DISTINCT FROM wl.relation
          AND hl.page IS NOT DISTINCT FROM wl.page AND hl.tuple IS NOT DISTINCT FROM wl.tuple
          AND hl.transactionid IS NOT DISTINCT FROM wl.transactionid AND hl.classid IS NOT DISTINCT FROM wl.classid
          AND hl.objid IS NOT DISTINCT FROM wl.objid AND hl.objsubid IS NOT DISTINCT FROM wl.objsubid) AS mode
    FROM pg_locks wl
    CROSS JOIN LATERAL unnest(pg_blocking_pids(wl.pid)) AS bp(pid)
    JOIN pg_stat_activity b ON b.pid = bp.pid
    LEFT JOIN pg_class c ON c.oid = wl.relation
    LEFT JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE NOT wl.granted AND wl.pid = ANY($1::int[])
  ) x GROUP BY 1, 2, 3, 4, 5`;

const pidArray = (pids: readonly number[]) => `'{${pids.filter((p) => Number.isInteger(p) && p > 0).join(",")}}'::int[]`;

/** Counts one group of backends (n of them in one state and wait) into the tally. */
function count(t: WaitTally, isRun: boolean, state: "active" | "idle" | "idleInTx", wait: string | null, n: number) {
  const counts = isRun ? t.run : t.other;
  counts.total += n;
  counts[state] += n;
  if (state !== "active") return;
  const waits = isRun ? t.runWaits : t.otherWaits;
  const key = wait ?? "CPU";
  waits[key] = (waits[key] ?? 0) + n;
}

export class WaitSampler {
  private tally = emptyTally();
  private stopper = new Stopper();
  private loop: Promise<void> = Promise.resolve();
  /** pg_wait_sampling: the profile's cumulative count per pid and wait at the previous take. */
  private profile = new Map<string, number>();
  private baselined = false;
  /** Mean period between readings now (the budget may lengthen it: budget()). */
  private periodMs = 100;
  private minPeriodMs = 100;
  private blockersAt = Number.NEGATIVE_INFINITY;
  failed?: string;

  private constructor(
    private conn: TargetClient,
    readonly source: WaitSource,
    private opts: WaitSamplerOptions,
  ) {}

  static async start(url: string, opts: WaitSamplerOptions): Promise<WaitSampler> {
    const watch = opts.track ? { track: opts.track, onLost: () => undefined, closing: () => true } : undefined;
    const conn = await openClient(url, "telemetry-waits", true, 8000, watch);
    try {
      await conn.client.query("SET statement_timeout = '1s'; SET lock_timeout = '500ms'");
      const ext =
        opts.extension !== false &&
        (await conn.client.query("SELECT 1 FROM pg_extension WHERE extname = 'pg_wait_sampling'")).rows.length > 0 &&
        // Installed but not preloaded, the profile view errors: fall back to sampling ourselves.
        (await conn.client.query("SELECT count(*) FROM pg_wait_sampling_profile").then(
          () => true,
          () => false,
        ));
      const periodMs = opts.periodMs ?? 100;
      const source: WaitSource = ext
        ? { kind: "pg_wait_sampling", hz: 100, note: "the pg_wait_sampling extension's profile (the server samples every backend, 100 Hz by default)" }
        : {
            kind: "pg_stat_activity",
            hz: 1000 / periodMs,
            note: `pg_stat_activity read up to ${Math.round(1000 / periodMs)} times a second at random instants (Poisson), on a connection and timer of its own (fewer, down to 1, where a local target spends so little CPU that the readings would cost more than 1 % of it)`,
          };
      const s = new WaitSampler(conn, source, opts);
      conn.client.on("error", (err) => s.fail(`the wait sampler's connection was lost: ${explainPgError(err)}`));
      if (ext)
        await s.readProfile(); // the baseline
      else {
        // Half the rate until the first budget (a collector's first sample): a light target's first second
        // would otherwise cost it the most.
        s.minPeriodMs = periodMs;
        s.periodMs = Math.min(2 * periodMs, MAX_PERIOD_MS);
        s.loop = s.run();
      }
      return s;
    } catch (err) {
      await closeClient(conn.client);
      throw err;
    }
  }

  /** The sampler's own backend (its CPU is part of the telemetry's cost). */
  get backendPid(): number {
    return this.conn.pid;
  }

  /** The counts since the previous take (undefined when the sampler has failed); starts a new tally. A take with
   *  no reading in its interval counts none (ticks 0): the caller must not fill it with a reading of its own. */
  async take(): Promise<WaitTally | undefined> {
    if (this.failed) return undefined;
    if (this.source.kind === "pg_wait_sampling") {
      try {
        return await this.readProfile();
      } catch (err) {
        this.fail(`reading pg_wait_sampling_profile failed: ${explainPgError(err)}`);
        return undefined;
      }
    }
    const t = this.tally;
    this.tally = emptyTally();
    return t;
  }

  async stop(): Promise<void> {
    this.stopper.stop();
    await closeClient(this.conn.client);
    await this.loop;
  }

  private fail(reason: string) {
    if (this.failed || this.stopper.stopped) return;
    this.failed = reason;
    this.opts.log?.(`telemetry: ${reason}`);
    this.stopper.stop();
  }

  /** Keeps the sampler's cost under its share of the target's own CPU (budgetPeriodMs). */
  budget(costSecPerReading: number, targetCores: number) {
    this.periodMs = budgetPeriodMs(costSecPerReading, targetCores, this.minPeriodMs, this.periodMs);
  }

  /**
   * The gap to the next reading: exponential around the period (Poisson sampling), so each reading falls at a
   * random phase of any rhythm the load has (the engine's 1 s tick above all) and the readings see time
   * averages; a fixed or slightly jittered period near 1 s would drift slowly against the tick and see a few
   * phases of it. Clamped to 5-400 % of the period.
   */
  private nextGapMs(): number {
    return this.periodMs * Math.min(Math.max(-Math.log(1 - Math.random()), 0.05), 4);
  }

  /** Readings per second now. */
  get hz(): number {
    return 1000 / this.periodMs;
  }

  private async run() {
    let due = clock() + this.nextGapMs();
    while (!this.stopper.stopped) {
      await this.stopper.sleep(Math.max(due - clock(), 0));
      if (this.stopper.stopped) break;
      if (clock() < due) continue; // timers fire early
      try {
        await this.readActivity();
      } catch (err) {
        if (!this.stopper.stopped) this.fail(`a wait reading failed: ${explainPgError(err)}`);
        break;
      }
      due = Math.max(due + this.nextGapMs(), clock());
    }
  }

  /** One pg_stat_activity reading, grouped on the server (a few rows whatever the number of backends). */
  private async readActivity() {
    // Prepared once (named), the pids a parameter: ten times a second, parsing and planning would be most of
    // its cost. pg_stat_get_activity is pg_stat_activity without the view's joins to role and database names.
    const pids = `{${this.opts
      .runPids()
      .filter((p) => Number.isInteger(p) && p > 0)
      .join(",")}}`;
    const r = await this.conn.client.query({
      name: "pgbb_waits",
      text: `SELECT pid = ANY($1::int[]) AS run, state,
         CASE WHEN wait_event_type IS NULL THEN NULL ELSE wait_event_type || ':' || wait_event END AS wait, count(*)::int AS n
       FROM pg_stat_get_activity(NULL) WHERE pid <> pg_backend_pid() AND state IS NOT NULL GROUP BY 1, 2, 3`,
      values: [pids],
    });
    const t = this.tally;
    t.ticks++;
    let locks = 0;
    let runLocks = 0;
    for (const row of r.rows) {
      const st = String(row.state);
      const state = st === "active" ? "active" : st.startsWith("idle in transaction") ? "idleInTx" : "idle";
      const isRun = row.run === true || row.run === "t";
      count(t, isRun, state, row.wait, Number(row.n));
      if (state === "active" && String(row.wait).startsWith("Lock:")) {
        locks += Number(row.n);
        if (isRun) runLocks += Number(row.n);
      }
    }
    t.lockMax = Math.max(t.lockMax ?? 0, locks);
    // The run's connections wait on a lock now: who holds it, read while they wait (a few times a second at most).
    if (runLocks > 0 && clock() - this.blockersAt >= BLOCKERS_EVERY_MS) {
      this.blockersAt = clock();
      await this.readBlockers(pids);
    }
  }

  /** Adds who blocks the run's waiting connections now to the tally (LockBlocker). */
  private async readBlockers(pids: string) {
    const r = await this.conn.client.query({ name: "pgbb_blockers", text: BLOCKERS_SQL, values: [pids] });
    const t = this.tally;
    for (const row of r.rows) {
      const b = {
        relation: String(row.relation),
        ...(row.mode !== null ? { mode: String(row.mode) } : {}),
        pid: Number(row.pid),
        applicationName: String(row.app),
        query: String(row.query),
      };
      const same = t.blockers.find((x) => x.pid === b.pid && x.relation === b.relation && x.mode === b.mode);
      if (same) {
        same.readings++;
        same.waiters += Number(row.waiters);
        same.query = b.query;
      } else if (t.blockers.length < MAX_BLOCKERS) t.blockers.push({ ...b, readings: 1, waiters: Number(row.waiters) });
    }
  }

  /**
   * pg_wait_sampling's profile since the previous read, for client backends: a backend waiting on
   * Client:ClientRead is idle (waiting for the client's next statement), any other sample is active.
   */
  private async readProfile(): Promise<WaitTally | undefined> {
    const r = await this.conn.client.query(
      `SELECT p.pid, p.pid = ANY(${pidArray(this.opts.runPids())}) AS run,
         CASE WHEN p.event_type IS NULL THEN NULL ELSE p.event_type || ':' || p.event END AS wait, sum(p.count)::float8 AS n
       FROM pg_wait_sampling_profile p JOIN pg_stat_activity a ON a.pid = p.pid
       WHERE a.backend_type = 'client backend' AND p.pid <> pg_backend_pid() GROUP BY 1, 2, 3`,
    );
    const t = emptyTally();
    const perPid = new Map<number, number>();
    const seen = new Map<string, number>();
    const first = !this.baselined;
    this.baselined = true;
    for (const row of r.rows) {
      const key = `${row.pid}|${row.wait}`;
      seen.set(key, Number(row.n));
      const d = Math.max(Number(row.n) - (this.profile.get(key) ?? 0), 0);
      if (d === 0) continue;
      perPid.set(Number(row.pid), (perPid.get(Number(row.pid)) ?? 0) + d);
      count(t, row.run === true || row.run === "t", row.wait === "Client:ClientRead" ? "idle" : "active", row.wait, Math.round(d));
    }
    this.profile = seen;
    // A backend present the whole interval was sampled this many times: the number of "readings".
    t.ticks = Math.max(0, ...perPid.values());
    return first ? undefined : t;
  }
}
