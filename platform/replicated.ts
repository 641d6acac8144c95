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
import pg from "pg";
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
import { freePort } from "./ports";
import { measureDelay, type ReplicaDelay, startRelay } from "./relay";
import { readLayout, shapeDifference, writeLayout } from "./replicated-layout";
import { copyOnline, ensureSlots, removeExtraStandbys, setSyncNames, standbyUsable } from "./replicated-setup";
import { defaultSyncNames, waitForReplication } from "./replication-wait";
import { logTail, spawnStandby } from "./standby";
import { copyDataFolder, writeStandbySettings } from "./standby-files";
import { type Incarnation, Supervisor } from "./supervisor";

export type { ReplicaDelay } from "./relay";
export { MAX_REPLICAS };

export interface Standby {
  /** "pg2", "pg3", … (the primary is pg1, as in the published scenario). */
  name: string;
  port: number;
  /** Its data folder. */
  dir: string;
  url(db: string): string;
  /** Its postmaster's pid while it runs. */
  pid(): number | undefined;
  /** Stops it on purpose (fast shutdown); the supervisor leaves it down until start(). */
  stop(): Promise<void>;
  /** Starts it again after stop(); resolves once every standby that is up streams with its sync state. */
  start(): Promise<void>;
  /** The relay it reaches the primary through, when a delay was asked. */
  relay?: { port: number };
}

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

/** The replicated target's home in a data folder: DATA_DIR/replicated. */
export function replicatedHome(dataDir: string): string {
  return path.join(dataDir, "replicated");
}

/** pg2 … pgN+1. */
export function standbyNames(replicas: number): string[] {
  return Array.from({ length: replicas }, (_, i) => `pg${i + 2}`);
}

/** A node kept running: by a supervisor (started again when it dies unasked), or started once. */
interface Kept {
  ready: Promise<void>;
  stop(): Promise<void>;
}

function keep(name: string, start: () => Promise<Incarnation>, supervise: boolean, log: (l: string) => void): Kept {
  if (supervise) {
    const s = new Supervisor({ name, start, log });
    return { ready: s.firstStart, stop: () => s.stop() };
  }
  const once = start();
  once.catch(() => undefined);
  return { ready: once.then(() => undefined), stop: async () => (await once.catch(() => undefined))?.stop() };
}

/** Starts the cluster of `opts.home` (made on first use), resolving once every standby streams with its sync state. */
export async function startReplicated(opts: ReplicatedOptions): Promise<ReplicatedCluster> {
  const { home } = opts;
  const replicas = opts.replicas ?? 2;
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > MAX_REPLICAS)
    throw new StartupError(`A replicated cluster has 1 to ${MAX_REPLICAS} standbys, not ${replicas}`);
  const names = standbyNames(replicas);
  const syncNames = opts.synchronousStandbyNames ?? defaultSyncNames(names);
  const supervise = opts.supervise ?? true;
  const notes: string[] = [];
  const note = (l: string) => (notes.push(l), opts.onNote?.(l));
  checkReachableByPostgresUser(home);
  mkdirSync(home, { recursive: true, mode: 0o755 });
  const lock = takeLock(home);
  const dirOf = (name: string) => path.join(home, name);
  const primaryDir = dirOf("pg1");
  // Nodes left running by an earlier owner that was killed: stopped before their ports are chosen.
  for (const n of ["pg1", ...names]) await stopLeftover(dirOf(n), notes);
  const cleanup: (() => Promise<void>)[] = [];
  const onExit = () => signalNodes([primaryDir, ...names.map(dirOf)]);
  process.on("exit", onExit);
  try {
    const before = readLayout(home);
    const primaryPort = await freePort(before?.primaryPort);
    const ports = await Promise.all(names.map((n) => freePort(before?.standbys.find((s) => s.name === n)?.port)));
    const delayMs = opts.replicaDelayMs ?? 0;
    const relayPorts = delayMs > 0 ? await Promise.all(names.map((n) => freePort(before?.standbys.find((s) => s.name === n)?.relayPort))) : [];
    // Every node takes the same settings: a hot standby refuses to start with less of some (max_connections…).
    const flags = ["-c", `max_wal_senders=${replicas + 8}`, "-c", `max_replication_slots=${replicas + 8}`, ...(opts.postgresFlags ?? [])];
    const startPrimary = (again: boolean) =>
      startEmbedded({
        ...{ dataDir: home, clusterDir: primaryDir, port: primaryPort, heldLock: { again }, onLog: opts.onLog },
        ...{ databases: opts.databases ?? [TARGET_DB], postgresFlags: flags, portVar: "The replicated cluster's primary port" },
      });
    const fresh = !existsSync(path.join(primaryDir, "PG_VERSION"));
    let first = await startPrimary(false);
    cleanup.push(() => first.stop());
    notes.push(...first.notes);
    const password = readFileSync(path.join(home, "pg-password"), "utf8").trim();
    first = await prepareStandbys({ home, names, syncNames, first, fresh, notes, restart: () => startPrimary(false) });
    for (const [i, name] of names.entries()) writeStandbySettings(dirOf(name), { name, port: relayPorts[i] ?? primaryPort, password });
    const url = (port: number) => (db: string) => `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${db}`;

    // From here on every node is kept: the primary already running is its first incarnation.
    let server: EmbeddedServer = first;
    let adopted = false;
    const primaryKept = keep(
      "replicated cluster's primary pg1",
      async () => {
        if (adopted) {
          server = await startPrimary(true);
          for (const n of server.notes) note(n);
        }
        adopted = true;
        return { exited: server.exited!, stop: () => server.stop() };
      },
      supervise,
      note,
    );
    cleanup.splice(0, 1, () => primaryKept.stop());
    await primaryKept.ready;
    let relayChild: ((on: boolean) => void) | undefined;
    if (delayMs > 0) {
      const routes = relayPorts.map((listen) => ({ listen, to: primaryPort }));
      const relayKept = keep(
        "replicated cluster's delay relay",
        async () => {
          const r = await startRelay(routes, delayMs);
          // Its IPC channel, too, keeps this process alive until unref'd.
          relayChild = (on) => (on ? (r.child.ref(), r.child.channel?.ref()) : (r.child.unref(), r.child.channel?.unref()));
          return r;
        },
        supervise,
        note,
      );
      cleanup.unshift(() => relayKept.stop());
      await relayKept.ready;
    }
    const upNow = new Set<string>();
    const standbys = names.map((name, i): Standby & { kept?: Kept; proc?: Awaited<ReturnType<typeof spawnStandby>> } => {
      const dir = dirOf(name);
      const logFile = path.join(home, `${name}.log`);
      const self: Standby & { kept?: Kept; proc?: Awaited<ReturnType<typeof spawnStandby>> } = {
        ...{ name, port: ports[i], dir, url: url(ports[i]), pid: () => runningPid(dir) },
        ...(relayPorts[i] ? { relay: { port: relayPorts[i] } } : {}),
        async stop() {
          const k = self.kept;
          self.kept = undefined;
          upNow.delete(name);
          await k?.stop();
        },
        async start() {
          if (self.kept) return;
          const spawnIt = async () => (self.proc = await spawnStandby({ dataDir: dir, port: ports[i], password, logFile, postgresFlags: flags }));
          self.kept = keep(`standby ${name}`, spawnIt, supervise, note);
          upNow.add(name);
          try {
            await self.kept.ready;
          } catch (err) {
            await self.stop();
            throw err;
          }
          await waitForReplication(url(primaryPort)("postgres"), [...upNow], syncNames, { more: () => tails([...upNow]) });
        },
      };
      return self;
    });
    const tails = (which: string[]) => which.map((n) => `\n  ${n}'s log (${n}.log) ends:\n  ${logTail(path.join(home, `${n}.log`))}`).join("");
    cleanup.unshift(() => Promise.all(standbys.map((s) => s.stop())).then(() => undefined));
    await Promise.all(standbys.map((s) => s.start()));
    const delay = delayMs > 0 ? await measureDelay(url(primaryPort)("postgres"), url(relayPorts[0])("postgres"), delayMs) : undefined;
    if (delay)
      notes.push(
        `Replica delay: asked ${delay.askedMs} ms each way; measured round trip through the relay ${delay.measuredRoundTripMs} ms against ${delay.directRoundTripMs} ms straight (median of ${delay.samples}): ${delay.addedOneWayMs} ms added each way.`,
      );
    writeLayout(home, {
      ownerPid: process.pid,
      primaryPort,
      standbys: standbys.map((s) => ({ name: s.name, port: s.port, relayPort: s.relay?.port })),
      synchronousStandbyNames: syncNames,
      delay,
    });
    const primary: ReplicatedCluster["primary"] = {
      ...{ port: primaryPort, url: url(primaryPort), notes, pid: () => runningPid(primaryDir) },
      stop: () => primaryKept.stop(),
      keepAlive: (on) => server.keepAlive?.(on),
    };
    let stopped = false;
    return {
      ...{ primary, standbys, synchronousStandbyNames: syncNames, delay, notes, home },
      async stop() {
        if (stopped) return;
        stopped = true;
        for (const c of cleanup) await c().catch(() => undefined);
        process.off("exit", onExit);
        lock.release();
      },
      keepAlive(on) {
        primary.keepAlive?.(on);
        for (const s of standbys) if (s.proc) on ? s.proc.child.ref() : s.proc.child.unref();
        relayChild?.(on);
      },
    };
  } catch (err) {
    for (const c of cleanup) await c().catch(() => undefined);
    process.off("exit", onExit);
    lock.release();
    throw err;
  }
}

/**
 * For a command such as the CLI: uses the cluster of `opts.home` that a running start (an `npm start`) owns, and
 * never stops it; else starts it here (and its stop() stops it). A running cluster of another shape than the one
 * asked is refused, saying how it differs.
 */
export async function useReplicated(opts: ReplicatedOptions): Promise<ReplicatedCluster & { owned: boolean }> {
  const lock = path.join(opts.home, "owner.pid");
  const holder = existsSync(lock) ? Number(readFileSync(lock, "utf8").trim()) : 0;
  if (!holder || holder === process.pid || !pidAlive(holder)) return { ...(await startReplicated(opts)), owned: true };
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

/**
 * On the primary `first`: synchronous_standby_names, the slots, and each standby folder that cannot follow it made
 * again: copied while the primary is stopped when it was made just now (its first start), else between
 * pg_backup_start and pg_backup_stop. Returns the primary running (`restart()`ed when it was stopped for the copy).
 */
async function prepareStandbys(o: {
  home: string;
  names: string[];
  syncNames: string;
  first: EmbeddedServer;
  /** The primary was made just now: nothing can have been written to it yet. */
  fresh: boolean;
  notes: string[];
  restart: () => Promise<EmbeddedServer>;
}): Promise<EmbeddedServer> {
  const { fresh } = o;
  const primaryDir = path.join(o.home, "pg1");
  const client = new pg.Client({ connectionString: o.first.url("postgres") });
  await client.connect();
  let remake: string[];
  try {
    await setSyncNames(client, o.syncNames);
    const slotMade = await ensureSlots(client, o.names);
    removeExtraStandbys(o.home, o.names, o.notes);
    remake = o.names.filter((n) => slotMade.includes(n) || !standbyUsable(path.join(o.home, n), primaryDir));
    if (remake.length && !fresh)
      await copyOnline(
        client,
        primaryDir,
        remake.map((n) => path.join(o.home, n)),
      );
  } finally {
    await client.end();
  }
  if (!remake.length) return o.first;
  o.notes.push(
    `Made the standby folder(s) ${remake.join(", ")} from the primary's (${fresh ? "copied while it was stopped" : "copied between pg_backup_start and pg_backup_stop"}).`,
  );
  if (!fresh) return o.first;
  await o.first.stop();
  for (const n of remake) copyDataFolder(primaryDir, path.join(o.home, n), false);
  return o.restart();
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
