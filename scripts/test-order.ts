// The order `npm test` starts node test files in (scripts/test-run.ts).
import { statSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../lib/paths";

/**
 * Files known to take longest (tens of seconds each, measured in CI), longest first. The first three also build the
 * web app when .next is missing or stale (a fresh clone), which the others then wait for.
 */
export const SLOW_FIRST = [
  "scripts/start-lifecycle.test.ts",
  "scripts/faults.test.ts",
  "scripts/start.test.ts",
  "runner/ceiling/ceiling.test.ts",
  "runner/telemetry/evidence-runs.test.ts",
  "runner/engine.test.ts",
  "runner/telemetry/pace-verdict.test.ts",
  "lib/ceiling/batch.test.ts",
  "runner/telemetry/verdict-runs.test.ts",
  "runner/ceiling/cli.test.ts",
  "runner/telemetry/rate-verdict-runs.test.ts",
  "workloads/queued-workflows/runner.test.ts",
  "runner/telemetry/client-rule-runs.test.ts",
  "runner/ceiling/execute.test.ts",
  "lib/compare/ab.test.ts",
];

/**
 * Real runs that judge a run's conclusions from its timing (the verdict's categories, the ceiling search): the
 * engine's logic, through no code path that differs between Node versions beyond those every other file runs. CI
 * (`.ci/run`) runs them on the product's Node (24) and leaves them out of its second pass on the floor (Node 22,
 * TEST_SKIP_JUDGEMENT_RUNS=1), which keeps CI under 15 minutes; `npm test` runs them wherever it runs.
 */
export const JUDGEMENT_RUNS = [
  "runner/ceiling/ceiling.test.ts",
  "runner/ceiling/cli.test.ts",
  "runner/ceiling/execute.test.ts",
  "lib/ceiling/batch.test.ts",
  "runner/telemetry/evidence-runs.test.ts",
  "runner/telemetry/pace-verdict.test.ts",
  "runner/telemetry/verdict-runs.test.ts",
  "runner/telemetry/rate-verdict-runs.test.ts",
  "runner/telemetry/client-rule-runs.test.ts",
];

/**
 * The order files start in: node's runner starts them in the order given, so the longest go first and the pass
 * ends on many short files rather than on one long file started last (alphabetical order left the slowest,
 * under scripts/, to the end). Known-slow files lead, then the rest by size, largest first.
 */
export function longestFirst(files: string[]): string[] {
  const rank = (f: string) => {
    const i = SLOW_FIRST.indexOf(f);
    return i === -1 ? SLOW_FIRST.length : i;
  };
  const size = new Map(files.map((f) => [f, statSync(path.join(PROJECT_ROOT, f)).size]));
  return [...files].sort((a, b) => rank(a) - rank(b) || size.get(b)! - size.get(a)! || a.localeCompare(b));
}
