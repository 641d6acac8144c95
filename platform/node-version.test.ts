import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { test } from "node:test";
import { PROJECT_ROOT } from "../lib/paths";
import { describeNode, isProjectNode, meetsNodeFloor, NODE_FLOOR, nodeFloorProblem, nodeMajor } from "./node-version";

test("the floor is Node 22.18: 20 and an older 22 are refused with what to do, 22.18 and 24 pass", () => {
  assert.equal(NODE_FLOOR, "22.18");
  assert.equal(nodeMajor("v20.20.2"), 20);
  const problem = nodeFloorProblem("v20.20.2", "/usr/bin/node");
  assert.ok(problem);
  assert.match(problem, /needs Node 22\.18 or newer; this is Node v20\.20\.2 \(\/usr\/bin\/node\)/);
  assert.match(problem, /npm start/);
  assert.match(problem, /node_modules/);
  assert.match(nodeFloorProblem("v22.12.0", "/x/node") ?? "", /needs Node 22\.18 or newer; this is Node v22\.12\.0/);
  assert.equal(nodeFloorProblem("v22.18.0", "/x/node"), null);
  assert.equal(nodeFloorProblem("v23.0.0", "/x/node"), null);
  assert.equal(nodeFloorProblem("v24.21.0", "/x/node"), null);
  assert.ok(nodeFloorProblem("garbage", "/x/node"), "an unreadable version is not taken as new enough");
});

test("npm's scripts run on the project's own Node from node_modules/node", () => {
  // What `npm start` / `npm test` / `npm run bench` get: npm puts node_modules/.bin first on the PATH.
  const r = spawnSync("npm", ["exec", "--offline", "--", "node", "-p", "process.execPath + ' ' + process.version"], {
    cwd: PROJECT_ROOT,
    encoding: "utf8",
    timeout: 60_000,
  });
  const [execPath, version] = r.stdout.trim().split(" ");
  assert.ok(isProjectNode(execPath), `npm runs scripts on ${execPath}, not on node_modules/node: is the \`node\` dependency installed?`);
  assert.ok(meetsNodeFloor(version), version);
  assert.match(describeNode(version, execPath), /the project's own/);
  assert.equal(isProjectNode("/usr/bin/node"), false);
});

test("an entry point started on a Node below the floor stops at once with the message", (t) => {
  // The machine's own Node, when it is below the floor (Node 20 on the CI machine), is the real case.
  const machineNode = spawnSync("/usr/bin/env", ["-i", "PATH=/usr/local/bin:/usr/bin:/bin", "node", "-p", "process.execPath + ' ' + process.version"], {
    encoding: "utf8",
  });
  const [execPath, version] = machineNode.stdout.trim().split(" ");
  if (!execPath || meetsNodeFloor(version)) {
    t.skip(`this machine's node (${version ?? "none"}) is not below the floor`);
    return;
  }
  const r = spawnSync(execPath, ["--import", "tsx", path.join("runner", "cli.ts"), "--help"], { cwd: PROJECT_ROOT, encoding: "utf8", timeout: 60_000 });
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stderr, /needs Node 22\.18 or newer/);
});
