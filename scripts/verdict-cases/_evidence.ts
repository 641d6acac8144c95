import pg from "pg";
import type { RunSummary } from "../../lib/measurement/summary";
import { cpuHogs, startTestServer } from "../../lib/testing";

export interface EvidenceCase {
  name: string;
  provoked: string;
  expected: string[];
  run(ctx: { targetUrl: string; log: (line: string) => void }): Promise<RunSummary>;
}

/** Every commit waits for a real flush, 10 ms after its leader starts it (the server's group-commit delay). */
export const SLOW_FLUSH = { fsync: "on", synchronous_commit: "on", commit_delay: "10000", commit_siblings: "0" };

/** The settings a fresh session on the target sees, by name. */
async function settingsSeen(url: string, names: string[]): Promise<Record<string, string>> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query<{ name: string; setting: string }>("SELECT name, setting FROM pg_settings WHERE name = ANY($1)", [names]);
    return Object.fromEntries(r.rows.map((row) => [row.name, row.setting]));
  } finally {
    await c.end();
  }
}

/**
 * Runs `body` against a target with these server settings: the target itself (ALTER SYSTEM, reloaded, reset
 * after whatever happens) when they take effect there; otherwise (a setting given on the server's command line,
 * as the embedded default target's fsync = off is, outranks ALTER SYSTEM) a scratch embedded server started with
 * them, removed after.
 */
export async function withServerSettings<T>(
  url: string,
  settings: Record<string, string>,
  log: (line: string) => void,
  body: (url: string) => Promise<T>,
): Promise<T> {
  const names = Object.keys(settings);
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    let applied = true;
    try {
      for (const [k, v] of Object.entries(settings)) await c.query(`ALTER SYSTEM SET ${k} = '${v.replace(/'/g, "''")}'`);
      await c.query("SELECT pg_reload_conf()");
      // The reload reaches the other processes asynchronously: wait (bounded) until a fresh session sees it all.
      const deadline = Date.now() + 5000;
      const want = (seen: Record<string, string>) => names.every((k) => seen[k] === settings[k]);
      while (!want(await settingsSeen(url, names)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      applied = want(await settingsSeen(url, names));
    } catch (err) {
      log(`ALTER SYSTEM on the target failed (${(err as Error).message}): provoking this case on a scratch server instead`);
      applied = false;
    }
    if (applied) return await body(url);
    log(`the target does not take ${names.join(", ")} from ALTER SYSTEM (set on its command line?): provoking this case on a scratch embedded server`);
    const scratch = await startTestServer(Object.entries(settings).flatMap(([k, v]) => ["-c", `${k}=${v}`]));
    try {
      return await body(scratch.url("postgres"));
    } finally {
      await scratch.stop();
    }
  } finally {
    for (const k of names) await c.query(`ALTER SYSTEM RESET ${k}`).catch(() => undefined);
    await c.query("SELECT pg_reload_conf()").catch(() => undefined);
    await c.end();
  }
}

/** Pins this process (every thread) and `n` busy loops to CPU 0 for `body`; kills them and restores the affinity after. */
export async function withCpuHogs<T>(n: number, log: (line: string) => void, body: (hogCores: () => number) => Promise<T>): Promise<T> {
  const hogs = await cpuHogs(n);
  try {
    log(`${n} busy loops (pgbb-hog) and the runner ${hogs.pinned ? "pinned to CPU 0" : "unpinned (no taskset)"}`);
    const s0 = hogs.cpuSeconds();
    const t0 = performance.now();
    return await body(() => (hogs.cpuSeconds() - s0) / ((performance.now() - t0) / 1000));
  } finally {
    hogs.stop();
  }
}
