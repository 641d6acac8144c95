// The delay between a replicated cluster's standbys and its primary, imitating cross-zone round trips on one
// machine: a TCP relay in a process of its own (platform/relay-main.ts) that holds each chunk `delayMs` each way.
// `tc netem` in a network namespace would do it in the kernel, but this machine's kernel has no netem qdisc
// ("Specified qdisc kind is unknown"), and a relay works wherever Node does. The delay achieved is measured, not
// assumed: round trips of `SELECT 1` through the relay against the same straight to the primary.
import type { ChildProcess } from "node:child_process";
import pg from "pg";
import { spawnTs } from "./children";
import { StartupError } from "./embedded";

export interface Relay {
  /** Resolves with how the relay's process ended. */
  exited: Promise<string>;
  stop(): Promise<void>;
  child: ChildProcess;
}

/** The delay asked and the one measured, in ms: `cluster.delay` of platform/replicated.ts. */
export interface ReplicaDelay {
  /** Asked, each way (--replica-delay). */
  askedMs: number;
  /** Median round trip of `SELECT 1` through a standby's relay to the primary. */
  measuredRoundTripMs: number;
  /** Median round trip of `SELECT 1` straight to the primary, interleaved with the ones above. */
  directRoundTripMs: number;
  /** What the relay added each way: (measured − direct) / 2. */
  addedOneWayMs: number;
  /** Round trips timed each way. */
  samples: number;
  /** How the delay is made. */
  via: "relay";
}

/** Starts the relay's process, listening on each route's `listen` port and passing to its `to` port; resolves once it listens. */
export function startRelay(routes: { listen: number; to: number }[], delayMs: number): Promise<Relay> {
  const child = spawnTs("platform/relay-main.ts", { ...process.env, PGBB_RELAY: JSON.stringify({ routes, delayMs }) }, { detached: true });
  const exited = new Promise<string>((resolve) => child.once("exit", (code, signal) => resolve(signal ?? `exit code ${code}`)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail("it did not listen within 30 s"), 30_000);
    const fail = (why: string) => {
      clearTimeout(timer);
      void stop();
      reject(new StartupError(`The delay relay (platform/relay-main.ts) did not start: ${why}`));
    };
    child.on("message", (m: { ready?: boolean; error?: string }) => {
      if (m.error) return fail(m.error);
      clearTimeout(timer);
      resolve({ exited, stop, child });
    });
    void exited.then((how) => fail(`it exited (${how})`));
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Times `samples` round trips of `SELECT 1` through `relayedUrl` and as many to `directUrl`, taken in turn. */
export async function measureDelay(directUrl: string, relayedUrl: string, askedMs: number, samples = 101): Promise<ReplicaDelay> {
  const direct = new pg.Client({ connectionString: directUrl });
  const relayed = new pg.Client({ connectionString: relayedUrl });
  await Promise.all([direct.connect(), relayed.connect()]);
  try {
    const time = async (c: pg.Client) => {
      const t0 = performance.now();
      await c.query("SELECT 1");
      return performance.now() - t0;
    };
    await Promise.all([time(direct), time(relayed)]); // the first query of a session plans and caches: not timed
    const through: number[] = [];
    const straight: number[] = [];
    for (let i = 0; i < samples; i++) {
      through.push(await time(relayed));
      straight.push(await time(direct));
    }
    const measured = median(through);
    const directMs = median(straight);
    return {
      askedMs,
      measuredRoundTripMs: round3(measured),
      directRoundTripMs: round3(directMs),
      addedOneWayMs: round3((measured - directMs) / 2),
      samples,
      via: "relay",
    };
  } finally {
    await Promise.all([direct.end().catch(() => undefined), relayed.end().catch(() => undefined)]);
  }
}
