import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { buildIfStale, buildIsStale, buildLockPath } from "./build";
import { readEnv } from "../lib/env";

// A project folder with a build and one source file per bundled folder, all older than the build.
function project(): { root: string; touch: (rel: string) => void } {
  const root = mkdtempSync(path.join(os.tmpdir(), "pgbb-build-"));
  const old = new Date(Date.now() - 60_000);
  for (const d of ["app", "components", "lib", "workloads/queue", "public"]) mkdirSync(path.join(root, d), { recursive: true });
  for (const f of ["app/page.tsx", "lib/x.ts", "workloads/queue/definition.ts", "proxy.ts"]) {
    writeFileSync(path.join(root, f), "//");
    utimesSync(path.join(root, f), old, old);
  }
  const buildId = path.join(root, readEnv().NEXT_DIST_DIR, "BUILD_ID");
  mkdirSync(path.dirname(buildId), { recursive: true });
  writeFileSync(buildId, "x");
  // Built 30 s ago, so a change made now is newer whatever the file system's timestamp resolution.
  const built = new Date(Date.now() - 30_000);
  utimesSync(buildId, built, built);
  return { root, touch: (rel) => writeFileSync(path.join(root, rel), "// changed") };
}

test("a build is fresh until a bundled source changes, a workload definition or proxy.ts included", () => {
  for (const changed of ["workloads/queue/definition.ts", "proxy.ts", "lib/x.ts"]) {
    const p = project();
    try {
      assert.equal(buildIsStale(p.root), false, "nothing changed since the build");
      p.touch(changed);
      assert.equal(buildIsStale(p.root), true, `${changed} changed after the build`);
    } finally {
      rmSync(p.root, { recursive: true, force: true });
    }
  }
});

test("two starts of one checkout build once: the second waits for the first's build, then finds it fresh", async () => {
  const p = project();
  try {
    p.touch("lib/x.ts");
    const buildId = path.join(p.root, readEnv().NEXT_DIST_DIR, "BUILD_ID");
    let builds = 0;
    let building = 0;
    let overlapped = false;
    let finished = false;
    const build = async () => {
      builds++;
      building++;
      overlapped ||= building > 1;
      // As next build does: BUILD_ID is written long before the build has written everything else.
      writeFileSync(buildId, String(builds));
      await new Promise((r) => setTimeout(r, 300));
      finished = true;
      building--;
    };
    const waits: number[] = [];
    const [a, b] = await Promise.all([
      buildIfStale(build, { root: p.root, pollMs: 20 }),
      buildIfStale(build, { root: p.root, pollMs: 20, onWait: (pid) => waits.push(pid) }).then((built) => {
        assert.ok(finished, "the second start went on while the first's build was still writing the build folder");
        return built;
      }),
    ]);
    assert.equal(overlapped, false, "two builds ran at once");
    assert.equal(builds, 1, "the second start built again although the first had just built");
    assert.deepEqual([a, b], [true, false]);
    assert.deepEqual(waits, [process.pid], "the waiting start is told who builds");
    assert.equal(existsSync(buildLockPath(p.root)), false, "the lock is released");
  } finally {
    rmSync(p.root, { recursive: true, force: true });
  }
});

test("a lock left by a builder that died is taken over", async () => {
  const p = project();
  try {
    p.touch("lib/x.ts");
    writeFileSync(buildLockPath(p.root), "999999999"); // no such process
    let built = false;
    assert.equal(await buildIfStale(async () => void (built = true), { root: p.root, pollMs: 20 }), true);
    assert.ok(built);
  } finally {
    rmSync(p.root, { recursive: true, force: true });
  }
});
