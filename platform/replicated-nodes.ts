// The running nodes of a replicated cluster (platform/replicated.ts): the primary, the delay relay and each standby,
// each kept by a supervisor (platform/supervisor.ts: started again after it dies unasked, with a note) or, when
// supervision is off, started once.
import path from "node:path";
import { type EmbeddedServer, runningPid } from "./embedded";
import { startRelay } from "./relay";
import { waitForReplication } from "./replication-wait";
import { logTail, spawnStandby, type StandbyProcess } from "./standby";
import { type Incarnation, Supervisor } from "./supervisor";

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

/** What every node of one cluster shares. */
export interface NodeContext {
  home: string;
  password: string;
  primaryPort: number;
  /** Server settings of every node (a hot standby refuses to start with less of some than its primary). */
  flags: string[];
  syncNames: string;
  supervise: boolean;
  note(line: string): void;
}

/** A node kept running. */
export interface Kept {
  /** Resolves once it first runs; rejects when that start failed. */
  ready: Promise<void>;
  stop(): Promise<void>;
}

function keep(ctx: NodeContext, name: string, start: () => Promise<Incarnation>): Kept {
  if (ctx.supervise) {
    const s = new Supervisor({ name, start, log: ctx.note });
    return { ready: s.firstStart, stop: () => s.stop() };
  }
  const once = start();
  once.catch(() => undefined);
  return { ready: once.then(() => undefined), stop: async () => (await once.catch(() => undefined))?.stop() };
}

/** `postgresql://postgres:…@127.0.0.1:port/db` for a node of the cluster. */
export const nodeUrl = (ctx: NodeContext, port: number) => (db: string) => `postgresql://postgres:${encodeURIComponent(ctx.password)}@127.0.0.1:${port}/${db}`;

/** Keeps the primary: `first` (already running) is its first incarnation, `restart()` makes the next ones. */
export function keepPrimary(ctx: NodeContext, first: EmbeddedServer, restart: () => Promise<EmbeddedServer>): Kept & { server(): EmbeddedServer } {
  let server = first;
  let adopted = false;
  const kept = keep(ctx, "replicated cluster's primary pg1", async () => {
    if (adopted) {
      server = await restart();
      for (const n of server.notes) ctx.note(n);
    }
    adopted = true;
    return { exited: server.exited!, stop: () => server.stop() };
  });
  return { ...kept, server: () => server };
}

/** Keeps the delay relay, listening on each of `ports` for the primary. */
export function keepRelay(ctx: NodeContext, ports: number[], delayMs: number): Kept & { keepAlive(on: boolean): void } {
  const routes = ports.map((listen) => ({ listen, to: ctx.primaryPort }));
  let current: Awaited<ReturnType<typeof startRelay>> | undefined;
  const kept = keep(ctx, "replicated cluster's delay relay", async () => (current = await startRelay(routes, delayMs)));
  // Its IPC channel, too, keeps this process alive.
  const keepAlive = (on: boolean) => (on ? (current?.child.ref(), current?.child.channel?.ref()) : (current?.child.unref(), current?.child.channel?.unref()));
  return { ...kept, keepAlive };
}

/**
 * A standby, not started yet: start() keeps it and resolves once every standby then up (`up`, shared by the
 * cluster's standbys) streams with the sync state the names give it; stop() stops it on purpose.
 */
export function makeStandby(
  ctx: NodeContext,
  name: string,
  port: number,
  relayPort: number | undefined,
  up: Set<string>,
): Standby & { keepAlive(on: boolean): void } {
  const dir = path.join(ctx.home, name);
  const logFile = path.join(ctx.home, `${name}.log`);
  let kept: Kept | undefined;
  let proc: StandbyProcess | undefined;
  const spawnIt = async () => (proc = await spawnStandby({ dataDir: dir, port, password: ctx.password, logFile, postgresFlags: ctx.flags }));
  const tails = () => [...up].map((n) => `\n  ${n}'s log (${n}.log) ends:\n  ${logTail(path.join(ctx.home, `${n}.log`))}`).join("");
  const self = {
    ...{ name, port, dir, url: nodeUrl(ctx, port), pid: () => runningPid(dir) },
    ...(relayPort ? { relay: { port: relayPort } } : {}),
    async stop() {
      const k = kept;
      kept = undefined;
      up.delete(name);
      await k?.stop();
    },
    async start() {
      if (kept) return;
      kept = keep(ctx, `standby ${name}`, spawnIt);
      up.add(name);
      await kept.ready.catch(async (err) => {
        await self.stop();
        throw err;
      });
      await waitForReplication(nodeUrl(ctx, ctx.primaryPort)("postgres"), [...up], ctx.syncNames, { more: tails });
    },
    keepAlive: (on: boolean) => (on ? proc?.child.ref() : proc?.child.unref()),
  };
  return self;
}
