// A run over 2 real part processes that goes wrong: a part killed, silent or never ready fails the run at once,
// naming it; a cancel stops every part; a dead coordinator's parts exit on their own. No part process is left.
import assert from "node:assert/strict";
import { pidAlive } from "../../platform/pid";
import { spawn } from "node:child_process";
import { after, before, test } from "node:test";
import pg from "pg";
import { PROJECT_ROOT } from "../../lib/paths";
import { testDatabase } from "../../lib/testing";
import { WorkloadConfig } from "../../lib/workloads/config";
import { runWorkload } from "../engine";

let db: { url: string; drop: () => Promise<void> };
before(async () => {
  db = await testDatabase("parts-failures");
});
after(async () => {
  await db.drop();
});

/** Waits for `cond`, checking every 100 ms, failing after `ms` (a generous bound: the machine may be busy). */
async function waitFor(cond: () => boolean, ms: number, what: string) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function schemaExists(name: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    return (await c.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [name])).rowCount === 1;
  } finally {
    await c.end();
  }
}

/** The part pids the coordinator logs once every part is ready. */
const partPids = (lines: string[]) => lines.flatMap((l) => [...l.matchAll(/part (\d+) pid (\d+)/g)].map((m) => ({ part: Number(m[1]), pid: Number(m[2]) })));

const longQueue = () =>
  WorkloadConfig.parse({ kind: "queue", writers: 2, readers: 2, throttleWritesPerSec: 100, durationSeconds: 60, warmupSeconds: 0, processes: 2 });

/**
 * Runs a long queue run over 2 parts and does `act(part 1's pid)` at its first sample; resolves with the rejection.
 * The parts' silence bound is 30 s unless `silenceMs` says otherwise: on a busy machine part 0 could otherwise go
 * silent first and be the one named.
 */
async function failedRun(runId: string, act: (pid: number, controller: AbortController) => void, silenceMs = 30_000) {
  const lines: string[] = [];
  const controller = new AbortController();
  let acted = false;
  const run = runWorkload(longQueue(), db.url, {
    runId,
    telemetry: false,
    signal: controller.signal,
    log: (l) => lines.push(l),
    onSample: () => {
      if (acted) return;
      acted = true;
      const pid = partPids(lines).find((p) => p.part === 1)?.pid;
      assert.ok(pid, `the coordinator logged the parts' pids: ${lines.join(" / ")}`);
      act(pid, controller);
    },
    partsForTest: { silenceMs },
  });
  const err = await run.then(
    () => assert.fail("the run should have failed"),
    (e: Error) => e,
  );
  const pids = partPids(lines).map((p) => p.pid);
  assert.equal(pids.length, 2, lines.join(" / "));
  for (const pid of pids) assert.equal(pidAlive(pid), false, `part process ${pid} is gone`);
  assert.equal(await schemaExists(`pgbb_${runId}`), false, "the run's schema was dropped");
  return { err, pids };
}

test("a part killed mid-run fails the run at once, naming it; no part process is left and the schema is dropped", async () => {
  const { err, pids } = await failedRun("killed_part", (pid) => process.kill(pid, "SIGKILL"));
  assert.match(err.message, new RegExp(`part 1 \\(pid ${pids[1]} on host \\S+\\) exited with SIGKILL while measuring`));
  assert.match(err.message, /a run's figures are merged from every part, so the run failed/);
});

test("a part that sends no sample (stopped) fails the run naming it, and is killed", async () => {
  const { err, pids } = await failedRun("silent_part", (pid) => process.kill(pid, "SIGSTOP"), 8000);
  assert.match(err.message, new RegExp(`part 1 \\(pid ${pids[1]} on host \\S+\\) sent no sample for 8 s`));
  assert.match(err.message, /check that machine's load and run again, or lower processes$/, "it says what to do");
});

test("a cancel stops every part", async () => {
  const { err } = await failedRun("cancelled_parts", (_pid, controller) => controller.abort());
  assert.equal(err.name, "AbortError", err.message);
});

test("a part that never becomes ready fails the run saying so, and leaves no process", async () => {
  const config = WorkloadConfig.parse({ kind: "queue", writers: 2, readers: 2, durationSeconds: 2, warmupSeconds: 0, processes: 2 });
  const lines: string[] = [];
  const entry = `${PROJECT_ROOT}/runner/parts/idle-part.fixture.ts`;
  const err = await runWorkload(config, db.url, {
    runId: "never_ready",
    telemetry: false,
    log: (l) => lines.push(l),
    partsForTest: { entry, readyTimeoutMs: 3000 },
  }).then(
    () => assert.fail("the run should have failed"),
    (e: Error) => e,
  );
  const pids = [...err.message.matchAll(/pid (\d+)/g)].map((m) => Number(m[1]));
  assert.match(err.message, /part 0 \(pid \d+ on host \S+\), part 1 \(pid \d+ on host \S+\) did not become ready within 3 s/);
  assert.match(err.message, /check that the target accepts that many connections and that machine's load, or lower processes$/, "it says what to do");
  assert.equal(pids.length, 2);
  for (const pid of pids) assert.equal(pidAlive(pid), false, `process ${pid} is gone`);
  assert.equal(await schemaExists("pgbb_never_ready"), false, "the run's schema was dropped");
});

test("a part that is ready but never answers its clock probes fails the run naming it, never hangs", { timeout: 120_000 }, async () => {
  const config = WorkloadConfig.parse({ kind: "queue", writers: 2, readers: 2, durationSeconds: 2, warmupSeconds: 0, processes: 2 });
  const entry = `${PROJECT_ROOT}/runner/parts/mute-part.fixture.ts`;
  const err = await runWorkload(config, db.url, {
    runId: "mute_part",
    telemetry: false,
    log: () => undefined,
    // Becoming ready may take long on a loaded machine (a part loads the runner's code): only the probes are short.
    partsForTest: { entry, readyTimeoutMs: 60_000, probeTimeoutMs: 3000 },
  }).then(
    () => assert.fail("the run should have failed"),
    (e: Error) => e,
  );
  assert.match(err.message, /part 0 \(pid \d+ on host \S+\) did not answer its clock probes within 3 s/);
  const pids = [...err.message.matchAll(/pid (\d+)/g)].map((m) => Number(m[1]));
  for (const pid of pids) await waitFor(() => !pidAlive(pid), 10_000, `process ${pid} to exit`);
  assert.equal(await schemaExists("pgbb_mute_part"), false, "the run's schema was dropped");
});

test("parts whose coordinator is killed exit on their own", async () => {
  const child = spawn(process.execPath, ["--import", "tsx", `${PROJECT_ROOT}/runner/parts/coordinator.fixture.ts`], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, TARGET_URL: db.url },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines: string[] = [];
  child.stdout.on("data", (d: Buffer) => lines.push(...d.toString().split("\n")));
  try {
    await waitFor(() => lines.some((l) => l.startsWith("sample ")), 60_000, `the coordinator's first sample (${lines.join(" / ")})`);
    const pids = partPids(lines).map((p) => p.pid);
    assert.equal(pids.length, 2, lines.join(" / "));
    child.kill("SIGKILL");
    await waitFor(() => pids.every((pid) => !pidAlive(pid)), 20_000, `parts ${pids.join(", ")} to exit`);
  } finally {
    child.kill("SIGKILL");
  }
});
