// The CLI against the embedded replicated target (`--replicas 2 [--replica-delay 1ms]`), as a user runs it: real
// processes on one data folder of this file's (DATA_DIR/replicated, made by the first test and reused by the
// others). A run records the cluster's shape and the measured delay; a run while another process owns the cluster
// shares it and leaves it running; Ctrl-C leaves no postgres of the cluster running; a CLI killed with SIGKILL
// leaves its cluster, which the next start stops and starts again.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { RunSummary } from "../lib/measurement/summary";
import { PROJECT_ROOT } from "../lib/paths";
import { processesNaming, waitUntil } from "../lib/testing";
import { pidAlive } from "../platform/pid";
import { replicatedHome, startReplicated } from "../platform/replicated";
import { resolveTarget } from "./default-target";

let dir: string;
let home: string;

before(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "pgbb-cli-replicated-"));
  chmodSync(dir, 0o755); // the postgres user must reach the cluster's folders
  home = replicatedHome(dir);
});
after(() => rmSync(dir, { recursive: true, force: true }));

interface Cli {
  proc: ChildProcess;
  out: () => string;
  exited: Promise<number | null>;
}

function bench(args: string[]): Cli {
  const proc = spawn(process.execPath, ["--import", "tsx", "runner/cli.ts", ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, DATA_DIR: dir, DATABASE_URL: "", TARGET_DATABASE_URL: "" },
  });
  let out = "";
  proc.stdout!.on("data", (d) => (out += d));
  proc.stderr!.on("data", (d) => (out += d));
  return { proc, out: () => out, exited: new Promise((r) => proc.on("exit", (code) => r(code))) };
}

const PUBSUB = ["pubsub", "-writers", "1", "-partitions", "1", "-readers", "1", "-throttle_writes", "200", "--warmup", "0s"];

/** The postmasters of the home and what they started, gone (they stop on their own once signalled: waited for). */
async function nothingLeft(what: string) {
  await waitUntil(`no process of ${home} ${what}`, () => processesNaming(home).length === 0, 60_000);
}

test("--replicas 2 --replica-delay 1ms runs pub/sub; the summary names the standbys and a measured delay of at least the asked", {
  timeout: 240_000,
}, async () => {
  const json = path.join(dir, "summary.json");
  const cli = bench([...PUBSUB, "-duration", "3s", "--replicas", "2", "--replica-delay", "1ms", "--json", json]);
  assert.equal(await cli.exited, 0, cli.out());
  assert.match(cli.out(), /the embedded replicated target started for this command .*primary pg1 on port \d+; standbys pg2 on port \d+ \(through a relay/);
  assert.match(cli.out(), /synchronous_standby_names 'FIRST 1 \(pg2, pg3\)'; delay asked 1 ms each way, measured [\d.]+ ms each way/);
  assert.match(cli.out(), /pubsub on embedded replicated \(pg1 \+ 2 standbys, \+1 ms each way\)/);
  const summary = RunSummary.parse(JSON.parse(readFileSync(json, "utf8")));
  const cluster = summary.manifest.cluster!;
  assert.deepEqual(cluster.standbys, ["pg2", "pg3"]);
  assert.equal(cluster.synchronousStandbyNames, "FIRST 1 (pg2, pg3)");
  assert.equal(cluster.delay?.askedMs, 1);
  // A chunk is never passed on before its deadline, so every round trip through the relay holds both delays.
  assert.ok(cluster.delay!.measuredRoundTripMs >= 2, `round trip ${cluster.delay!.measuredRoundTripMs} ms through the relay`);
  assert.ok(cluster.delay!.addedOneWayMs > 0);
  assert.equal(summary.verification.ok, true);
  await nothingLeft("after the CLI stopped the cluster it started");
});

test("a CLI run while another process owns the cluster shares it and leaves it running; another shape is refused", { timeout: 240_000 }, async () => {
  const cluster = await startReplicated({ home });
  try {
    const pids = [cluster.primary.pid(), ...cluster.standbys.map((s) => s.pid())];
    const cli = bench([...PUBSUB, "-duration", "2s", "--replicas", "2"]);
    assert.equal(await cli.exited, 0, cli.out());
    assert.match(cli.out(), /the embedded replicated target already running: shared, left running/);
    assert.deepEqual(
      pids.filter((p) => !pidAlive(p!)),
      [],
      "every node still runs",
    );
    // The bench scripts' way to the same target (runner/default-target.ts): shared too, and left running.
    process.env.DATA_DIR = dir;
    const lines: string[] = [];
    const resolved = await resolveTarget(undefined, (l) => lines.push(l), { replicas: 2 });
    assert.equal(resolved.url, cluster.primary.url("pgbb_target"));
    assert.equal(resolved.label, "embedded replicated (pg1 + 2 standbys)");
    assert.match(lines.join("\n"), /already running: shared, left running/);
    await resolved.release();
    assert.ok(pidAlive(cluster.primary.pid()!), "release() leaves a shared cluster running");
    const other = bench([...PUBSUB, "-duration", "2s", "--replicas", "3"]);
    assert.equal(await other.exited, 1, other.out());
    assert.match(other.out(), /is running \(pid \d+\) with 2 standbys, not 3 as asked here/);
  } finally {
    await cluster.stop();
  }
});

test("Ctrl-C mid-run leaves no postgres of the cluster running", { timeout: 240_000 }, async () => {
  const cli = bench([...PUBSUB, "-duration", "60s", "--replicas", "2"]);
  try {
    await waitUntil("a live line", () => /\[\s*\d+s measuring/.test(cli.out()), 120_000);
    assert.ok(processesNaming(home).length >= 3, "the cluster runs");
    cli.proc.kill("SIGINT");
    await cli.exited;
    await nothingLeft("after Ctrl-C");
  } finally {
    cli.proc.kill("SIGKILL");
  }
});

test("a CLI killed with SIGKILL leaves its cluster running; the next start stops it and starts afresh", { timeout: 240_000 }, async () => {
  const cli = bench([...PUBSUB, "-duration", "60s", "--replicas", "2"]);
  await waitUntil("a live line", () => /\[\s*\d+s measuring/.test(cli.out()), 120_000);
  cli.proc.kill("SIGKILL");
  await cli.exited;
  const left = processesNaming(home);
  assert.ok(left.length >= 3, "the killed CLI's postmasters are still running");
  const cluster = await startReplicated({ home });
  try {
    assert.equal(cluster.notes.filter((n) => /left running by an earlier start that was killed/.test(n)).length, 3, cluster.notes.join("\n"));
    assert.deepEqual(
      left.filter((p) => pidAlive(p)),
      [],
      "the leftovers are gone",
    );
    assert.equal(cluster.standbys.length, 2);
  } finally {
    await cluster.stop();
  }
  await nothingLeft("after the new start stopped");
});
