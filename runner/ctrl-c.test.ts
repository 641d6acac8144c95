// Ctrl-C with the control store frozen (kill -STOP, as a frozen VM would be): the CLI's --save and the runner
// process both end within the time they state, whatever the store does, and say what was not saved. Real
// processes, a scratch control store of its own (it is frozen; every freeze is thawed in a finally).
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import pg from "pg";
import { prisma } from "../lib/db";
import { PROJECT_ROOT } from "../lib/paths";
import { createRun } from "../lib/runs/store";
import { WorkloadConfig } from "../lib/workloads/config";
import { freezeServer, startTestServer, testDatabase } from "../lib/testing";
import { migrate } from "../platform/migrate";
import { STOP_MS } from "./stop";
import { RUNNER_STOP_MS } from "./main";

let store: Awaited<ReturnType<typeof startTestServer>>;
let target: Awaited<ReturnType<typeof testDatabase>>;
let dir: string;
before(async () => {
  store = await startTestServer();
  store.keepAlive?.(false);
  target = await testDatabase("ctrlc_target");
  dir = mkdtempSync(path.join(os.tmpdir(), "pgbb-ctrlc-"));
});
after(async () => {
  await store.stop();
  await target.drop();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
/** A fresh migrated control store database on the scratch server. */
async function controlStore(): Promise<string> {
  const name = `ctrlc_ctl_${++n}`;
  const c = new pg.Client({ connectionString: store.url("postgres") });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  const url = store.url(name);
  await migrate(url);
  return url;
}

interface Child {
  proc: ChildProcess;
  out: () => string;
  exited: Promise<number | null>;
}
function start(script: string, args: string[], env: Record<string, string>): Child {
  const proc = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    cwd: PROJECT_ROOT,
    // No embedded fallback: a test never starts a server on the default data folder.
    env: { ...process.env, DATA_DIR: path.join(dir, "no-embedded"), TARGET_DATABASE_URL: "", ...env },
  });
  let out = "";
  proc.stdout!.on("data", (d) => (out += d));
  proc.stderr!.on("data", (d) => (out += d));
  return { proc, out: () => out, exited: new Promise((r) => proc.on("exit", (code) => r(code))) };
}

async function waitFor(what: string, cond: () => boolean | Promise<boolean>, ms = 60_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** SIGINTs `child` and resolves with how long it took to exit; a child that outlives `boundMs` is killed. */
async function interrupt(child: Child, boundMs: number): Promise<number> {
  const t0 = Date.now();
  child.proc.kill("SIGINT");
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((r) => (timer = setTimeout(() => r("late"), boundMs)));
  const how = await Promise.race([child.exited, late]);
  clearTimeout(timer);
  if (how === "late") {
    child.proc.kill("SIGKILL");
    assert.fail(`still running ${boundMs} ms after Ctrl-C; output:\n${child.out()}`);
  }
  return Date.now() - t0;
}

async function phaseOf(url: string): Promise<string | null> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<{ phase: string | null }>("SELECT phase::text FROM run ORDER BY created_at DESC LIMIT 1")).rows[0]?.phase ?? null;
  } finally {
    await c.end();
  }
}

// Generous margins for a busy machine: the bound checked is the stated one plus time to start node and exit.
const MARGIN_MS = 15_000;

test("the CLI's Ctrl-C ends within its stated time with the control store frozen, saying what was not saved", async (t) => {
  const url = await controlStore();
  const cli = start(
    "runner/cli.ts",
    ["queue", "-writers", "1", "-readers", "1", "-throttle_writes", "100", "-duration", "60s", "--warmup", "0s", "--target", target.url, "--save"],
    { DATABASE_URL: url },
  );
  let freeze: ReturnType<typeof freezeServer> | undefined;
  try {
    await waitFor("the run to measure", async () => cli.out().includes("saving as run") && (await phaseOf(url)) === "measuring");
    freeze = freezeServer(store.dir);
    const took = await interrupt(cli, STOP_MS + MARGIN_MS);
    assert.match(cli.out(), new RegExp(`stopping within ${STOP_MS / 1000} s`));
    assert.match(cli.out(), /bench: cancelled/);
    assert.match(cli.out(), /the control store did not answer within \d+ s of stopping \(timed out\): not saved: run r_[0-9a-f]+'s outcome \(cancelled\)/);
    assert.ok(took <= STOP_MS + MARGIN_MS, `took ${took} ms`);
    t.diagnostic(`exited ${took} ms after Ctrl-C`);
  } finally {
    freeze?.thaw();
    cli.proc.kill("SIGKILL");
  }
});

test("the runner process's Ctrl-C ends within its stated time with the control store frozen mid-run", async (t) => {
  const url = await controlStore();
  const runner = start("runner/main.ts", [], { DATABASE_URL: url, TARGET_DATABASE_URL: target.url });
  let freeze: ReturnType<typeof freezeServer> | undefined;
  let runId = "";
  try {
    const db = prisma(url);
    const config = WorkloadConfig.parse({ kind: "queue", writers: 1, readers: 1, throttleWritesPerSec: 100, durationSeconds: 60, warmupSeconds: 0 });
    const run = await createRun({ config, targetLabel: "test target" }, db);
    runId = run.id;
    await db.$disconnect();
    await waitFor("the run to measure", async () => (await phaseOf(url)) === "measuring");
    freeze = freezeServer(store.dir);
    const took = await interrupt(runner, RUNNER_STOP_MS + MARGIN_MS);
    assert.ok(took <= RUNNER_STOP_MS + MARGIN_MS, `took ${took} ms`);
    t.diagnostic(`exited ${took} ms after SIGINT`);
    assert.match(runner.out(), new RegExp(`could not store the outcome of ${runId}: .*not saved: run ${runId}'s outcome \\(interrupted\\)`));
  } finally {
    freeze?.thaw();
    runner.proc.kill("SIGKILL");
  }
});

test("the CLI's Ctrl-C while the run is verifying stores it as cancelled and exits 1, as in any other phase", async () => {
  const url = await controlStore();
  const cli = start(
    "runner/cli.ts",
    ["queue", "-writers", "1", "-readers", "1", "-throttle_writes", "100", "-duration", "2s", "--warmup", "0s", "--target", target.url, "--save"],
    { DATABASE_URL: url },
  );
  // The verifying phase ends by dropping the run's schema: a session of ours holding a share lock on one of its
  // tables (which the run's own reads and writes do not mind) keeps it there, for its lock_timeout, at that DROP.
  const holder = new pg.Client({ connectionString: target.url });
  await holder.connect();
  try {
    await waitFor("the run to measure", async () => cli.out().includes("saving as run") && (await phaseOf(url)) === "measuring");
    const runId = /saving as run (r_[0-9a-f]+)/.exec(cli.out())![1];
    await holder.query("BEGIN");
    await holder.query(`LOCK TABLE pgbb_${runId}.queue IN ACCESS SHARE MODE`);
    await waitFor("the run's schema to wait to be dropped while verifying", async () => {
      // From another session: one in a transaction sees pg_stat_activity as it was when the transaction began.
      const watch = new pg.Client({ connectionString: target.url });
      await watch.connect();
      try {
        const r = await watch.query("SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'DROP SCHEMA%'");
        return r.rowCount === 1 && cli.out().includes("verifying…");
      } finally {
        await watch.end();
      }
    });
    assert.equal(await phaseOf(url), "verifying");
    const exited = cli.exited;
    cli.proc.kill("SIGINT");
    // Only once the CLI has taken the Ctrl-C (a busy machine may take it late): released before, the DROP would end
    // the verification first.
    await waitFor("the CLI to take the Ctrl-C", () => /bench: stopping within/.test(cli.out()), 30_000);
    await holder.query("ROLLBACK"); // the run may drop its schema now
    assert.equal(await exited, 1, `exit code; output:\n${cli.out()}`);
    assert.match(cli.out(), /bench: stopping within/);
    assert.match(cli.out(), /bench: cancelled/);
    assert.doesNotMatch(cli.out(), /stored as run/);
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      const r = await c.query<{ status: string; phase: string; error: string }>("SELECT status::text, phase::text, error FROM run WHERE id = $1", [runId]);
      assert.equal(r.rows[0]?.status, "cancelled", JSON.stringify(r.rows[0]));
      assert.equal(r.rows[0]?.phase, "verifying", "the run keeps the phase it was cancelled in");
      assert.match(r.rows[0]?.error ?? "", /^cancelled \(Ctrl-C or a cancel request\)/);
    } finally {
      await c.end();
    }
  } finally {
    await holder.end().catch(() => undefined);
    cli.proc.kill("SIGKILL");
  }
});
