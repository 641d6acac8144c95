// A test file that throws while loading must be named, not hidden behind one failure: run node's real test
// runner on a good file and a broken one and read its TAP output as scripts/test-run.ts does.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { failedTests, filesThatDidNotLoad } from "./tap";

test("a file that fails to load is named; files whose tests fail are not", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "pgbb-tap-"));
  try {
    const good = path.join(dir, "good.test.mjs");
    const failing = path.join(dir, "failing.test.mjs");
    const broken = path.join(dir, "broken.test.mjs");
    writeFileSync(good, `import { test } from "node:test"; test("g1", () => {}); test("g2", () => {});`);
    writeFileSync(failing, `import { test } from "node:test"; test("f1", () => { throw new Error("no"); });`);
    writeFileSync(
      broken,
      `import { test } from "node:test"; import { readFileSync } from "node:fs";\ntest("b1", () => {});\nreadFileSync("${path.join(dir, "missing-fixture.txt")}");\ntest("b2", () => {});`,
    );
    // NODE_TEST_CONTEXT would make the child report to this test run instead of printing its own TAP.
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    const r = spawnSync(process.execPath, ["--test", "--test-reporter=tap", good, failing, broken], { encoding: "utf8", env });
    assert.notEqual(r.status, 0);
    assert.deepEqual(filesThatDidNotLoad(r.stdout), [broken]);
    // The failed test is named with where it is and its error's first line, whatever the failure's nesting.
    const failed = failedTests(r.stdout).filter((t) => t.location.startsWith(failing));
    assert.deepEqual(failed, [{ location: `${failing}:1:35`, name: "f1", error: "no" }]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a failing subtest is named, not the parent that fails for it; an error's first line is kept", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "pgbb-tap-"));
  try {
    const file = path.join(dir, "nested.test.mjs");
    writeFileSync(
      file,
      `import { test } from "node:test"; import assert from "node:assert";\ntest("outer", async (t) => {\n  await t.test("inner", () => assert.strictEqual(1, 2, "one is not two"));\n  await t.test("fine", () => {});\n});`,
    );
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    const r = spawnSync(process.execPath, ["--test", "--test-reporter=tap", file], { encoding: "utf8", env });
    assert.deepEqual(failedTests(r.stdout), [{ location: `${file}:3:11`, name: "inner", error: "one is not two" }]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
