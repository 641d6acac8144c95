// `npm test`: unit and integration tests (node's test runner, real embedded Postgres) and Playwright, in lanes (runLanes).
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
import { FLOOR_LEAVES_OUT, HEARTBEAT_RUNS, JUDGEMENT_RUNS, LOGIC_ONLY, longestFirst, PACED_WORKLOAD_RUNS, PHASE_RUNS, RUN_ALONE } from "./test-order";

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

/** The machine's CPU time so far, busy and idle, summed over its cores (ms). */
function cpuTimes(): { busy: number; idle: number } {
  let busy = 0;
  let idle = 0;
  for (const { times: t } of os.cpus()) {
    busy += t.user + t.nice + t.sys + t.irq;
    idle += t.idle;
  }
  return { busy, idle };
}

/**
 * How long a stage of the pass took and how busy the machine was meanwhile, as "(412 s; 1.7 of 2 cores busy)": what
 * tells a stage that waits (room beside it) from one the cores bound (CI's 15 minutes are spent on 2 cores).
 */
function stageTimer(): () => string {
  const t0 = Date.now();
  const c0 = cpuTimes();
  return () => {
    const c = cpuTimes();
    const busy = c.busy - c0.busy;
    const all = busy + c.idle - c0.idle;
    const cores = os.cpus().length;
    return `(${Math.round((Date.now() - t0) / 1000)} s; ${all > 0 ? ((busy / all) * cores).toFixed(1) : "?"} of ${cores} cores busy)`;
  };
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

/** What one lane (or Playwright) reports: its exit code, its totals, the files that did not load and its failed tests. */
interface LaneResult {
  code: number;
  totals: { passed: number; failed: number; skipped: number };
  unloaded: string[];
  failures: FailedTest[];
}

/** One `node --test` over a lane's files: its exit code, its totals and the files that did not load. */
async function nodeTests(lane: Lane, tap: string, env: NodeJS.ProcessEnv): Promise<LaneResult> {
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
      // Node's runner warns of 11 "end" listeners on its own stream of test events (TestsStream) with these reporters
      // over a lane's files: its bookkeeping, not a leak in a test, which the warning in the log would seem to name.
      "--disable-warning=MaxListenersExceededWarning",
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
 * The chosen node test files in their lanes (scripts/test-order.ts), in order:
 * - the files of logic only, in one process (a process each loaded their modules again, about 37 of their 53 s of
 *   CPU measured here), first and on their own (some 15 s of one core: beside the others their burst of CPU was the
 *   load a judgement run read as the host's); their report follows the others';
 * - in `npm test`, Playwright's specs that watch a run while it is live (playwright.config.ts WATCHES_LIVE, with the
 *   ones that count every stored run), with no node file beside them: beside the others, a page drew its samples up to
 *   20 s late on a CI machine's 2 busy cores and saw its run live only once it had ended;
 * - the others, `concurrency` at a time (one fewer beside Playwright), with Playwright's other specs (in `npm test`) running meanwhile: most files
 *   wait on a run's clock, not on the CPU (a pass of them kept about 1.2 of 2 cores busy, Playwright about 0.7);
 * - the real runs that judge a run's conclusions (JUDGEMENT_RUNS), a phase's recovery (PHASE_RUNS) or a workload's
 *   pace (PACED_WORKLOAD_RUNS), after Playwright: they run beside other node files, at the load they have been checked at, never beside Playwright's as
 *   well (beside both, in a clean-clone CI run of 859ea72, three phase runs were not back at their rate within the
 *   seconds after the phase);
 * - the files that judge whether the runner was starved, one at a time: beside any other load they would measure
 *   it, not what they provoke (RUN_ALONE).
 */
async function runLanes(chosen: string[], tmp: string, env: NodeJS.ProcessEnv, e2e?: (stage: E2eStage) => Promise<LaneResult>): Promise<LaneResult[]> {
  const beside = e2e && (() => e2e("rest"));
  const judged = [...JUDGEMENT_RUNS, ...PHASE_RUNS, ...PACED_WORKLOAD_RUNS, ...HEARTBEAT_RUNS];
  const judging = beside ? chosen.filter((f) => judged.includes(f) && !RUN_ALONE.includes(f)) : [];
  const logic: Lane = { files: chosen.filter((f) => LOGIC_ONLY.includes(f)), concurrency: 1, oneProcess: true, outFile: path.join(tmp, "logic.txt") };
  const others: Lane = {
    files: longestFirst(chosen.filter((f) => !RUN_ALONE.includes(f) && !LOGIC_ONLY.includes(f) && !judging.includes(f))),
    // Beside Playwright one file fewer at a time: at four, a clean-clone CI run held a load average near 10 on 2 cores
    // and a forked part's heartbeat missed its 5 s (TEST_CONCURRENCY still sets it).
    concurrency: beside && !process.env.TEST_CONCURRENCY ? Math.max(2, testConcurrency() - 1) : testConcurrency(),
  };
  const judgement: Lane = { files: longestFirst(judging), concurrency: testConcurrency() };
  const alone: Lane = { files: chosen.filter((f) => RUN_ALONE.includes(f)), concurrency: 1 };
  const ran = async (lane: Lane, i: number) => (lane.files.length ? nodeTests(lane, path.join(tmp, `node-${i}.tap`), env) : undefined);
  const stages: string[] = [];
  const staged = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const took = stageTimer();
    const r = await work();
    stages.push(`  ${name} ${took()}`);
    return r;
  };
  const r1 = await staged("logic only", () => ran(logic, 1));
  const rl = e2e && (await staged("Playwright's specs that watch runs live, with no node file beside them", () => e2e("live")));
  const [r0, rb] = await staged(beside ? "the others, beside Playwright" : "the others", () => Promise.all([ran(others, 0), beside?.()]));
  if (r1) console.log(`\nlogic only, in one process (scripts/test-order.ts LOGIC_ONLY):\n${readFileSync(logic.outFile!, "utf8")}`);
  if (judgement.files.length)
    console.log(
      `\nthe runs that judge a run's conclusions, a phase's recovery, a workload's pace or a part's heartbeat, after Playwright (scripts/test-order.ts JUDGEMENT_RUNS, PHASE_RUNS, PACED_WORKLOAD_RUNS, HEARTBEAT_RUNS):`,
    );
  const r3 = await staged("the judging runs", () => ran(judgement, 3));
  if (alone.files.length) console.log(`\nrun alone, one at a time (scripts/test-order.ts RUN_ALONE): ${alone.files.join(", ")}`);
  const r2 = await staged("run alone", () => ran(alone, 2));
  console.log(`\nthe pass's stages, in order:\n${stages.join("\n")}`);
  return [r0, r1, rl, rb, r3, r2].filter((r) => r !== undefined);
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
          // Its first lines (what was expected, what was received, how long it waited): the closing list is often all of a
          // CI log that is kept.
          error: error
            .replace(/\u001b\[[0-9;]*m/g, "")
            .split("\n")
            .map((l) => l.trim())
            .filter(Boolean)
            .slice(0, 6)
            .join("\n      "),
        });
      }
    for (const child of s.suites ?? []) walk(child);
  };
  for (const s of (report.suites ?? []) as Suite[]) walk(s);
  return out;
}

/** Which of Playwright's specs a run of it takes (playwright.config.ts E2E_STAGE): unset, every one. */
type E2eStage = "live" | "rest";

/**
 * Playwright's specs against the real app (playwright.config.ts) on a fresh data folder, all or those of `stage`. With
 * `outFile` its report is written there and shown once it ends (beside the node tests in `npm test`).
 */
async function playwright(args: string[], tmp: string, env: NodeJS.ProcessEnv, stage?: E2eStage, outFile?: string): Promise<LaneResult> {
  const bin = path.join(PROJECT_ROOT, "node_modules", "@playwright", "test", "cli.js");
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "pgbb-e2e-"));
  chmodSync(dataDir, 0o755); // the embedded Postgres runs as the postgres user and must enter it
  try {
    const json = path.join(tmp, `playwright-${stage ?? "all"}.json`);
    const stageEnv = stage ? { E2E_STAGE: stage } : {};
    const code = await run(process.execPath, [bin, "test", ...args], { ...env, ...stageEnv, E2E_DATA_DIR: dataDir, PW_JSON_OUTPUT: json }, outFile);
    if (outFile) console.log(`\nPlaywright (beside the node tests):\n${readFileSync(outFile, "utf8")}`);
    const report = existsSync(json) ? JSON.parse(readFileSync(json, "utf8")) : {};
    const stats = report.stats ?? {};
    const totals = { passed: (stats.expected ?? 0) + (stats.flaky ?? 0), failed: stats.unexpected ?? 0, skipped: stats.skipped ?? 0 };
    if (code !== 0 && !stats.unexpected) totals.failed += 1; // e.g. the web server did not start
    return { code, totals, unloaded: [], failures: playwrightFailures(report) };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const which = process.argv[2] ?? "all";
  const results: LaneResult[] = [];
  const tmp = mkdtempSync(path.join(os.tmpdir(), "pgbb-test-run-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    // V8's compiled code kept on disk (keyed by each file's content and the Node version): the ~140 test files, and
    // the CLIs, runners and parts they start, each load some hundred modules, and compiling them again in every
    // process cost about a quarter of each one's start-up CPU on a pass that has both cores busy throughout.
    NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? path.join(PROJECT_ROOT, "node_modules", ".cache", "node-compile-cache"),
  };
  // In `npm test` Playwright runs in two stages, its live-watching specs first and the rest beside the node files that do
  // not judge (runLanes); `e2e` runs every spec at once.
  const e2eStage = (stage: E2eStage) => playwright([], tmp, env, stage, stage === "rest" ? path.join(tmp, "playwright.txt") : undefined);

  if (which === "all" || which === "unit") {
    const files = TEST_DIRS.flatMap((d) => findTests(path.join(PROJECT_ROOT, d))).sort();
    // Marked as npm test's shared server: a restart-target phase refuses it, naming it (platform/cluster-restart.ts).
    const server = await startTestServer([], "shared-test");
    try {
      console.log(`node tests: ${files.length} files, Postgres ${server.url("postgres").replace(/:[^:@/]+@/, ":****@")}`);
      const only = which === "unit" ? process.argv.slice(3) : [];
      const floorPass = process.env.TEST_FLOOR_PASS === "1";
      const chosen = (only.length ? files.filter((f) => only.some((o) => f.includes(o))) : files).filter((f) => !floorPass || !FLOOR_LEAVES_OUT.includes(f));
      if (floorPass) console.log(`left out (TEST_FLOOR_PASS=1; run on the other pass): ${FLOOR_LEAVES_OUT.join(", ")}`);
      results.push(...(await runLanes(chosen, tmp, { ...env, TEST_PG_URL: server.url("postgres") }, which === "all" ? e2eStage : undefined)));
    } finally {
      await server.stop();
    }
  }
  if (which === "e2e") results.push(await playwright(process.argv.slice(3), tmp, env));

  rmSync(tmp, { recursive: true, force: true });
  const failed = results.some((r) => r.code !== 0);
  const totals = { passed: 0, failed: 0, skipped: 0 };
  for (const r of results) for (const k of ["passed", "failed", "skipped"] as const) totals[k] += r.totals[k];
  const unloaded = results.flatMap((r) => r.unloaded);
  const failures = results.flatMap((r) => r.failures);
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
