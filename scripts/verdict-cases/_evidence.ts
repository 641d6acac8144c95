// Shared by the evidence cases of `npm run bench:verdict` (wal-flush, notify-lock, cpu-hog): the case shape,
// server settings changed for one case and put back after it, and CPU hogs pinned beside the runner.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import pg from "pg";
import type { RunSummary } from "../../lib/measurement/summary";

export interface EvidenceCase {
  name: string;
  provoked: string;
  expected: string[];
  run(ctx: { targetUrl: string; log: (line: string) => void }): Promise<RunSummary>;
}

/** Every commit waits for a real flush, 10 ms after its leader starts it (the server's group-commit delay). */
export const SLOW_FLUSH = { fsync: "on", synchronous_commit: "on", commit_delay: "10000", commit_siblings: "0" };

/** Runs `body` with these server settings (ALTER SYSTEM, reloaded), and resets them after, whatever happens. */
export async function withServerSettings<T>(url: string, settings: Record<string, string>, body: () => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const names = Object.keys(settings);
  try {
    try {
      for (const [k, v] of Object.entries(settings)) await c.query(`ALTER SYSTEM SET ${k} = '${v.replace(/'/g, "''")}'`);
    } catch (err) {
      throw new Error(`this case changes ${names.join(", ")} with ALTER SYSTEM, which needs a superuser: ${(err as Error).message}`);
    }
    await c.query("SELECT pg_reload_conf()");
    return await body();
  } finally {
    for (const k of names) await c.query(`ALTER SYSTEM RESET ${k}`).catch(() => undefined);
    await c.query("SELECT pg_reload_conf()").catch(() => undefined);
    await c.end();
  }
}

/** Pins this process (every thread) and `n` busy loops to CPU 0 for `body`; kills them and restores the affinity after. */
export async function withCpuHogs<T>(n: number, log: (line: string) => void, body: (hogCores: () => number) => Promise<T>): Promise<T> {
  const mask = execFileSync("taskset", ["-p", String(process.pid)], { encoding: "utf8" })
    .trim()
    .split(/\s+/)
    .pop()!;
  const hogs: ChildProcess[] = [];
  const seconds = () =>
    hogs.reduce((sum, h) => {
      try {
        const f = readFileSync(`/proc/${h.pid}/stat`, "utf8").split(") ")[1].split(" ");
        return sum + (Number(f[11]) + Number(f[12])) / 100;
      } catch {
        return sum;
      }
    }, 0);
  try {
    execFileSync("taskset", ["-a", "-p", "-c", "0", String(process.pid)]);
    for (let i = 0; i < n; i++)
      hogs.push(spawn("taskset", ["-c", "0", process.execPath, "-e", "process.title = 'pgbb-hog'; for (;;) {}"], { stdio: "ignore" }));
    log(`${n} busy loops (pgbb-hog) and the runner pinned to CPU 0`);
    const s0 = seconds();
    const t0 = performance.now();
    return await body(() => (seconds() - s0) / ((performance.now() - t0) / 1000));
  } finally {
    for (const h of hogs) h.kill("SIGKILL");
    execFileSync("taskset", ["-a", "-p", mask, String(process.pid)]);
  }
}
