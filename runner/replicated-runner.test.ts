// The embedded replicated target in the app, end to end with real servers: offered beside an embedded default
// only, launched before it runs (nothing to probe yet: it starts with the run), started by the runner process with
// its first run (a short pub/sub, completed, its shape in manifest.cluster), probed as any target once it runs,
// compared with the published three-node scenario (the note that names one host against zones) and not with the
// single-node one, and stopped with the runner: its SIGTERM, as npm start's, interrupts the run on it and leaves no
// postgres of DATA_DIR/replicated running. One cluster for the whole file.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { GET as targetInfoRoute } from "../app/api/targets/[id]/info/route";
import { fromReference } from "../lib/compare/from-reference";
import { fromRun } from "../lib/compare/from-run";
import { contextNotes } from "../lib/compare/notes";
import { prisma } from "../lib/db";
import { RunSummary } from "../lib/measurement/summary";
import { PROJECT_ROOT } from "../lib/paths";
import { referenceById } from "../lib/references/references";
import { toRunView } from "../lib/runs/view";
import { checkLaunch, launchRun } from "../lib/targets/launch";
import { replicatedTargetForCli } from "../lib/targets/default-target";
import { listTargets } from "../lib/targets/store";
import { processesNaming, testControlStore, testDatabase, waitUntil } from "../lib/testing";
import { replicatedHome } from "../platform/replicated";

let dir: string;
let home: string;
let control: Awaited<ReturnType<typeof testControlStore>>;
let target: Awaited<ReturnType<typeof testDatabase>>;
let runner: { proc: ChildProcess; out: () => string; exited: Promise<number | null> } | undefined;

const NAME = "embedded replicated (pg1 + 2 standbys)";
const PUBSUB = { kind: "pubsub", writers: 1, partitions: 1, readers: 1, consumerGroups: 1, throttleWritesPerSec: 200, warmupSeconds: 0 };

before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "pgbb-replicated-runner-"));
  chmodSync(dir, 0o755); // the postgres user must reach the cluster's folders
  home = replicatedHome(dir);
  control = await testControlStore("repl_control");
  target = await testDatabase("repl_target");
  // The app's environment as npm start gives it (scripts/start.ts childEnvOf): an embedded default, DATA_DIR absolute.
  Object.assign(process.env, { TARGET_DATABASE_URL: target.url, TARGET_IS_EMBEDDED: "1", DATA_DIR: dir, EMBEDDED_REPLICAS: "" });
});

after(async () => {
  if (runner && runner.proc.exitCode === null) runner.proc.kill("SIGKILL");
  // Whatever failed above, no node of the cluster outlives the file.
  for (const pid of processesNaming(home)) process.kill(pid, "SIGKILL");
  await prisma().$disconnect();
  await control.drop();
  await target.drop();
  rmSync(dir, { recursive: true, force: true });
});

function startRunner() {
  const proc = spawn(process.execPath, ["--import", "tsx", "runner/main.ts"], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, DATABASE_URL: control.url, RUNNER_HEARTBEAT_MS: "500" },
  });
  let out = "";
  proc.stdout!.on("data", (d) => (out += d));
  proc.stderr!.on("data", (d) => (out += d));
  return { proc, out: () => out, exited: new Promise<number | null>((r) => proc.on("exit", (code) => r(code))) };
}

async function finalRun(id: string, ms: number) {
  let row = await prisma().run.findUniqueOrThrow({ where: { id } });
  await waitUntil(
    `run ${id} to end; runner output:\n${runner?.out()}`,
    async () => {
      row = await prisma().run.findUniqueOrThrow({ where: { id } });
      return !["queued", "running"].includes(row.status);
    },
    ms,
  );
  return row;
}

test("offered only beside an embedded default, second, saying it starts with its first run", async () => {
  const targets = await listTargets();
  assert.deepEqual(
    targets.slice(0, 2).map((t) => [t.id, t.name]),
    [
      ["default", "embedded default"],
      ["replicated", NAME],
    ],
  );
  assert.match(
    targets[1].replicated!.about,
    /^A primary \(pg1\) and 2 standbys \(pg2, pg3\) on this machine, synchronous_standby_names 'FIRST 1 \(pg2, pg3\)'; starts with its first run\.$/,
  );
  assert.deepEqual(targets[1].replicated!.cli.args, ["--replicas", "2"]);
  for (const off of [{ TARGET_IS_EMBEDDED: "" }, { EMBEDDED_REPLICAS: "0" }]) {
    const saved = { ...process.env };
    Object.assign(process.env, off);
    try {
      assert.ok(!(await listTargets()).some((t) => t.id === "replicated"), `not offered with ${JSON.stringify(off)}`);
    } finally {
      Object.assign(process.env, saved);
    }
  }
  process.env.EMBEDDED_REPLICA_DELAY = "0.5ms";
  try {
    assert.equal((await listTargets())[1].name, "embedded replicated (pg1 + 2 standbys, +0.5 ms each way)");
  } finally {
    delete process.env.EMBEDDED_REPLICA_DELAY;
  }
});

test("before it runs, a launch on it is accepted and the target's info says it starts with the run", async () => {
  const config = { ...PUBSUB, durationSeconds: 2 };
  const checked = await checkLaunch({ config, targetId: "replicated" }, ["config", "targetId"]);
  assert.ok(checked.ok, JSON.stringify(checked));
  assert.equal(checked.targetInfo, null);
  const info = await targetInfoRoute(new Request("http://x/api/targets/replicated/info"), { params: Promise.resolve({ id: "replicated" }) });
  assert.equal(info.status, 200);
  assert.match((await info.json()).pending, /Not running yet: it starts with this run .*The runner then checks its connections/);
});

test("the runner starts it with the first run on it, runs it to completed, and probes it as any target since", { timeout: 400_000 }, async () => {
  const launched = await launchRun({ config: { ...PUBSUB, durationSeconds: 3 }, targetId: "replicated" });
  assert.ok(launched.ok, JSON.stringify(launched));
  runner = startRunner();
  const row = await finalRun(launched.id, 300_000);
  assert.equal(row.status, "completed", `${row.error}\n${runner.out()}`);
  assert.equal(row.targetId, null);
  assert.equal(row.targetLabel, NAME);
  const summary = RunSummary.parse(row.summary);
  assert.deepEqual(summary.manifest.cluster, {
    where: "embedded, one host",
    primary: "pg1",
    standbys: ["pg2", "pg3"],
    synchronousStandbyNames: "FIRST 1 (pg2, pg3)",
  });
  assert.match(
    summary.notes?.[0] ?? "",
    /^the embedded replicated target started for this run \(.*\): primary pg1 on port \d+; standbys pg2 on port \d+, pg3 on port \d+/,
  );
  assert.match(runner.out(), /the embedded replicated target started for this run/);
  // The run page and "Edit and run" find it again by its name; its command reaches the same cluster.
  assert.equal(toRunView(row).targetId, "replicated");
  assert.deepEqual(replicatedTargetForCli({ replicas: 2 }).args, ["--replicas", "2"]);

  // Running now: probed as any target, and said so.
  const checked = await checkLaunch({ config: { ...PUBSUB, durationSeconds: 2 }, targetId: "replicated" }, ["config", "targetId"]);
  assert.ok(checked.ok && checked.targetInfo, JSON.stringify(checked));
  assert.match(checked.targetInfo.serverVersion, /^\d+/);
  assert.match((await listTargets())[1].replicated!.about, /; running \(primary on 127\.0\.0\.1:\d+\)\.$/);

  // Compared with the published three-node scenario, the one host is named against the zones; not with the single node.
  const run = fromRun({ ...row, summary });
  const three = contextNotes([run, fromReference(referenceById("pubsub-4vcpu-three-node-sync-replicated")!)]);
  const placement = three.find((n) => n.topic === "replication" && /on one host/.test(n.text));
  assert.match(placement?.text ?? JSON.stringify(three), /^3 nodes here, on one host, no network between them, vs 3 nodes there, across zones \(/);
  assert.ok(!three.some((n) => /^Replication differs/.test(n.text)), "the same replication shape on both sides");
  const single = contextNotes([run, fromReference(referenceById("pubsub-4vcpu-single-node")!)]);
  assert.ok(!single.some((n) => /on one host/.test(n.text)), JSON.stringify(single));
  assert.match(
    single.find((n) => n.topic === "replication")!.text,
    /Replication differs: .*3 nodes, synchronous_standby_names = FIRST 1 \(pg2, pg3\).*single node/,
  );
});

test("the runner's SIGTERM, as npm start's, interrupts the run on it, then stops the cluster: no postgres of it left", { timeout: 120_000 }, async () => {
  assert.ok(runner, "the runner of the test before");
  assert.ok(processesNaming(home).length >= 3, "the primary and its standbys run until the runner stops");
  const launched = await launchRun({ config: { ...PUBSUB, durationSeconds: 60 }, targetId: "replicated" });
  assert.ok(launched.ok);
  await waitUntil("the run to measure", async () => (await prisma().run.findUniqueOrThrow({ where: { id: launched.id } })).phase === "measuring", 60_000);
  runner.proc.kill("SIGTERM");
  assert.equal(await runner.exited, 0, runner.out());
  const row = await prisma().run.findUniqueOrThrow({ where: { id: launched.id } });
  assert.equal(row.status, "interrupted", `${row.error}`);
  assert.match(row.error ?? "", /the runner was stopped \(SIGTERM\) while measuring/);
  assert.match(runner.out(), /stopping the embedded replicated target/);
  await waitUntil(`no process of ${home}`, () => processesNaming(home).length === 0, 30_000);
});
