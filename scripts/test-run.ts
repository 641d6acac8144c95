// `npm test`: unit and integration tests (node's test runner, real embedded Postgres), then Playwright.
// One embedded Postgres serves every integration test file (each creates its own database in it);
// Playwright starts the real app with `npm start`'s code on a fresh data folder (playwright.config.ts).
//   npm test            everything
//   npm test -- unit    node tests only
//   npm test -- e2e     Playwright only (npm run test:e2e -- e2e/runs.spec.ts for one spec)
//   npm run test:unit -- runner/   only node test files whose path contains "runner/"
import "../platform/node-floor";
import { spawn } from "node:child_process";
import { chmodSync, closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PROJECT_ROOT } from "../lib/paths";
import { startTestServer } from "../lib/testing";
import { type FailedTest, failedTests, filesThatDidNotLoad } from "./tap";
import { FLOOR_LEAVES_OUT, LOGIC_ONLY, longestFirst, RUN_ALONE } from "./test-order";

const TEST_DIRS = ["lib", "platform", "runner", "workloads", "scripts", "app", "components", "deploy"];

function findTests(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name === "generated" || e.name.startsWith(".")) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) findTests(p, out);
    else if (/\.test\.tsx?$/.test(e.name)) out.push(path.relative(PROJECT_ROOT, p));
  }
  return out;
}

/**
 * How many test files run at once. Most files spend their time waiting on Postgres or on a run's clock, not on the
 * CPU, so several at a time finish far sooner than one by one even on 2 cores; TEST_CONCURRENCY overrides it.
 */
function testConcurrency(): number {
  const asked = Number(process.env.TEST_CONCURRENCY);
  if (Number.isInteger(asked) && asked >= 1) return asked;
  return Math.max(2, os.availableParallelism() * 2);
}

/** Runs `cmd` to its end, its output on this process's or, with `outFile`, written there. */
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, outFile?: string): Promise<number> {
  const out = outFile === undefined ? "inherit" : openSync(outFile, "w");
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: PROJECT_ROOT, env, stdio: ["inherit", out, out] });
    child.on("exit", (code, signal) => {
      if (typeof out === "number") closeSync(out);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

/**
 * How a lane's files run: `concurrency` processes at a time, or with `oneProcess` all in one (./logic-lane.ts loads
 * them); with `outFile` its report is written there rather than shown as it goes.
 */
interface Lane {
  files: string[];
  concurrency: number;
  oneProcess?: boolean;
  outFile?: string;
}

/** One `node --test` over a lane's files: its exit code, its totals and the files that did not load. */
async function nodeTests(lane: Lane, tap: string, env: NodeJS.ProcessEnv) {
  const code = await run(
    process.execPath,
    [
      "--import",
      "tsx",
      "--test",
      `--test-concurrency=${lane.concurrency}`,
      "--test-reporter=spec",
      "--test-reporter-destination=stdout",
      "--test-reporter=tap",
      `--test-reporter-destination=${tap}`,
      // The slowest files, by name, at the end of the pass (the spec reporter names tests, not files; files loaded
      // into one process have no entry of their own).
      ...(lane.oneProcess ? [] : ["--test-reporter=./scripts/test-order-times.ts", "--test-reporter-destination=stdout"]),
      // Node loads that reporter itself and warns that it took it for an ES module: it is one.
      "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON",
      ...(lane.oneProcess ? ["scripts/logic-lane.ts"] : lane.files),
    ],
    lane.oneProcess ? { ...env, PGBB_LOGIC_FILES: JSON.stringify(lane.files) } : env,
    lane.outFile,
  );
  const text = existsSync(tap) ? readFileSync(tap, "utf8") : "";
  // The run's own totals are the LAST "# pass N" lines: the TAP reporter also prints what tests wrote to stdout as
  // "# …" comments (a test that runs node's runner itself prints such lines), which must not be taken for them.
  const count = (k: string) => Number([...text.matchAll(new RegExp(`^# ${k} (\\d+)$`, "gm"))].at(-1)?.[1] ?? 0);
  const totals = {
    passed: count("pass"),
    failed: count("fail") + count("cancelled"),
    skipped: count("skipped") + count("todo"),
  };
  if (code !== 0 && totals.failed === 0) totals.failed += 1; // crashed before reporting
  return { code, totals, unloaded: filesThatDidNotLoad(text).map((f) => path.relative(PROJECT_ROOT, f)), failures: failedTests(text) };
}

/**
 * The chosen node test files in their lanes (scripts/test-order.ts): the files of logic only in one process beside
 * the others (a process each loaded their modules again, about 37 of their 53 s of CPU measured here; their report
 * follows the others'), then the files that judge whether the runner was starved, one at a time: beside the pass's
 * own load they would measure it, not what they provoke (RUN_ALONE).
 */
async function runLanes(chosen: string[], tmp: string, env: NodeJS.ProcessEnv) {
  const logic: Lane = { files: chosen.filter((f) => LOGIC_ONLY.includes(f)), concurrency: 1, oneProcess: true, outFile: path.join(tmp, "logic.txt") };
  const others: Lane = { files: longestFirst(chosen.filter((f) => !RUN_ALONE.includes(f) && !LOGIC_ONLY.includes(f))), concurrency: testConcurrency() };
  const alone: Lane = { files: chosen.filter((f) => RUN_ALONE.includes(f)), concurrency: 1 };
  const ran = (lane: Lane, i: number) => (lane.files.length ? nodeTests(lane, path.join(tmp, `node-${i}.tap`), env) : undefined);
  // The logic lane first, on its own (some 15 s of one core): beside the others its burst of CPU was the load a
  // judgement run read as the host's (replication-runs' stall named host-bound in a clean-clone CI run).
  const r1 = await ran(logic, 1);
  const r0 = await ran(others, 0);
  if (r1) console.log(`\nlogic only, in one process (scripts/test-order.ts LOGIC_ONLY):\n${readFileSync(logic.outFile!, "utf8")}`);
  if (alone.files.length) console.log(`\nrun alone, one at a time (scripts/test-order.ts RUN_ALONE): ${alone.files.join(", ")}`);
  const r2 = await ran(alone, 2);
  return [r0, r1, r2].filter((r) => r !== undefined);
}

/** Playwright's failed tests, from its JSON report's suites (nested by file and describe), as the node tests' are. */
function playwrightFailures(report: { suites?: unknown[] }): FailedTest[] {
  type Suite = {
    suites?: Suite[];
    specs?: { title: string; file: string; line: number; tests: { status: string; results?: { error?: { message?: string } }[] }[] }[];
  };
  const out: FailedTest[] = [];
  const walk = (s: Suite) => {
    for (const spec of s.specs ?? [])
      for (const t of spec.tests.filter((t) => t.status === "unexpected")) {
        const error = t.results?.at(-1)?.error?.message ?? "";
        out.push({
          location: path.join(PROJECT_ROOT, "e2e", `${spec.file}:${spec.line}`),
          name: spec.title,
          error: error.replace(/\u001b\[[0-9;]*m/g, "").split("\n")[0],
        });
      }
    for (const child of s.suites ?? []) walk(child);
  };
  for (const s of (report.suites ?? []) as Suite[]) walk(s);
  return out;
}

async function main() {
  const which = process.argv[2] ?? "all";
  let failed = false;
  const totals = { passed: 0, failed: 0, skipped: 0 };
  const unloaded: string[] = [];
  const failures: FailedTest[] = [];
  const tmp = mkdtempSync(path.join(os.tmpdir(), "pgbb-test-run-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    // V8's compiled code kept on disk (keyed by each file's content and the Node version): the ~140 test files, and
    // the CLIs, runners and parts they start, each load some hundred modules, and compiling them again in every
    // process cost about a quarter of each one's start-up CPU on a pass that has both cores busy throughout.
    NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? path.join(PROJECT_ROOT, "node_modules", ".cache", "node-compile-cache"),
  };

  if (which === "all" || which === "unit") {
    const files = TEST_DIRS.flatMap((d) => findTests(path.join(PROJECT_ROOT, d))).sort();
    const server = await startTestServer([], "shared-test"); // restart-target phases never restart it
    try {
      console.log(`node tests: ${files.length} files, Postgres ${server.url("postgres").replace(/:[^:@/]+@/, ":****@")}`);
      const only = process.argv.slice(3);
      const floorPass = process.env.TEST_FLOOR_PASS === "1";
      const chosen = (only.length ? files.filter((f) => only.some((o) => f.includes(o))) : files).filter((f) => !floorPass || !FLOOR_LEAVES_OUT.includes(f));
      if (floorPass) console.log(`left out (TEST_FLOOR_PASS=1; run on the other pass): ${FLOOR_LEAVES_OUT.join(", ")}`);
      for (const r of await runLanes(chosen, tmp, { ...env, TEST_PG_URL: server.url("postgres") })) {
        failed ||= r.code !== 0;
        for (const k of ["passed", "failed", "skipped"] as const) totals[k] += r.totals[k];
        unloaded.push(...r.unloaded);
        failures.push(...r.failures);
      }
    } finally {
      await server.stop();
    }
  }

  if (which === "all" || which === "e2e") {
    const bin = path.join(PROJECT_ROOT, "node_modules", "@playwright", "test", "cli.js");
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "pgbb-e2e-"));
    chmodSync(dataDir, 0o755); // the embedded Postgres runs as the postgres user and must enter it
    try {
      const json = path.join(tmp, "playwright.json");
      const code = await run(process.execPath, [bin, "test", ...process.argv.slice(3)], { ...env, E2E_DATA_DIR: dataDir, PW_JSON_OUTPUT: json });
      failed ||= code !== 0;
      const report = existsSync(json) ? JSON.parse(readFileSync(json, "utf8")) : {};
      const stats = report.stats ?? {};
      failures.push(...playwrightFailures(report));
      totals.passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
      totals.failed += stats.unexpected ?? 0;
      totals.skipped += stats.skipped ?? 0;
      if (code !== 0 && !stats.unexpected) totals.failed += 1; // e.g. the web server did not start
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }

  rmSync(tmp, { recursive: true, force: true });
  // A file that throws while loading counts as one failure, however many tests it holds: say so, so that a
  // low count is not mistaken for a small suite.
  if (unloaded.length)
    console.log(
      `\n${unloaded.length} test file(s) failed to load; their tests did not run and count as one failure each:\n${unloaded.map((f) => `  ${f}`).join("\n")}`,
    );
  if (failures.length)
    console.log(
      `\nfailed (each test's own report is above):\n${failures.map((f) => `  ${path.relative(PROJECT_ROOT, f.location)}  ${f.name}${f.error ? `\n      ${f.error}` : ""}`).join("\n")}`,
    );
  // One plain closing line over both runners, for people and CI alike.
  console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
