import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { PROJECT_ROOT } from "../lib/paths";
import { durationTable, fileDurations } from "./test-order-times";
import {
  CLI_FEATURES,
  FLOOR_FAULTS,
  FLOOR_LEAVES_OUT,
  JUDGEMENT_RUNS,
  LOGIC_ONLY,
  longestFirst,
  PACED_WORKLOAD_RUNS,
  SLOW_FIRST,
  STORE_RUNS,
  WORKLOAD_RUNS,
  PHASE_RUNS,
} from "./test-order";

/** The project's own modules a file imports (relative or "@/"), as paths from the root without their extension. */
function ownImports(file: string, text: string): string[] {
  return [...text.matchAll(/from "((?:\.|@\/)[^"]*)"/g)].map(([, spec]) =>
    spec.startsWith("@/") ? spec.slice(2) : path.join(path.dirname(file), spec).replace(/\.tsx?$/, ""),
  );
}

test("the known-slow files start first, in their order, then the rest largest first", () => {
  // A renamed or deleted slow file would silently drop out of the list: each must still exist.
  for (const f of SLOW_FIRST) assert.ok(existsSync(path.join(PROJECT_ROOT, f)), `${f} (scripts/test-order.ts SLOW_FIRST) exists`);
  const small = "lib/paths.ts"; // any two files of different sizes stand for the rest
  const large = "scripts/test-run.ts";
  const files = [small, SLOW_FIRST[3], large, SLOW_FIRST[0]];
  assert.deepEqual(longestFirst(files), [SLOW_FIRST[0], SLOW_FIRST[3], large, small]);
  assert.equal(SLOW_FIRST[0], "scripts/start-lifecycle.test.ts", "the file that builds the web app on a fresh clone starts first");
});

test("the files left out of CI's floor pass exist, and are the judgement runs, workloads' own runs, the store's and logic only", () => {
  for (const f of FLOOR_LEAVES_OUT) assert.ok(existsSync(path.join(PROJECT_ROOT, f)), `${f} (scripts/test-order.ts FLOOR_LEAVES_OUT) exists`);
  for (const f of JUDGEMENT_RUNS)
    assert.match(
      f,
      /^(runner\/ceiling\/|lib\/ceiling\/|lib\/compare\/ab|lib\/telemetry\/|runner\/telemetry\/|runner\/cli-gate\.test\.ts$)/,
      `${f}: only the conclusions' real runs are judgement runs`,
    );
  for (const f of WORKLOAD_RUNS) assert.match(f, /^workloads\//, `${f}: a workload's own runs`);
  for (const f of PACED_WORKLOAD_RUNS) assert.ok(WORKLOAD_RUNS.includes(f), `${f} (PACED_WORKLOAD_RUNS) is one of WORKLOAD_RUNS`);
  for (const f of PHASE_RUNS) assert.match(f, /^runner\/phases\//, `${f}: a phase's own runs`);
  for (const f of CLI_FEATURES) assert.match(f, /^runner\/[a-z-]*cli[a-z-]*\.test\.ts$/, `${f}: a feature of the CLI, whose entry runner/cli.test.ts runs`);
  // The store's runs start no process and read nothing of the platform's: what would differ between Node versions.
  for (const f of STORE_RUNS)
    assert.doesNotMatch(readFileSync(path.join(PROJECT_ROOT, f), "utf8"), /node:child_process|\/proc\/|node:net\b/, `${f}: starts no process, reads no /proc`);
  // The logic files start nothing, open no database and read nothing of the platform's, by what they import.
  for (const f of LOGIC_ONLY) {
    const text = readFileSync(path.join(PROJECT_ROOT, f), "utf8");
    assert.doesNotMatch(text, /node:(child_process|net|http|worker_threads|dgram)|\/proc\/|^import [^\n]*from "pg"/m, `${f}: logic only`);
    for (const m of ownImports(f, text)) assert.doesNotMatch(m, /^(lib\/(testing|db|app-testing)|lib\/runs\/stream-testing|platform\/)/, `${f} imports ${m}`);
  }
  // Never left out: what depends on the Node version (processes, the app, the platform, forked parts: runner/parts/'s
  // own tests fork them; a workload's runs over parts, workloads/exercise/two-processes-*, are a workload's own runs).
  // The logic files are judged by their imports above, wherever they live.
  // The faults provoked at length are the exception, each of its kind kept on the floor pass in its normal course:
  // the app's start, the CLI, the runner, a run over forked parts.
  for (const f of FLOOR_LEAVES_OUT)
    if (!LOGIC_ONLY.includes(f) && !FLOOR_FAULTS.includes(f)) assert.doesNotMatch(f, /^(scripts|platform|app|deploy|runner\/parts)\/|engine\.test/, f);
  for (const kept of ["scripts/start.test.ts", "runner/cli.test.ts", "runner/main.test.ts", "runner/parts/parts-runs.test.ts", "platform/replicated.test.ts"])
    assert.ok(!FLOOR_LEAVES_OUT.includes(kept), `${kept} stays on the floor pass`);
  assert.ok(!LOGIC_ONLY.some((f) => /^(platform|runner\/parts)\/|engine\.test/.test(f)), "no platform or parts file is logic only");
});

test("the closing table names files by the runner's file-level entries, slowest first, never one of their tests", () => {
  const cwd = "/p";
  const end = (name: string, file: string, ms: number, nesting = 0) => ({ type: "test:complete", data: { name, file, nesting, details: { duration_ms: ms } } });
  const events = [
    end("a test in a", "/p/lib/a.test.ts", 900), // a file's own test, longer than a smaller file: not a file
    end("lib/a.test.ts", "/p/lib/a.test.ts", 1000),
    end("runner/b.test.ts", "/p/runner/b.test.ts", 5000),
    end("lib/a.test.ts", "/p/lib/a.test.ts", 7, 1), // a nested test of that name is not the file either
  ];
  assert.deepEqual(fileDurations(events, cwd), [
    { file: "runner/b.test.ts", ms: 5000 },
    { file: "lib/a.test.ts", ms: 1000 },
  ]);
  assert.match(durationTable(fileDurations(events, cwd)), /2 files, 6 s summed[\s\S]*5\.0 s {2}runner\/b\.test\.ts\n {6}1\.0 s {2}lib\/a\.test\.ts/);
});
