// What each phase kind does to the target or the run (lib/phases/shape.ts PHASE_KINDS), on a connection of its own
// named for the phase (application_name "pgbb phase <phase>", which the verdict's held-snapshot finding reads back), or
// on the run's consumers' gate. Each begins, then ends when told (its length is the driver's to keep).
import pg from "pg";
import { type Phase, type PhaseKind, phaseApplicationName, phaseText } from "../../lib/phases/shape";
import { ClusterRestartFailed, RESTART_INSTEAD, restartCluster } from "../../platform/cluster-restart";
import { clock, type Pause } from "../core";
import { libraryApplicationName } from "../core/pg/pgclient";
import { otherRunsLocked, otherRunsStarting } from "./restart-check";

/** A phase in progress: what it did, in words, and how to end it. */
export interface Begun {
  did: string;
  end(): Promise<void>;
}

export interface ActionContext {
  targetUrl: string;
  /** The run's schema, unquoted. */
  schemaName: string;
  /** The consumers' gate (runner/core/timing.ts Pause). */
  pause: Pause;
  /** The run's own loops' connections as they are now (a loop that reconnected has a new pid). */
  backends: () => readonly { role: string; pid: number }[];
  /** The target's cluster folder, when the preflight found it one a phase may restart (./restart-check.ts). */
  clusterDir?: string;
  /** Takes the target down and up again with the run expecting it (runner/run-control.ts throughOutage). */
  outage?: <T>(down: () => Promise<T>) => Promise<T>;
  /** The backend pid of the run's admin session now (it is opened again after a restart): not another run's. */
  adminPid?: () => number;
}

type Action = (p: Phase, ctx: ActionContext) => Promise<Begun>;

/**
 * A phase that acted on the target and then failed (a restart whose pg_ctl stopped the server and did not start it
 * again): it did begin, so its seconds are the run's phase's as any other's. `did` says what it did; the message,
 * what went wrong.
 */
export class PhaseActedError extends Error {
  constructor(
    readonly did: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** A connection of the phase's own, named for it, so pg_stat_activity and the verdict say whose it is. */
async function phaseClient(p: Phase, ctx: ActionContext): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: ctx.targetUrl, application_name: phaseApplicationName(p) });
  c.on("error", () => undefined); // a connection that goes away mid-phase is reported by the query that finds it
  await c.connect();
  return c;
}

const endQuietly = async (c: pg.Client) => {
  await c.end().catch(() => undefined);
};

/** A transaction that took a snapshot and an id and then sits idle in transaction: the xmin horizon stays behind it. */
const holdXmin: Action = async (p, ctx) => {
  const c = await phaseClient(p, ctx);
  try {
    await c.query("BEGIN ISOLATION LEVEL REPEATABLE READ");
    const { rows } = await c.query<{ pid: number; xid: string }>("SELECT pg_backend_pid() AS pid, txid_current()::text AS xid");
    return {
      did: `held transaction ${rows[0].xid} open (REPEATABLE READ, idle in transaction) on pid ${rows[0].pid}`,
      end: async () => {
        await c.query("ROLLBACK").catch(() => undefined);
        await endQuietly(c);
      },
    };
  } catch (err) {
    await endQuietly(c);
    throw err;
  }
};

/** One read of the run's largest table that then sleeps for the phase's length inside the same statement: an active
 *  query whose snapshot is held as long (a report, a backup's scan). Cancelled at the phase's end if still running. */
const longReader: Action = async (p, ctx) => {
  const c = await phaseClient(p, ctx);
  try {
    const { rows } = await c.query<{ pid: number; rel: string | null }>(
      `SELECT pg_backend_pid() AS pid,
         (SELECT format('%I.%I', n.nspname, c.relname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') ORDER BY c.relpages DESC, c.relname LIMIT 1) AS rel`,
      [ctx.schemaName],
    );
    const { pid, rel } = rows[0];
    if (!rel) throw new Error(`the run's schema ${ctx.schemaName} has no table to read`);
    // The sleep is evaluated once, after the count: the statement's snapshot is held for the whole phase.
    const reading = c.query(`SELECT count(*), pg_sleep($1) FROM (SELECT 1 FROM ${rel}) t`, [p.lengthSec]).then(
      () => undefined,
      () => undefined,
    );
    return {
      did: `read ${rel} in one statement held ${p.lengthSec} s on pid ${pid}`,
      end: async () => {
        const canceller = await phaseClient(p, ctx).catch(() => null);
        await canceller?.query("SELECT pg_cancel_backend($1)", [pid]).catch(() => undefined);
        if (canceller) await endQuietly(canceller);
        await reading;
        await endQuietly(c);
      },
    };
  } catch (err) {
    await endQuietly(c);
    throw err;
  }
};

/** The consumers stop between their turns (holding nothing), the producers go on; resumed at the end. */
const pauseWorkers: Action = async (_p, ctx) => {
  ctx.pause.pause();
  return {
    did: "paused the consumers between their turns; the producers went on",
    end: async () => ctx.pause.resume(),
  };
};

/**
 * Terminates one of the run's own backends (pg_terminate_backend): a loop's connection, or one of a queue library's
 * pool (named libraryApplicationName), never the run's admin, telemetry or phase connections, nor anyone else's.
 * One in a statement or a transaction is preferred (what is in flight is what a killed backend puts in doubt), else
 * any. The loop finds its statement failed, reconnects and settles what was in flight (workloads/runtime.ts
 * stepFailed). An instant: nothing to end.
 */
const killBackend: Action = async (p, ctx) => {
  const c = await phaseClient(p, ctx);
  try {
    const own = ctx.backends();
    const { rows } = await c.query<{ pid: number; app: string; state: string | null }>(
      `SELECT pid, application_name AS app, state FROM pg_stat_activity
       WHERE (pid = ANY($1::int[]) OR application_name = $2) AND pid <> pg_backend_pid()
       ORDER BY state IN ('active', 'idle in transaction') DESC, random() LIMIT 1`,
      [own.map((b) => b.pid), libraryApplicationName(ctx.schemaName)],
    );
    if (!rows.length) throw new Error("the run has no backend on the target to terminate");
    const { pid, app, state } = rows[0];
    const role = own.find((b) => b.pid === pid)?.role ?? `a connection of the queue library's pool (${app})`;
    const done = await c.query<{ ok: boolean }>("SELECT pg_terminate_backend($1) AS ok", [pid]);
    if (!done.rows[0].ok) throw new Error(`pg_terminate_backend(${pid}) found no such backend (${role}'s): it had ended already`);
    return { did: `terminated ${role}'s backend (pid ${pid}, ${state ?? "no state"})`, end: async () => undefined };
  } finally {
    await endQuietly(c);
  }
};

/** The longest a restart may take (pg_ctl's wait, then the first new connection) before the phase fails the run. */
const RESTART_TIMEOUT_MS = 60_000;

/** Resolves once a new connection to `url` answers a query; throws past `deadline` (clock ms). */
async function firstAnswer(url: string, deadline: number): Promise<void> {
  for (;;) {
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000, application_name: "pgbb phase restart-target" });
    c.on("error", () => undefined);
    try {
      await c.connect();
      await c.query("SELECT 1");
      return;
    } catch (err) {
      if (clock() > deadline)
        throw new Error(`the target did not take a new connection within ${RESTART_TIMEOUT_MS / 1000} s of its restart: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await endQuietly(c);
    }
  }
}

/**
 * Restarts the target (`pg_ctl restart -m fast -w` on its cluster, as its owner: platform/cluster-restart.ts), only
 * on a target the preflight found an embedded cluster this product started here (runner/phases/restart-check.ts).
 * Every session ends: the loops reconnect as after a killed backend, what was in flight is in doubt and settled at
 * verification; the run's other connections are opened again after it (RunControl.throughOutage). Its `did` says
 * how long the target was down: from the restart's start until a new connection answered. An instant: nothing to end.
 */
const restartTarget: Action = async (p, ctx) => {
  const { clusterDir, outage } = ctx;
  if (!clusterDir || !outage) throw new Error("the target was not found to be an embedded cluster a phase may restart (the run's preflight)");
  // Checked at the run's preflight, and again now: a run started on this server since would lose every session too.
  const check = await phaseClient(p, ctx);
  const others = await Promise.all([otherRunsLocked(check, ctx.schemaName), ctx.adminPid ? otherRunsStarting(check, ctx.adminPid()) : null])
    .then((found) => found.filter((f) => f !== null).join("; "))
    .finally(() => endQuietly(check));
  if (others)
    throw new Error(
      `another run has started on this target since this run's preflight (${others}): a restart would end its sessions too, so it was not carried out; ${RESTART_INSTEAD}`,
    );
  const t0 = clock();
  let upMs = 0;
  let restarted = false;
  const did = "restarted the target (pg_ctl restart -m fast)";
  try {
    await outage(async () => {
      await restartCluster(clusterDir, RESTART_TIMEOUT_MS);
      restarted = true;
      await firstAnswer(ctx.targetUrl, t0 + RESTART_TIMEOUT_MS);
      upMs = clock();
    });
  } catch (err) {
    // pg_ctl ran: the server went down (and may be down still); not a phase that "could not begin".
    if (restarted || err instanceof ClusterRestartFailed) throw new PhaseActedError(did, (err as Error).message, { cause: err });
    throw err;
  }
  const down = ((upMs - t0) / 1000).toFixed(1);
  return {
    did: `${did}: down ${down} s, from the restart's start until a new connection answered`,
    end: async () => undefined,
  };
};

const ACTIONS: Record<PhaseKind, Action> = {
  "hold-xmin": holdXmin,
  "long-reader": longReader,
  "pause-workers": pauseWorkers,
  "kill-backend": killBackend,
  "restart-target": restartTarget,
};

/** Begins `p`; throws what kept it from beginning, naming the phase. */
export async function begin(p: Phase, ctx: ActionContext): Promise<Begun> {
  try {
    return await ACTIONS[p.kind](p, ctx);
  } catch (err) {
    if (err instanceof PhaseActedError) throw err;
    throw new Error(`${phaseText(p)} could not begin: ${(err as Error).message}`, { cause: err });
  }
}
