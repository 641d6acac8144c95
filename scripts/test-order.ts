// The order `npm test` starts node test files in (scripts/test-run.ts).
import { statSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../lib/paths";

/**
 * Files known to take longest (tens of seconds each, measured in CI), longest first. The first four also build the
 * web app when .next is missing or stale (a fresh clone), which the others then wait for.
 */
export const SLOW_FIRST = [
  "scripts/start-lifecycle.test.ts",
  "scripts/faults.test.ts",
  "scripts/start.test.ts",
  "runner/parts/agents.test.ts",
  "runner/ceiling/ceiling.test.ts",
  "runner/ceiling/ceiling-paths.test.ts",
  "runner/ceiling/hog-ceiling.test.ts",
  "runner/telemetry/evidence-runs.test.ts",
  "runner/telemetry/hog-evidence-runs.test.ts",
  "runner/engine.test.ts",
  "runner/telemetry/pace-verdict.test.ts",
  "workloads/exercise/two-processes-1.test.ts",
  "workloads/exercise/two-processes-2.test.ts",
  "runner/telemetry/verdict-runs.test.ts",
  "runner/ceiling/cli.test.ts",
  "runner/telemetry/rate-verdict-runs.test.ts",
  "workloads/queued-workflows/runner.test.ts",
  "runner/telemetry/client-rule-runs.test.ts",
  "runner/ceiling/execute.test.ts",
  "lib/compare/ab.test.ts",
  "workloads/exercise/exercise-1.test.ts",
  "workloads/exercise/exercise-2.test.ts",
  "workloads/exercise/exercise-3.test.ts",
  "runner/long-run.test.ts",
];

/**
 * Real runs that judge a run's conclusions from its timing (the verdict's categories and their words, the ceiling
 * search, the A/B comparison, the live verdict): the product's own logic over real runs, through no code path that
 * differs between Node versions beyond those every other file runs.
 */
export const JUDGEMENT_RUNS = [
  "runner/ceiling/ceiling.test.ts",
  "runner/ceiling/ceiling-paths.test.ts",
  "runner/ceiling/hog-ceiling.test.ts",
  "runner/ceiling/cli.test.ts",
  "runner/ceiling/execute.test.ts",
  "lib/ceiling/step-words.test.ts",
  "lib/compare/ab.test.ts",
  "lib/compare/ab-flagged.test.ts",
  "lib/compare/ab-stats.test.ts",
  "lib/telemetry/live-groups.test.ts",
  "runner/telemetry/evidence-runs.test.ts",
  "runner/telemetry/pace-verdict.test.ts",
  "runner/telemetry/verdict-runs.test.ts",
  "runner/telemetry/rate-verdict-runs.test.ts",
  "runner/telemetry/client-rule-runs.test.ts",
  "runner/telemetry/missed-rate-words.test.ts",
  "runner/telemetry/think-verdict.test.ts",
  "runner/telemetry/causes-runs.test.ts",
  "runner/telemetry/headline-runs.test.ts",
  "runner/telemetry/replication-runs.test.ts",
  // The engine's notes on writers behind or above their schedule, and a runner that is the limit.
  "runner/telemetry/schedule-notes-runs.test.ts",
  // A gate's regression against a baseline, judged from two real runs' rates: beside Playwright, in a clean-clone CI
  // run, the run that must come within 10 % of its baseline was held at 12 of its 200 msg/s (host-bound, it said).
  "runner/cli-gate.test.ts",
];

/**
 * Real runs that judge whether the runner was starved of CPU or the target was the limit, run after every other file
 * and one at a time: the ceiling search beside six CPU hogs pinned with it (whose lower rates must not be starved) and
 * the causes a verdict names before the shared machine, and the replication stalls named before it. Beside the pass's
 * own load, which keeps both cores busy, they measured that load instead (the first two failed in a clean-clone CI run
 * of 22b6079, replication-runs in one of 05ce290, each passing alone); the hogs also took a core from every file
 * beside them. Their CPU moves out of the pass, so they cost little wall time of their own.
 */
export const RUN_ALONE = [
  "runner/ceiling/hog-ceiling.test.ts",
  "runner/telemetry/causes-runs.test.ts",
  "runner/telemetry/replication-runs.test.ts",
  // Its runs beside CPU hogs pinned with the runner: in a clean-clone CI run of e708340, beside the pass's load, the
  // other processes' CPU (76 % of the host) made the verdict host-bound where it judges the runner's own delay.
  "runner/telemetry/headline-runs.test.ts",
  // The verdict beside six CPU hogs pinned with the runner: in the judging lane, four files at a time, its hogs took a
  // core from the three beside it, whose runs judge their own conclusions.
  "runner/telemetry/hog-evidence-runs.test.ts",
];

/**
 * A workload's own semantics over real runs at length (its statements against the study's logs, its pacing, its
 * ledgers, its sweep) and the conformance suite every workload passes (workloads/exercise/: short runs in one
 * process and over 2 forked parts): SQL and JavaScript that run the same on every Node version, through the engine
 * that other files run for real on every pass (runner/engine.test.ts runs pub/sub, the queue and queued workflows;
 * runner/cli.test.ts the CLI's; runner/parts/ forks parts of real runs). The queue libraries' own file stays on the
 * floor pass: graphile-worker and pg-boss declare Node floors of their own.
 */
export const WORKLOAD_RUNS = [
  "workloads/exercise/exercise-1.test.ts",
  "workloads/exercise/exercise-2.test.ts",
  "workloads/exercise/exercise-3.test.ts",
  "workloads/exercise/two-processes-1.test.ts",
  "workloads/exercise/two-processes-2.test.ts",
  "workloads/queued-workflows/runner.test.ts",
  "workloads/queued-workflows/sweep.test.ts",
  "workloads/queued-workflows/sweep-mark.test.ts",
  "workloads/queued-workflows/statement-shape.test.ts",
  "workloads/dbos/statement-shape.test.ts",
  "workloads/notify/notify.test.ts",
  "workloads/pacing.test.ts",
  "workloads/part-ledgers.test.ts",
  "workloads/cache/runner.test.ts",
  "workloads/pubsub/ledger.test.ts",
  "workloads/runtime.test.ts",
  "workloads/fixture-workload.test.ts",
  "workloads/inserts/runner.test.ts",
  "workloads/jobqueue/runner.test.ts",
  "workloads/mixed/mixed.test.ts",
  "workloads/search/search.test.ts",
  "workloads/workflows/runner.test.ts",
];

/**
 * The workloads' own runs that judge this machine's pace (an open loop keeping its rate, a drain time under a second, a
 * delivery's latency): run after Playwright with the judging lane, never beside it. Beside it, in a clean-clone CI run
 * of 24d7d64, the cache's open loop reached 266 of its 370 ops/s and the inserts' drain took 2.3 s.
 */
export const PACED_WORKLOAD_RUNS = [
  "workloads/cache/runner.test.ts",
  "workloads/inserts/runner.test.ts",
  "workloads/notify/notify.test.ts",
  "workloads/queued-workflows/runner.test.ts",
  "workloads/search/search.test.ts",
  "workloads/workflows/runner.test.ts",
];

/**
 * Each fault and bloat phase carried out in a real run (runner/phases/): the queue and pg-boss, which other files run
 * for real on every pass (runner/engine.test.ts, workloads/job-library/job-library.test.ts), held, read and paused by
 * SQL and timers that run the same on every Node version. restart-runs restarts a private embedded cluster of its
 * own with pg_ctl (never the shared server, which its marker keeps from being restarted): it may run beside the others.
 */
export const PHASE_RUNS = [
  "runner/phases/phases-runs.test.ts",
  "runner/phases/fault-runs.test.ts",
  "runner/phases/restart-runs.test.ts",
  "runner/phases/reply-lost.test.ts",
];

/**
 * Runs over parts carried by another runner process, judged lost when its heartbeat is 5 s silent: beside Playwright
 * (both cores busy), clean-clone CI runs saw an agent miss it while nothing was wrong but the machine's load, failing
 * the run before the fault the test provokes. They run after Playwright, in the judging lane.
 */
export const HEARTBEAT_RUNS = ["runner/parts/agents.test.ts"];

/**
 * The product's own records and bookkeeping over a real database, in this process (no process started, no
 * socket of its own, no /proc): the control store's runs, targets and runners, run merges, sweeps and the
 * footprint left on a target. Prisma and node-postgres queries that run the same on every Node version, and that
 * the floor pass's app, CLI and parts tests exercise through the same modules.
 */
export const STORE_RUNS = [
  "components/run/processes.test.ts",
  "lib/bundle/bundle.test.ts",
  "lib/report/routes.test.ts",
  "lib/compare/published.test.ts",
  "lib/runs/labels.test.ts",
  "lib/runs/old-shape-run.test.ts",
  "lib/runs/recorder.test.ts",
  "lib/runs/runs-list.test.ts",
  "lib/status/runners.test.ts",
  "lib/targets/capacity.test.ts",
  "lib/targets/launch-race.test.ts",
  "lib/targets/launch.test.ts",
  "lib/targets/leak.test.ts",
  "lib/targets/refused-targets.test.ts",
  "lib/targets/store.test.ts",
  "runner/core/footprint.test.ts",
  "runner/merge-parts.test.ts",
  "runner/sweep.test.ts",
];

/**
 * Logic over values in this process: the product's words, verdicts, formats, schemas and parsers over fixtures and
 * built values, pages rendered to markup, and the checks that read the repository's own text (its docs' paths, its
 * import graph, its files' sizes). None starts a process, opens a socket or a database, reads the platform or
 * times anything, so nothing in them differs between Node versions; the floor pass's app, CLI, runner and parts
 * files load the same modules on Node 22. (Date formatting, which follows each Node's ICU, stays on both:
 * lib/runs/format.test.ts.) `npm test` loads them all into one process (scripts/logic-lane.ts), beside the others.
 */
export const LOGIC_ONLY = [
  "app/references/page.test.ts",
  "components/ceiling/outcome-words.test.ts",
  "components/report/report.test.ts",
  "components/report/sets-report.test.ts",
  "components/run-form/fields.test.ts",
  "components/run/ab-view.test.ts",
  "components/run/ladder-view.test.ts",
  "components/run/run-result.test.ts",
  "components/telemetry/replication-card.test.ts",
  "deploy/deploy.test.ts",
  "lib/api/request-guard.test.ts",
  "lib/browser-boundary.test.ts",
  "lib/ceiling/interval.test.ts",
  "lib/ceiling/rate.test.ts",
  "lib/ceiling/search.test.ts",
  "lib/ceiling/settings.test.ts",
  "lib/ceiling/verdict.test.ts",
  "lib/compare/sustained.test.ts",
  "components/compare/results-table.test.ts",
  "components/telemetry/table-size-card.test.ts",
  "lib/phases/fit.test.ts",
  "lib/phases/report.test.ts",
  "lib/phases/shape.test.ts",
  "lib/runs/outbox.test.ts",
  "lib/workloads/long-run.test.ts",
  "runner/cli-args.test.ts",
  "lib/compare/ab-progress.test.ts",
  "lib/compare/compare.test.ts",
  "lib/compare/over-time.test.ts",
  "lib/csv.test.ts",
  "lib/gate/gate.test.ts",
  "lib/import-cycles.test.ts",
  "lib/imports/parse.test.ts",
  "lib/ladder/ladder.test.ts",
  "lib/measurement/hdr-export.test.ts",
  "lib/measurement/histogram.test.ts",
  "lib/measurement/parts.test.ts",
  "lib/measurement/runner-load.test.ts",
  "lib/measurement/server-settings.test.ts",
  "lib/measurement/verification.test.ts",
  "lib/plurals.test.ts",
  "lib/references/references.test.ts",
  "lib/runs/cli-command.test.ts",
  "lib/runs/samples-csv.test.ts",
  "lib/source-imports.test.ts",
  "lib/source-size.test.ts",
  "lib/targets/replicated.test.ts",
  "lib/telemetry/autovacuum-cpu.test.ts",
  "lib/telemetry/effect-cpu-words.test.ts",
  "lib/telemetry/evidence.test.ts",
  "lib/telemetry/pace.test.ts",
  "lib/telemetry/replication.test.ts",
  "lib/telemetry/report.test.ts",
  "lib/telemetry/stall-words.test.ts",
  "lib/telemetry/verdict.test.ts",
  "lib/words.test.ts",
  "lib/workloads/config.test.ts",
  "lib/workloads/memory.test.ts",
  "lib/workloads/parts-budget.test.ts",
  "lib/workloads/parts.test.ts",
  "runner/core/layer.test.ts",
  "runner/core/pg/protocol.test.ts",
  "runner/format.test.ts",
  "runner/function-length.test.ts",
  "runner/load-timeline.test.ts",
  "runner/telemetry/waits.test.ts",
  "scripts/doc-paths.test.ts",
  "scripts/readme.test.ts",
  "workloads/boundary.test.ts",
  "workloads/config-types.test.ts",
  "workloads/dbos/published.test.ts",
  "workloads/dbos/uuid7.test.ts",
  "workloads/parts.test.ts",
  "workloads/queued-workflows/definition.test.ts",
  "workloads/queued-workflows/doubts.test.ts",
  "workloads/notify/gaps.test.ts",
  "workloads/job-library/ledger.test.ts",
  "workloads/registry.test.ts",
  "workloads/workflows/doubts.test.ts",
];

/**
 * The product's reactions to the faults these files provoke at length: a process killed, frozen or interrupted (the
 * app's start and its supervisor, the CLI's Ctrl-C, a runner agent or a part gone), a target that stops answering or
 * restarts, a replicated cluster's node lost. Each waits out timeouts and grace periods by design (together some
 * 460 of the floor pass's 1,100 s of file time, measured in a clean-clone CI run of 85f7f97). They call the same
 * child_process, signal and socket APIs that the floor pass's own start, CLI, runner, parts and replicated files call
 * in their normal course; what they judge is the product's logic and the operating system's behaviour. And `npm …`
 * runs every script on the project's Node 24 (platform/node-version.ts), so Node 22 runs them only for one who
 * starts a script with the machine's own Node.
 */
export const FLOOR_FAULTS = [
  "scripts/faults.test.ts",
  "scripts/start-lifecycle.test.ts",
  "runner/parts/agents.test.ts",
  "runner/parts/parts-failures.test.ts",
  "runner/unresponsive-target.test.ts",
  "runner/ctrl-c.test.ts",
  "runner/cli-replicated.test.ts",
  "runner/replicated-runner.test.ts",
];

/**
 * The CLI's features over its entry (HTML reports, the synchronous commit ladder, comparisons, bundles; its gates are
 * judgement runs): each starts the CLI that runner/cli.test.ts starts on every pass, then reads and writes files and
 * prints words, the same on every Node version (together some 160 s of the floor pass's 650 s of file time, measured
 * here).
 */
export const CLI_FEATURES = ["runner/cli-html.test.ts", "runner/cli-ladder.test.ts", "runner/compare-cli.test.ts", "runner/bundle-cli.test.ts"];

/**
 * What CI's pass on the product's Node floor (22, `.ci/run`, TEST_FLOOR_PASS=1) leaves out: `npm test` on the
 * product's own Node (24) runs every file, and the floor pass runs the rest, every file that starts a process,
 * serves the app, forks parts, reads the platform or runs a workload not run elsewhere, in its normal course. Both
 * passes on both cores' worth of real runs took CI over 15 minutes; this is the half of the second pass that tested
 * nothing the first did not, and the faults provoked at length (FLOOR_FAULTS).
 */
export const FLOOR_LEAVES_OUT = [...JUDGEMENT_RUNS, ...WORKLOAD_RUNS, ...PHASE_RUNS, ...STORE_RUNS, ...LOGIC_ONLY, ...FLOOR_FAULTS, ...CLI_FEATURES];

/**
 * The order the files are handed to node's runner in: known-slow files first, then the rest by size, largest first.
 * `node --test` sorts the files it is given by path and starts them in that order (measured on Node 22 and 24), so
 * this order does not reach it today; keeping it with node:test's run() started the heaviest files (the app build,
 * the ceiling searches, the replication runs) four at once and turned two judgement runs that read the host's load,
 * so it was reverted (4c20c00). The lists stay the record of which files are slow.
 */
export function longestFirst(files: string[]): string[] {
  const rank = (f: string) => {
    const i = SLOW_FIRST.indexOf(f);
    return i === -1 ? SLOW_FIRST.length : i;
  };
  const size = new Map(files.map((f) => [f, statSync(path.join(PROJECT_ROOT, f)).size]));
  return [...files].sort((a, b) => rank(a) - rank(b) || size.get(b)! - size.get(a)! || a.localeCompare(b));
}
