// `npm start` as a user lives with it: the printed URL answering from the moment it is printed, start, data
// kept across restarts, a SIGKILLed start's leftover Postgres handled, a second start refused, Ctrl-C leaving
// no process behind.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import pg from "pg";
import { PROJECT_ROOT } from "../lib/paths";
import { freePort } from "../lib/testing";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "pgbb-lifecycle-"));
chmodSync(dataDir, 0o755);
const started: Started[] = [];
// A failed assertion must not leave the starts running (the test file would never exit, and deleting their data
// folder under them makes the supervisor start a fresh cluster): stop every start, then its Postgres servers.
after(async () => {
  for (const s of started.filter((x) => x.child.exitCode === null && x.child.signalCode === null)) {
    s.child.kill("SIGINT");
    const done = await Promise.race([s.exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 15_000))]);
    if (!done) s.child.kill("SIGKILL");
  }
  for (const home of [dataDir, path.join(dataDir, "target")]) {
    try {
      const pid = postmasterPid(home);
      if (alive(pid)) process.kill(pid, "SIGKILL");
    } catch {
      /* no server there */
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function start(env: Record<string, string>): Started {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(PROJECT_ROOT, "scripts", "start.ts")], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, DATA_DIR: dataDir, RUNNER_HEARTBEAT_MS: "500", ...env },
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  const s = { child, output: () => out, exited };
  started.push(s);
  return s;
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>, ms: number, out?: () => string) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}${out ? `; output:\n${out()}` : ""}`);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
/**
 * Asks the app's address for /api/health without pause, from the moment the first line is printed until the
 * start prints "ready:", as a user reloading the printed URL (or Playwright's webServer check) would.
 */
async function watchUntilReady(s: Started, port: number) {
  await waitFor("the first line", () => s.output().includes("\n"), 30_000, s.output);
  const seen = { starting: 0, ready: 0, refused: 0, details: new Set<string>(), buildStages: 0 };
  while (!s.output().includes("ready:")) {
    if (s.child.exitCode !== null) throw new Error(`the start exited:\n${s.output()}`);
    try {
      const r = await fetch(`http://127.0.0.1:${port}/api/health`);
      const body = await r.json();
      if (r.status === 503 && body.status === "starting") {
        seen.starting++;
        seen.details.add(String(body.detail).replace(/ \(\d+ s\).*/, ""));
        if (/^building the web app.* \(\d+ s\): \S/.test(body.detail)) seen.buildStages++;
      } else seen.ready++;
    } catch {
      seen.refused++;
    }
  }
  return seen;
}

const postmasterPid = (home = dataDir) => Number(readFileSync(path.join(home, "pg", "postmaster.pid"), "utf8").split("\n")[0]);
/** The default target's own cluster (platform/embedded.ts): DATA_DIR/target. */
const targetHome = path.join(dataDir, "target");

test("start, restart after SIGKILL, refuse a second start, stop cleanly on Ctrl-C", { timeout: 600_000 }, async () => {
  const port = await freePort();
  const pgPort = await freePort();
  const targetPgPort = await freePort();
  const env = { PORT: String(port), EMBEDDED_PG_PORT: String(pgPort), EMBEDDED_TARGET_PG_PORT: String(targetPgPort) };

  // 1. First start (builds the web app if needed). The URL printed first answers at once and all along.
  const first = start(env);
  const seen = await watchUntilReady(first, port);
  assert.match(first.output().split("\n")[0], new RegExp(`open http://127\\.0\\.0\\.1:${port}`), "the first line is the URL");
  assert.equal(seen.refused, 0, `no request refused once the URL was printed (${JSON.stringify({ ...seen, details: [...seen.details] })})`);
  assert.ok(seen.starting > 0, "the starting page answered while the app was not up");
  assert.ok(seen.details.has("starting the embedded Postgres"), `the status names the step: ${[...seen.details].join(", ")}`);
  // A build happens when .next is missing or stale (always on a fresh clone, as in CI): the status then shows
  // its elapsed time and the build's own stage lines. When another start of this checkout (another test file) was
  // building it already, this one waits for that build and says so.
  if (first.output().includes("building the web app (first start"))
    assert.ok(seen.buildStages > 0, `the status showed the build's stage lines: ${[...seen.details].join(", ")}`);
  if (/another start \(pid \d+\) is building the web app/.test(first.output()))
    assert.ok(seen.details.has("waiting for another build of the web app"), `the status named the wait: ${[...seen.details].join(", ")}`);
  const health = await (await fetch(`http://127.0.0.1:${port}/api/health`)).json();
  assert.equal(health.ok, true, JSON.stringify(health));

  // The default target is a cluster of its own: its own folder and port, apart from the control store's.
  const targetPassword = readFileSync(path.join(targetHome, "pg-password"), "utf8").trim();
  const targetAdmin = new pg.Client({ connectionString: `postgresql://postgres:${encodeURIComponent(targetPassword)}@127.0.0.1:${targetPgPort}/pgbb_target` });
  await targetAdmin.connect();
  const targetDir = (await targetAdmin.query("SELECT current_setting('data_directory') AS d")).rows[0].d;
  await targetAdmin.end();
  assert.equal(targetDir, path.join(targetHome, "pg"));
  assert.notEqual(postmasterPid(targetHome), postmasterPid(), "two servers");

  // Something stored survives restarts.
  const password = readFileSync(path.join(dataDir, "pg-password"), "utf8").trim();
  const controlUrl = `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/pgbb_control`;
  const c = new pg.Client({ connectionString: controlUrl });
  await c.connect();
  await c.query(`INSERT INTO target (id, name, connection_string) VALUES ('keep', 'kept across restarts', 'postgresql://x@y/z')`);
  await c.end();

  // 2. SIGKILL the start: its web app and runner follow it; its Postgres is left running.
  const leftover = postmasterPid();
  const leftoverTarget = postmasterPid(targetHome);
  first.child.kill("SIGKILL");
  await first.exited;
  await waitFor(
    "the web app to exit with its parent",
    async () => {
      try {
        await fetch(`http://127.0.0.1:${port}/api/health`);
        return false;
      } catch {
        return true;
      }
    },
    10_000,
  );
  assert.ok(alive(leftover), "the embedded Postgres outlives a SIGKILLed start");

  // 3. The next start handles the leftover server and keeps the data.
  const second = start(env);
  assert.equal((await watchUntilReady(second, port)).refused, 0, "no request refused on a restart either");
  assert.match(second.output(), new RegExp(`Stopped a Postgres \\(pid ${leftover}\\) left running`));
  assert.match(second.output(), new RegExp(`Stopped a Postgres \\(pid ${leftoverTarget}\\) left running`));
  const c2 = new pg.Client({ connectionString: controlUrl });
  await c2.connect();
  const kept = await c2.query("SELECT name FROM target WHERE id = 'keep'");
  await c2.end();
  assert.equal(kept.rows[0]?.name, "kept across restarts");

  // 3b. The embedded Postgres killed (kill -9 of its postmaster): the API says what is down, never an empty
  // body, and the supervisor starts it again.
  process.kill(postmasterPid(), "SIGKILL");
  await waitFor(
    "the API to say the control store is restarting",
    async () => {
      const r = await fetch(`http://127.0.0.1:${port}/api/runs`);
      return r.status === 503 && /the control store is restarting/.test((await r.json()).error);
    },
    30_000,
    second.output,
  );
  await waitFor(
    "the embedded Postgres to be restarted",
    async () => {
      const r = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => undefined);
      return r?.status === 200;
    },
    30_000,
    second.output,
  );
  assert.match(second.output(), /the control store's embedded Postgres stopped unexpectedly \(SIGKILL\); restarting it in \d+ s/);

  // 3c. The default target's Postgres killed: it is restarted, and the API never says the control store is down.
  const deadTarget = postmasterPid(targetHome);
  process.kill(deadTarget, "SIGKILL");
  let answered503 = 0;
  await waitFor(
    "the default target's Postgres to be restarted",
    async () => {
      const r = await fetch(`http://127.0.0.1:${port}/api/runs`);
      if (r.status === 503) answered503++;
      if (!/default target's embedded Postgres: restarted/.test(second.output())) return false;
      const pid = postmasterPid(targetHome); // the new server's: written before "restarted" is printed
      return pid !== deadTarget && alive(pid);
    },
    30_000,
    second.output,
  );
  assert.equal(answered503, 0, "the target's restart never made the API answer 503");
  assert.match(second.output(), /the default target's embedded Postgres stopped unexpectedly \(SIGKILL\); restarting it/);

  // 4. A start on the same data folder while one runs is refused with a message naming the problem.
  const third = start({ ...env, PORT: String(await freePort()) });
  assert.equal(await third.exited, 1);
  assert.match(third.output(), /data folder .* is in use by another running start/);
  const fourth = start(env);
  assert.equal(await fourth.exited, 1);
  assert.match(fourth.output(), new RegExp(`PORT ${port} on 127\\.0\\.0\\.1 is already in use`));

  // 5. Ctrl-C stops the app, the runner and Postgres; nothing is left behind.
  const pgPid = postmasterPid();
  const targetPid = postmasterPid(targetHome);
  second.child.kill("SIGINT");
  assert.ok([0, 130].includes((await second.exited) ?? -1), "exits normally (130 is the conventional code after Ctrl-C)");
  assert.ok(!alive(pgPid), "the embedded Postgres stopped");
  assert.ok(!alive(targetPid), "the default target's embedded Postgres stopped");
  assert.ok(!existsSync(path.join(targetHome, "owner.pid")), "the target's folder lock is released");
  assert.ok(!existsSync(path.join(dataDir, "owner.pid")), "the data folder lock is released");
  const again = await new Promise<boolean>((resolve) => {
    fetch(`http://127.0.0.1:${port}/api/health`).then(
      () => resolve(true),
      () => resolve(false),
    );
  });
  assert.equal(again, false, "the web app stopped");
});
