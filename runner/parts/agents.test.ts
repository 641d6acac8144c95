// Parts carried by other runner processes through the control store (issue #23): a coordinating runner that forks
// one part (RUNNER_MAX_LOCAL_PARTS=1) and a second runner process, the agent, in a UTS namespace of its own (host
// name "agent-b", as a stand-in for another machine) when `unshare` allows it. The run completes and verifies
// exactly; a killed agent fails the run naming the part and its host; a part no runner takes fails the run after
// PARTS_WAIT_SECONDS; `--part K` takes only part K and exits 0 once the run completed.
import assert from "node:assert/strict";
import { pidAlive } from "../../platform/pid";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import os from "node:os";
import { after, afterEach, before, test } from "node:test";
import { prisma } from "../../lib/db";
import { readEnv } from "../../lib/env";
import { RunSummary } from "../../lib/measurement/summary";
import { PROJECT_ROOT } from "../../lib/paths";
import { runEventStream } from "../../lib/runs/events";
import { createRun } from "../../lib/runs/store";
import { heartbeat, registerRunner } from "../../lib/status/runners";
import { testControlStore, testDatabase } from "../../lib/testing";
import { productCommit } from "../run-summary";
import { WorkloadConfig } from "../../lib/workloads/config";
import { type RunnerLoop, startRunnerLoop } from "../main";

const COORDINATOR = "coordinator";
const AGENT_HOST = "agent-b";
/** `unshare -u` gives the agent a host name of its own (root only); elsewhere it runs on this host's name. */
const unshareWorks = spawnSync("unshare", ["-u", "sh", "-c", `hostname ${AGENT_HOST}`]).status === 0;

let control: { url: string; drop: () => Promise<void> };
let target: { url: string; drop: () => Promise<void> };
let loop: RunnerLoop | undefined;
let beats: NodeJS.Timeout | undefined;
const agents: ChildProcess[] = [];

before(async () => {
  control = await testControlStore("agents_control");
  target = await testDatabase("agents_target");
  await registerRunner(prisma(control.url), COORDINATOR);
});
afterEach(async () => {
  await loop?.stop();
  loop = undefined;
  clearInterval(beats);
  for (const a of agents.splice(0)) if (a.exitCode === null && a.signalCode === null) a.kill("SIGKILL");
});
after(async () => {
  await prisma().$disconnect();
  await control.drop();
  await target.drop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/**
 * What `p` settles to, or "still running" after `ms`. The timer is cleared once `p` settles: a pending one kept
 * this file's process alive for up to 90 s after its last test.
 */
function orStillRunning<T>(p: Promise<T>, ms: number): Promise<T | "still running"> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"still running">((r) => (timer = setTimeout(() => r("still running"), ms)));
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}
async function waitFor<T>(what: string, get: () => Promise<T | undefined | null | false>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const v = await get();
    if (v) return v;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The coordinating runner's claim loop in this process: it forks one part and opens the others. */
function startCoordinator(extra: Record<string, string> = {}) {
  const env = readEnv({ ...process.env, DATABASE_URL: control.url, TARGET_DATABASE_URL: target.url, RUNNER_MAX_LOCAL_PARTS: "1", ...extra });
  loop = startRunnerLoop(prisma(control.url), COORDINATOR, env);
  // As runner/main.ts does: other runners judge a silent coordinator's runs interrupted, and its parts' runners too.
  beats = setInterval(() => void heartbeat(prisma(), COORDINATOR).catch(() => undefined), 500);
}

/** A second runner process (`npm run runner`) sharing the control store, on host "agent-b" where unshare works. */
function startAgent(args: string[] = [], extraEnv: Record<string, string> = {}, hostOfItsOwn = true) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: control.url, RUNNER_HEARTBEAT_MS: "500", ...extraEnv };
  if (!extraEnv.TARGET_DATABASE_URL) delete env.TARGET_DATABASE_URL;
  const node = [process.execPath, "--import", "tsx", "runner/main.ts", ...args];
  const child: ChildProcess =
    unshareWorks && hostOfItsOwn
      ? spawn("unshare", ["-u", "sh", "-c", 'hostname "$0" && exec "$@"', AGENT_HOST, ...node], { cwd: PROJECT_ROOT, env, stdio: ["ignore", "pipe", "pipe"] })
      : spawn(node[0], node.slice(1), { cwd: PROJECT_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  agents.push(child);
  const lines: string[] = [];
  const collect = (d: Buffer) => lines.push(...d.toString().split("\n").filter(Boolean));
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  return { child, lines, exited };
}

const agentHost = unshareWorks ? AGENT_HOST : os.hostname();
const config = (durationSeconds: number) =>
  WorkloadConfig.parse({ kind: "queue", writers: 2, readers: 2, throttleWritesPerSec: 200, durationSeconds, warmupSeconds: 0, processes: 2 });
const queue = (durationSeconds: number) => createRun({ config: config(durationSeconds), targetLabel: "test target" }, prisma());
const runRow = (id: string) => prisma().run.findUniqueOrThrow({ where: { id } });
const finished = (id: string, ms = 90_000) =>
  waitFor(
    `run ${id} to end`,
    async () => {
      const r = await runRow(id);
      return r.status !== "queued" && r.status !== "running" && r;
    },
    ms,
  );
const partRow = (runId: string, part: number) => prisma().runPart.findUnique({ where: { runId_part: { runId, part } } });

test("an agent (a second runner process) carries part 1: the run completes, verified, with both hosts, offsets, skews and its clock's drift", async () => {
  startCoordinator();
  const run = await queue(2);
  await waitFor("the coordinator to claim the run", async () => (await runRow(run.id)).status === "running");
  // The agent's host's clock runs 2% fast (its part's too: it inherits the setting), as another machine's may.
  const agent = startAgent([], { PGBB_TEST_CLOCK_RATE_PPM: "20000" });
  const r = await finished(run.id);
  assert.equal(r.status, "completed", `${r.error} / agent: ${agent.lines.join(" | ")}`);
  assert.equal(r.runnerId, COORDINATOR);
  const summary = RunSummary.parse(r.summary);
  assert.equal(summary.verification.ok, true);
  assert.match(summary.manifest.e2eClock ?? "", /parts carried by other runners through the target's clock/);
  const parts = summary.manifest.parts ?? [];
  assert.equal(parts.length, 2);
  assert.deepEqual(
    parts.map((p) => p.host),
    [os.hostname(), agentHost],
  );
  assert.equal(new Set(parts.map((p) => p.pid)).size, 2);
  for (const p of parts) assert.ok(Number.isFinite(p.clockOffsetMs) && Number.isFinite(p.startSkewMs), JSON.stringify(p));
  // Its clock drifted from the coordinator's between the start and the end of its load: at 2%, by 20 ms a second
  // of the time between the two readings (at least the run's 2 s; its forking, readiness and drain add to it).
  assert.equal(parts[0].clockDriftMs, undefined, "a part on the coordinator's host shares its clock");
  const drift = parts[1].clockDriftMs;
  const spanMs = r.finishedAt!.getTime() - r.startedAt!.getTime();
  assert.ok(drift !== undefined && drift >= 0.5 * 0.02 * 2000 && drift <= 0.02 * (spanMs + 1000), `drift ${drift} ms over a run of ${spanMs} ms`);
  assert.ok(
    summary.notes?.some((n) => n.startsWith(`part 1 (host ${agentHost}): its clock moved +${drift.toFixed(1)} ms against the coordinator's over the run`)),
    JSON.stringify(summary.notes),
  );
  const row = await partRow(run.id, 1);
  assert.equal(row?.status, "done");
  assert.equal(row?.host, agentHost);
  assert.equal(row?.pid, parts[1].pid);
  for (const v of [row?.targetOffsetMs, row?.targetOffsetEndMs, row?.clockOffsetMs, row?.clockUncertaintyMs, row?.startSkewMs])
    assert.equal(typeof v, "number", JSON.stringify(row));
  assert.ok(row?.startAt, "the start barrier is recorded");
  assert.equal(await prisma().runPartMessage.count({ where: { runId: run.id } }), 0, "the run's messages are dropped at its end");
});

test("an agent SIGKILLed mid-run fails the run within seconds, naming the part and its host; its part exits", async () => {
  startCoordinator();
  const run = await queue(60);
  await waitFor("the coordinator to claim the run", async () => (await runRow(run.id)).status === "running");
  const agent = startAgent();
  const row = await waitFor("part 1 to be running", async () => {
    const p = await partRow(run.id, 1);
    return p?.status === "running" && (await runRow(run.id)).phase === "measuring" && p;
  });
  agent.child.kill("SIGKILL");
  const killedAt = Date.now();
  const r = await finished(run.id, 30_000);
  assert.equal(r.status, "failed");
  assert.match(r.error ?? "", new RegExp(`part 1 \\(pid ${row.pid} on host ${agentHost}\\)`));
  assert.ok(Date.now() - killedAt < 20_000, `failed ${Date.now() - killedAt} ms after the kill`);
  await waitFor(`part process ${row.pid} to exit`, async () => !pidAlive(row.pid!), 20_000);
});

test("an agent on another commit of the product is refused at once, naming its version and host", async (t) => {
  if (productCommit() === "unknown") return t.skip("this checkout has no git commit to compare with");
  startCoordinator();
  const run = await queue(5);
  await waitFor("the coordinator to claim the run", async () => (await runRow(run.id)).status === "running");
  startAgent([], { PGBB_COMMIT: "0000deadbeef0000" });
  const r = await finished(run.id, 60_000);
  assert.equal(r.status, "failed");
  assert.match(
    r.error ?? "",
    new RegExp(
      `part 1 \\(pid \\d+ on host ${agentHost}\\).* runs pg-broker-bench [\\d.]+ at commit 0000deadbeef, this runner pg-broker-bench [\\d.]+ at commit [0-9a-f]{12}: every part of a run must run the same version.*(run the same version on host ${agentHost} and here, and restart the runners|this checkout changed since this runner started)`,
    ),
  );
});

test("an agent that stops heart-beating (SIGSTOP) fails the run within seconds, naming the part and its host", async () => {
  startCoordinator();
  const run = await queue(60);
  await waitFor("the coordinator to claim the run", async () => (await runRow(run.id)).status === "running");
  const agent = startAgent();
  const row = await waitFor("part 1 to be running", async () => {
    const p = await partRow(run.id, 1);
    return p?.status === "running" && p;
  });
  agent.child.kill("SIGSTOP");
  try {
    const r = await finished(run.id, 30_000);
    assert.equal(r.status, "failed");
    // Its part runs on but nothing it says reaches the coordinator: the silent beat or the silent samples, whichever is first.
    assert.match(r.error ?? "", new RegExp(`part 1 \\(pid ${row.pid} on host ${agentHost}\\).*(stopped heart-beating|sent no sample for 5 s)`));
  } finally {
    agent.child.kill("SIGKILL");
  }
  await waitFor(`part process ${row.pid} to exit`, async () => !pidAlive(row.pid!), 20_000);
});

test("the CLI forks every part itself and says so when that is more than RUNNER_MAX_LOCAL_PARTS", async () => {
  const args = ["runner/cli.ts", "queue", "-writers", "2", "-readers", "2", "-throttle_writes", "100", "-duration", "2s", "--warmup", "0s", "--processes", "2"];
  const child = spawn(process.execPath, ["--import", "tsx", ...args, "--target", target.url], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, DATABASE_URL: "", TARGET_DATABASE_URL: "", RUNNER_MAX_LOCAL_PARTS: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const code = await orStillRunning(new Promise((r) => child.on("exit", r)), 90_000);
  assert.equal(code, 0, out);
  assert.match(out, /forking all 2 parts on this machine although RUNNER_MAX_LOCAL_PARTS is 1: only a runner with a control store/);
});

test("a part no runner takes: the run page's status says so meanwhile, then the run fails after PARTS_WAIT_SECONDS, saying which and what to do", async () => {
  startCoordinator({ PARTS_WAIT_SECONDS: "4" });
  const run = await queue(2);
  // What the run page is told (its live status): which parts wait.
  const ac = new AbortController();
  const reader = runEventStream(run.id, -1, { signal: ac.signal }).getReader();
  let text = "";
  while (!text.includes("waiting for part 1")) {
    const { value, done } = await reader.read();
    if (done) break; // the run ended: the assertion below shows what was said
    text += new TextDecoder().decode(value);
  }
  ac.abort();
  await reader.cancel().catch(() => undefined);
  assert.match(text, /"waitingForParts":"waiting for part 1 of 2: start `npm run runner` with the same DATABASE_URL on another machine"/);
  const r = await finished(run.id, 60_000);
  assert.equal(r.status, "failed");
  assert.match(
    r.error ?? "",
    /part 1 of 2 was never taken by a runner within 4 s \(PARTS_WAIT_SECONDS\): start `npm run runner` with the same DATABASE_URL on another machine, or lower processes/,
  );
  assert.equal((await partRow(run.id, 1))?.status, "failed", "a part given up is never taken later");
});

test("`--part 1` takes part 1 only (never a queued run) and exits 0 once the run completed", async () => {
  const agent = startAgent(["--part", "1"]);
  await waitFor("the agent to wait for part 1", async () => agent.lines.some((l) => l.includes("waiting for a run that needs part 1")));
  const run = await queue(2);
  await sleep(1000); // the agent polls the control store meanwhile: it must leave the run to the coordinator
  assert.equal((await runRow(run.id)).status, "queued", "the --part runner did not take the queued run");
  startCoordinator();
  const r = await finished(run.id);
  assert.equal(r.status, "completed", `${r.error} / agent: ${agent.lines.join(" | ")}`);
  const code = await orStillRunning(agent.exited, 30_000);
  assert.equal(code, 0, agent.lines.join(" | "));
  assert.equal((await partRow(run.id, 1))?.host, agentHost);
});

test("`--part K` whose part no run opens ends after PARTS_WAIT_SECONDS, saying what to do (a Job's pod never waits for ever)", async () => {
  const agent = startAgent(["--part", "7"], { PARTS_WAIT_SECONDS: "2" });
  assert.equal(await orStillRunning(agent.exited, 60_000), 1, agent.lines.join("\n"));
  assert.match(
    agent.lines.join("\n"),
    /no run opened part 7 within 2 s \(PARTS_WAIT_SECONDS\): launch the run with at least 8 processes and RUNNER_MAX_LOCAL_PARTS=0/,
  );
});

test("`--part` with a bad index says what to pass", async () => {
  const agent = startAgent(["--part", "x"]);
  assert.equal(await orStillRunning(agent.exited, 30_000), 2);
  assert.match(
    agent.lines.join("\n"),
    /--part needs a part's index, a whole number from 0 to 63 \(got "x"\); in a Kubernetes Indexed Job pass \$JOB_COMPLETION_INDEX/,
  );
});

test("an agent stops its part when the coordinating runner is killed, and keeps running", async () => {
  const coordinator = startAgent([], { TARGET_DATABASE_URL: target.url, RUNNER_MAX_LOCAL_PARTS: "1" }, false);
  await waitFor("the coordinating runner to register", async () => (await prisma().runner.count({ where: { id: { not: COORDINATOR } } })) > 0);
  const run = await queue(60);
  await waitFor("the coordinating runner to claim the run", async () => (await runRow(run.id)).status === "running");
  const agent = startAgent();
  const row = await waitFor("part 1 to be running", async () => {
    const p = await partRow(run.id, 1);
    return p?.status === "running" && p;
  });
  coordinator.child.kill("SIGKILL");
  await waitFor(`part process ${row.pid} to exit`, async () => !pidAlive(row.pid!), 30_000);
  assert.match(agent.lines.join("\n"), /stopping the part: the run's coordinating runner is gone/);
  assert.equal(agent.child.exitCode, null, "the agent runner itself keeps running");
});

test("RUNNER_MAX_LOCAL_PARTS and PARTS_WAIT_SECONDS: bad values are named with what to give", () => {
  assert.throws(() => readEnv({ RUNNER_MAX_LOCAL_PARTS: "-1" }), /RUNNER_MAX_LOCAL_PARTS must be 0 or more/);
  assert.throws(() => readEnv({ RUNNER_MAX_LOCAL_PARTS: "many" }), /RUNNER_MAX_LOCAL_PARTS must be a number of processes/);
  assert.throws(() => readEnv({ PARTS_WAIT_SECONDS: "0" }), /PARTS_WAIT_SECONDS must be at least 1/);
  assert.equal(readEnv({ RUNNER_MAX_LOCAL_PARTS: "" }).RUNNER_MAX_LOCAL_PARTS, os.availableParallelism(), "empty is unset");
  assert.equal(readEnv({ RUNNER_MAX_LOCAL_PARTS: "0", PARTS_WAIT_SECONDS: "5" }).PARTS_WAIT_SECONDS, 5);
});
