import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { PROJECT_ROOT } from "../lib/paths";
import { JUDGEMENT_RUNS, longestFirst, SLOW_FIRST } from "./test-order";

test("the known-slow files start first, in their order, then the rest largest first", () => {
  // A renamed or deleted slow file would silently drop out of the list: each must still exist.
  for (const f of SLOW_FIRST) assert.ok(existsSync(path.join(PROJECT_ROOT, f)), `${f} (scripts/test-order.ts SLOW_FIRST) exists`);
  const small = "lib/paths.ts"; // any two files of different sizes stand for the rest
  const large = "scripts/test-run.ts";
  const files = [small, SLOW_FIRST[3], large, SLOW_FIRST[0]];
  assert.deepEqual(longestFirst(files), [SLOW_FIRST[0], SLOW_FIRST[3], large, small]);
  assert.equal(SLOW_FIRST[0], "scripts/start-lifecycle.test.ts", "the file that builds the web app on a fresh clone starts first");
});

test("the judgement runs left out of CI's second pass exist, and are the real runs of the verdict and the ceiling", () => {
  for (const f of JUDGEMENT_RUNS) {
    assert.ok(existsSync(path.join(PROJECT_ROOT, f)), `${f} (scripts/test-order.ts JUDGEMENT_RUNS) exists`);
    assert.match(f, /^(runner\/ceiling|lib\/ceiling|runner\/telemetry)\//, `${f}: only the ceiling's and the verdict's real runs are left out`);
  }
});
