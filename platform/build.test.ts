import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { buildIsStale } from "./build";
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
