// Which clusters a restart-target phase may restart, in words (./cluster-restart.ts restartRefusal): folders made
// here as startEmbedded leaves them, with the marker it writes, or without. The restart itself is carried out for
// real on a private embedded cluster in runner/phases/restart-runs.test.ts.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { CLUSTER_MARKER, clusterSystemIdentifier, restartRefusal, writeClusterMarker } from "./cluster-restart";

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A folder that looks like a cluster's (PG_VERSION), with a postmaster.pid naming this live process on `port`. */
function clusterFolder(port: number): string {
  const d = mkdtempSync(path.join(os.tmpdir(), "pgbb-marker-"));
  dirs.push(d);
  writeFileSync(path.join(d, "PG_VERSION"), "17\n");
  writeFileSync(path.join(d, "postmaster.pid"), `${process.pid}\n${d}\n0\n${port}\n`);
  return d;
}

const INSTEAD = /use kill-backend to take connections from under the run on any target$/;

test("a folder this machine does not hold, or a cluster without the product's marker, is never restarted", () => {
  const missing = path.join(os.tmpdir(), "pgbb-no-such-cluster");
  assert.match(restartRefusal(missing, 5432) ?? "", /^the target's data folder .* is not on this machine \(or this runner cannot see it\)/);
  assert.match(restartRefusal(missing, 5432) ?? "", INSTEAD);
  const d = clusterFolder(5432);
  assert.match(restartRefusal(d, 5432) ?? "", new RegExp(`was not started by this product \\(it has no ${CLUSTER_MARKER.replace(".", "\\.")};`));
});

test("the control store's cluster, npm test's shared server, a replicated primary and a test's or tool's own server are never restarted, whatever else holds", () => {
  for (const [role, why] of [
    ["control", /it is the app's control store's cluster/],
    ["shared-test", /it is the shared server of `npm test`/],
    ["replicated", /it is the primary of a replicated cluster/],
    // startEmbedded's and startTestServer's defaults: such servers hold control stores in some tests and scripts.
    ["scratch", /it is a server a tool or script started for itself, which may hold a control store/],
    ["test", /it is a test's own server, which may hold a control store/],
  ] as const) {
    const d = clusterFolder(6001);
    writeClusterMarker(d, role, 6001);
    const r = restartRefusal(d, 6001) ?? "";
    assert.match(r, /^the target's cluster in .* is never restarted: /);
    assert.match(r, why);
    assert.match(r, INSTEAD);
  }
});

test("a marked cluster is restarted only when its live server is the one the run reached, on that port", () => {
  const d = clusterFolder(6002);
  writeClusterMarker(d, "target", 6002);
  assert.match(restartRefusal(d, 6003) ?? "", /is not the server the run connected to on port 6003 \(its postmaster\.pid names port 6002\)/);
  // A marker left by a start on another port (the folder started again elsewhere since) names which disagrees.
  writeClusterMarker(d, "target", 6004);
  assert.match(restartRefusal(d, 6002) ?? "", /is not the server the run connected to on port 6002 \(its marker names port 6004\)/);
  writeClusterMarker(d, "target", 6002);
  // This process stands in for the postmaster here: it has no pg_ctl beside its program, so even this one is refused
  // (where there is a /proc to find its program by; elsewhere the package's own pg_ctl is taken).
  if (existsSync("/proc/self/exe"))
    assert.match(restartRefusal(d, 6002) ?? "", /^the target cannot be restarted from here: no pg_ctl beside its server's program/);
});

test("a cluster folder's system identifier is read from its pg_control, as pg_control_system() gives it; none without one", () => {
  const d = clusterFolder(6005);
  assert.equal(clusterSystemIdentifier(d), null);
  mkdirSync(path.join(d, "global"));
  const b = Buffer.alloc(16);
  const id = 7345678901234567890n;
  if (os.endianness() === "LE") b.writeBigUInt64LE(id, 0);
  else b.writeBigUInt64BE(id, 0);
  writeFileSync(path.join(d, "global", "pg_control"), b);
  assert.equal(clusterSystemIdentifier(d), "7345678901234567890");
});
