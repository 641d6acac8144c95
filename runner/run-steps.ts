// A run's steps around its load, the same for a run in one process and a run over several (runner/engine.ts
// runWorkload runs them in order over one RunContext, ./run-context.ts):
//   preflight — connect, check the target may be written and has room, watch its disks;
//   setup     — the run's schema (locked, commented) and the workload's own setup;
//   (load     — ./local-load.ts here, or runner/parts/coordinator.ts over parts: a ./load-outcome.ts LoadOutcome)
//   verify    — the workload's checks on the target (from every part's ledger), then the run's summary;
//   teardown  — the run's footprint undone and its schema dropped; and, on a failure, the loops stopped first.
import type pg from "pg";
import { RunSummary } from "../lib/measurement/summary";
import { budgetProblem, readBudget } from "../lib/targets/capacity";
import { controlStoreProblem, readTargetFacts, type ServerIdentity } from "../lib/targets/connect";
import { explainPgError, maskUrl } from "../lib/targets/pgurl";
import { definitionOf, type WorkloadConfig } from "../lib/workloads/config";
import { phasesOf, restartsTarget } from "../lib/phases/shape";
import { diskOf } from "../platform/disk";
import { runRoles } from "../workloads/runtime";
import type { LoadOutcome } from "./load-outcome";
import { DiskWatch, reserveMbFromEnv, type WatchedFolder } from "./disk-watch";
import { restartableTarget } from "./phases/restart-check";
import { TargetUnresponsive } from "./pg/liveness";
import { closeClient, openClient } from "./core/pg/pgclient";
import { RunCancelled, type RunContext, verificationError } from "./run-context";
import { sessionSettingProblem } from "./session-options";
import { isLocalAddress, type TargetFacts } from "./run-summary";
import { schemaComment, schemaLock } from "./sweep";

/** Connects, checks the target, and starts watching the disks the run fills. */
export async function preflight(ctx: RunContext): Promise<void> {
  const { log, targetUrl, opts, control } = ctx;
  log(`connecting to ${maskUrl(targetUrl)}`);
  ctx.admin = await openClient(targetUrl, "admin", false, 8000, control.watch);
  control.check();
  const { facts, identity } = await checkTarget(ctx.admin.client, ctx.config, opts.controlStore);
  const unset = sessionSettingProblem(ctx.config, [ctx.admin]);
  if (unset) throw new Error(unset);
  // The settings read leave out a session's own: the run's sessions had the one it set, not the server's.
  if (ctx.config.synchronousCommit) facts.serverSettings.synchronous_commit = ctx.admin.synchronousCommit!;
  ctx.facts = facts;
  // A phase that restarts the target: only an embedded cluster this product started here, never the control store's
  // (refused now, before any load, naming what to do instead).
  if (restartsTarget(phasesOf(ctx.config)))
    ctx.restartDir = await restartableTarget(ctx.admin.client, { ...identity, serverAddress: facts.serverAddress }, opts.controlStore);
  control.check();
  // Free space of the disks this run fills (a local target's) or that must keep room (the control store's).
  const disks = new DiskWatch(
    [...(await localDataFolders(ctx.admin.client, facts.serverAddress)), ...(opts.watchDisks ?? [])],
    opts.diskReserveMb ?? reserveMbFromEnv(),
  );
  for (const line of disks.describe()) log(line);
  const refused = disks.check(true);
  if (refused) throw new Error(refused);
  ctx.diskWatch = disks;
}

/**
 * Checks the target may be written (not the control store's database, not read-only) and the run fits its
 * connection limit; throws an Error naming what is wrong and what to change.
 */
async function checkTarget(
  admin: pg.Client,
  config: WorkloadConfig,
  control: ServerIdentity | null | undefined,
): Promise<{ facts: TargetFacts; identity: ServerIdentity }> {
  const target = await readTargetFacts(admin);
  const refused = controlStoreProblem(target, control) ?? target.readOnly;
  if (refused) throw new Error(refused);
  // The admin connection is open already: it is one of the run's connections, and not among the others in use.
  const { budget, row } = await readBudget(admin);
  const problem = budgetProblem(config, budget, "now");
  if (problem) throw new Error(problem.message);
  const { max, version, addr } = row;
  const s = await admin.query<{ name: string; value: string }>(
    // Settings whose value differs from the built-in default (client/session-level ones are our own). A source
    // other than 'default' is not enough: initdb writes shared_buffers = 128MB, DateStyle… into postgresql.conf
    // at their default values. setting and boot_val are both in the setting's base unit, so they compare as is.
    `SELECT name, current_setting(name) AS value FROM pg_settings
     WHERE source NOT IN ('default', 'override', 'client', 'session') AND setting IS DISTINCT FROM boot_val
     ORDER BY name`,
  );
  const serverSettings = Object.fromEntries(s.rows.map((x) => [x.name, x.value]));
  return { facts: { postgresVersion: version, serverSettings, maxConnections: max, serverAddress: addr }, identity: target };
}

/**
 * A target on this machine: its data folder and its WAL's (pg_wal may be a link to another disk), when the server
 * tells them (superusers and pg_read_all_settings do) and this process can see them. Else nothing to watch.
 */
async function localDataFolders(admin: pg.Client, serverAddress: string | null): Promise<WatchedFolder[]> {
  if (!isLocalAddress(serverAddress)) return [];
  try {
    const dir = (await admin.query<{ d: string }>("SELECT current_setting('data_directory') AS d")).rows[0].d;
    const wal = `${dir}/pg_wal`;
    const apart = diskOf(wal) && diskOf(wal)?.mount !== diskOf(dir)?.mount;
    return [{ what: "the target's data", dir }, ...(apart ? [{ what: "the target's WAL", dir: wal }] : [])];
  } catch {
    return [];
  }
}

/** Creates the run's schema (held by this session's lock, commented with whose it is) and sets the workload up. */
export async function setup(ctx: RunContext): Promise<void> {
  const { schema, schemaName, opts, control } = ctx;
  const admin = ctx.admin!.client;
  // Held by this session until the run ends: a sweep (runner/sweep.ts) never drops a schema in use.
  await admin.query(schemaLock("pg_advisory_lock"), [schemaName]);
  // A run that restarts its target loses this session with it: reopened after each restart, its locks taken again.
  if (ctx.restartDir !== undefined) control.onOutageEnd(() => reopenAdmin(ctx));
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
  } catch (err) {
    // Only a missing privilege calls for CREATE; read-only targets were named by the preflight.
    const hint = (err as { code?: string }).code === "42501" ? ". The user needs CREATE on the database" : "";
    throw new Error(`cannot create the run's schema ${schemaName} on the target: ${explainPgError(err)}${hint}`, { cause: err });
  }
  ctx.schemaCreated = true;
  // Whose and how old: a runner's sweep (runner/sweep.ts) drops the schema if this run cannot.
  await admin.query(`COMMENT ON SCHEMA ${schema} IS '${schemaComment(opts.runId).replace(/'/g, "''")}'`);
  opts.onSchema?.(schemaName);
  ctx.run = ctx.module.create({
    config: ctx.config as never,
    targetUrl: ctx.targetUrl,
    schema,
    stats: ctx.stats,
    pacer: ctx.pacer,
    writersStop: control.writersStop,
    readersStop: control.readersStop,
    readersPause: control.readersPause,
    fatal: control.fail,
    ...(control.reconnects ? { reconnect: control.reconnect } : {}),
    log: ctx.log,
    footprint: ctx.footprint,
  });
  await ctx.run.setup(admin);
  control.check();
}

/**
 * After a restart of the target: the admin connection, if it went with it, opened again (RunControl.reopen: the
 * loops' back-off, until RECONNECT_GIVE_UP_MS pass), and what its session held taken again: the lock on the run's schema that keeps a
 * sweep off it, and the shared locks on the extensions the run uses.
 */
async function reopenAdmin(ctx: RunContext): Promise<void> {
  const tc = ctx.admin!;
  if (
    !tc.lost &&
    (await tc.client.query("SELECT 1").then(
      () => true,
      () => false,
    ))
  )
    return;
  // Tried as a loop's connection is; when the target takes none in time, the run fails naming the admin session.
  if (!(await ctx.control.reopen(tc))) return;
  await tc.client.query(schemaLock("pg_advisory_lock"), [ctx.schemaName]);
  await ctx.footprint.retakeLocks(tc.client);
}

/** Verifies the run on the target (from every part's ledger, for a run over parts) and returns its summary. */
export async function verify(ctx: RunContext, load: LoadOutcome): Promise<RunSummary> {
  ctx.setPhase("verifying");
  const run = ctx.run!;
  if (load.ledgers) run.absorb?.(load.ledgers);
  const v = await run.verify(ctx.admin!.client);
  const { unreadAtEnd: _, ...checks } = v;
  const unreadAtEnd = runRoles.unreadAtEnd(v);
  // Counted in the unit the workload declares ("rows checked"), never assumed to be messages.
  const verification = { ...checks, unit: definitionOf(ctx.config).verifiedUnit };
  const summary = await load.summarize(verification, unreadAtEnd);
  // The summary is a contract (lib/measurement/summary.ts): check it before anyone stores it.
  const parsed = RunSummary.safeParse(summary);
  if (!parsed.success) throw new Error(`internal error: the summary does not match its schema: ${parsed.error.issues[0]?.message}`);
  if (!verification.ok) ctx.log(verificationError(summary)!);
  return summary;
}

/**
 * Ends the loops' clients, undoes the run's footprint outside its schema (runner/core/footprint.ts: jobs first,
 * extensions after the schema) and drops the schema; returns what was left behind (for the run's error), if anything.
 */
export async function teardown(ctx: RunContext): Promise<string | undefined> {
  const { admin, schemaName, schema, opts, log, footprint } = ctx;
  ctx.control.closing = true;
  await Promise.all(ctx.clients.map((c) => closeClient(c.client)));
  if (!ctx.schemaCreated || !admin) return;
  const left = `the run's schema ${schemaName} could not be dropped`;
  const later = opts.runId ? "a runner's sweep drops it once the target answers" : `drop it by hand: DROP SCHEMA ${schema} CASCADE`;
  if (admin.lost) {
    if (opts.keepSchema) return;
    const why = admin.lost instanceof TargetUnresponsive ? "the target did not answer" : "the connection to the target was lost";
    log(`could not drop schema ${schemaName} (${why}); ${later}`);
    return `${left} (${why}); ${later}`;
  }
  // Do not wait forever on a lock held by a session we do not control.
  await admin.client.query("SET lock_timeout = '5s'").catch(() => undefined);
  await footprint.undoRegistered(admin.client);
  // A kept schema's objects still use the run's extensions: they stay (the caller drops both).
  if (opts.keepSchema) return void (await footprint.releaseExtensions(admin.client, false));
  try {
    await admin.client.query(`DROP SCHEMA ${schema} CASCADE`);
    ctx.schemaCreated = false;
  } catch (err) {
    const why = ctx.control.liveness.unresponsive ? "the target did not answer" : explainPgError(err);
    log(`could not drop schema ${schemaName}: ${why}; ${later}`);
    return `${left} (${why}); ${later}`;
  }
  await footprint.releaseExtensions(admin.client);
}

/**
 * The error a failed run ends with, after its loops were stopped (politely, then by cancelling their statements),
 * its samples delivered and its schema dropped: the first failure, saying what else happened on the way out.
 */
export async function failedRun(ctx: RunContext, err: unknown): Promise<Error> {
  const { control } = ctx;
  const e = control.failure ?? (err instanceof Error ? err : new Error(String(err)));
  await ctx.telemetry?.stop();
  await control.stopLoops(ctx.run, ctx.admin, ctx.clients);
  await ctx.sampleChain;
  const left = await teardown(ctx);
  if (e instanceof RunCancelled) {
    // A cancel stays a cancel, saying what else happened on the way out.
    const notes = [control.liveness.unresponsive?.message, left].filter((n): n is string => !!n);
    e.notes.push(...notes);
    if (notes.length) e.message += `; ${notes.join("; ")}`;
  } else if (left) e.message += `; ${left}`;
  return e;
}

/** Whatever the run's end: its meter stopped, every connection closed, the liveness watch stopped. */
export async function closeRun(ctx: RunContext): Promise<void> {
  ctx.meter?.stop();
  ctx.control.closing = true;
  await Promise.all([...ctx.clients, ...(ctx.admin ? [ctx.admin] : [])].map((c) => closeClient(c.client)));
  ctx.control.liveness.stop();
}
