// The boundary between the engine and the workloads, read from the source: workload code reaches runner/ only
// through the engine core's public entry (runner/core), and runner/ reaches workloads/ only through the
// registries and the workload-agnostic contract. Every import spelling counts: relative, "@/" alias,
// export-from, side-effect, dynamic import() and require().
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { PROJECT_ROOT } from "../lib/paths";
import { isTestFile, moduleOf, pathLiterals, sourceFiles, specifiersOf, withoutComments } from "../lib/source-imports";

/** What workload code may import from runner/. */
const CORE = ["runner/core"];
/** What a workload's tests may import besides: the engine, the CLI's parser and texts they drive from above. */
const HARNESS = ["runner/harness"];
/** What runner/ may import from workloads/: the two registries and the contract every workload shares. */
const RUNNER_MAY_REACH = ["workloads/index", "workloads/runners", "workloads/types", "workloads/runtime"];

/**
 * A computed import of a file in a subfolder of the importing file's own folder, by a fixed name (workloads/runners.ts
 * finding a workload in its folder: `./${kind}/runner.ts`): whatever it loads is a file of workloads/, checked here
 * itself. Any other computed import cannot be checked, and is refused.
 */
const inOwnSubfolder = (spec: string) => /^<computed: `\.\/\$\{\w+\}\/[\w-]+\.ts`>$/.test(spec);

/** Violations as "file: import", for one direction of the boundary. */
function violations(dir: string, other: string, allowed: (file: string) => string[]): string[] {
  const out: string[] = [];
  for (const file of sourceFiles(dir)) {
    const src = readFileSync(path.join(PROJECT_ROOT, file), "utf8");
    for (const spec of new Set([...specifiersOf(src), ...pathLiterals(src)])) {
      if (spec.startsWith("<computed")) {
        if (file.startsWith("workloads/") && !inOwnSubfolder(spec)) out.push(`${file}: ${spec} (a computed import cannot be checked: use a string literal)`);
        continue;
      }
      const target = moduleOf(file, spec);
      if (target && (target === other || target.startsWith(`${other}/`)) && !allowed(file).includes(target)) out.push(`${file}: "${spec}"`);
    }
  }
  return out;
}

test("workload code imports runner/ only through the engine core's entry (runner/core)", () => {
  const found = violations("workloads", "runner", (f) => (isTestFile(f) ? [...CORE, ...HARNESS] : CORE));
  assert.deepEqual(found, [], `workloads/ reaches runner/ around its core entry:\n  ${found.join("\n  ")}`);
});

test("runner/ reaches workloads/ only through the registries and the shared contract", () => {
  const found = violations("runner", "workloads", () => RUNNER_MAY_REACH);
  assert.deepEqual(found, [], `runner/ reaches into a workload:\n  ${found.join("\n  ")}`);
});

/** What only the engine core's pacers may do (runner/core/pacing.ts): wait for a due time, take one from a
 *  timetable, time an item from its schedule. A workload supplies operations; it does not pace them. */
const PACING_CALLS: [RegExp, string][] = [
  [/\bsleepUntil\b/, "sleeps until a due time (sleepUntil)"],
  [/\bThrottle\b/, "holds a throttle or timetable of its own (Throttle)"],
  [/\b(?:throttle|timetable)\s*\.\s*next\s*\(/i, "takes due times from a timetable (throttle.next)"],
  [/\brecordScheduled\b/, "records latency from the schedule itself (recordScheduled)"],
  [/\bwriterLagMs\b/, "computes a writer's lag behind its share (writerLagMs)"],
  // The recorder times an operation from its send to its answer (runner/core/operation.ts Operation.send, answered,
  // timed); a workload marks those points and times only a delivery it alone sees (Operation.span).
  [/\.\s*latency\s*\.\s*record\s*\(/, "records a latency it timed itself (latency.record: mark send and answer instead)"],
  [/\bslot\s*\.\s*answered\s*\(/, "reports an item to the pacer itself (slot.answered: give the slot to Operation.answered)"],
];

test("no workload paces its own load: waiting for due times and timing from them is the core's (runner/core/pacing.ts)", () => {
  const found: string[] = [];
  for (const file of sourceFiles("workloads").filter((f) => !isTestFile(f))) {
    const code = withoutComments(readFileSync(path.join(PROJECT_ROOT, file), "utf8"));
    for (const [re, what] of PACING_CALLS) if (re.test(code)) found.push(`${file}: ${what}`);
  }
  assert.deepEqual(found, [], `workloads that pace their own load:\n  ${found.join("\n  ")}`);
});

/** Where a config's kind is told from its field names instead of its workload's declaration: `"payloadBytes" in
 *  config` (or `cfg`, `c`, `s.config`, `summary.config`, …) naming a field some workload declares. */
export function fieldGuesses(src: string, fieldNames: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const m of withoutComments(src).matchAll(/(["'])(\w+)\1\s+in\s+([\w$]+(?:[?!]?\.[\w$]+)*)/g)) {
    const last = m[3].split(".").pop()!.replace(/[?!]$/, "");
    if (fieldNames.has(m[2]) && /^(c|cfg|config|\w*Config)$/.test(last)) out.push(m[0]);
  }
  return out;
}

test("outside workloads/, no code tells a workload by its config's field names (it reads the definition's declarations)", async () => {
  const { workloadDefinitions } = await import("./index");
  const names = new Set(workloadDefinitions().flatMap((d) => d.fields.map((f) => f.name)));
  assert.deepEqual(
    fieldGuesses(
      `const a = "payloadBytes" in config; const b = "backoff" in s.config; const d = "stop" in next; const e = "writers" in summary?.config;`,
      names,
    ),
    ['"payloadBytes" in config', '"backoff" in s.config', '"writers" in summary?.config'],
  );
  const found = ["app", "components", "lib", "runner", "scripts", "platform"]
    .flatMap((dir) => sourceFiles(dir))
    .flatMap((file) => fieldGuesses(readFileSync(path.join(PROJECT_ROOT, file), "utf8"), names).map((g) => `${file}: ${g}`));
  assert.deepEqual(found, [], `guesses by field name (declare it on the workload's definition instead):\n  ${found.join("\n  ")}`);
});
