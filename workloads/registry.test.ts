// A workload is its folder plus its registry lines: every folder with a definition.ts or a runner.ts has all
// three of definition.ts, runner.ts and testing.ts (its hooks for the conformance suite, workloads/exercise/) and
// is listed in both registries (workloads/index.ts for the browser-safe definitions, workloads/runners.ts for
// the runner and its hooks), under its folder's name; the test workloads (fixtures/workloads/) likewise in theirs.
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fixtureRegistrations } from "../fixtures/workloads/load";
import { PROJECT_ROOT } from "../lib/paths";
import { workloadDefinitions } from "./index";
import { WORKLOADS } from "./runners";

const FILES = ["definition.ts", "runner.ts", "testing.ts"];

/** Folders of `dir` holding a workload's definition or runner, with the files of FILES each lacks. */
function workloadFolders(dir: string): { name: string; missing: string[] }[] {
  return readdirSync(path.join(PROJECT_ROOT, dir), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => ({ name: e.name, has: FILES.filter((f) => existsSync(path.join(PROJECT_ROOT, dir, e.name, f))) }))
    .filter((f) => f.has.includes("definition.ts") || f.has.includes("runner.ts"))
    .map((f) => ({ name: f.name, missing: FILES.filter((x) => !f.has.includes(x)) }));
}

test("every workload folder has its definition, its runner and its test hooks, and is in both registries", () => {
  const defined = new Set(workloadDefinitions().map((d) => d.kind));
  const problems: string[] = [];
  const folders = workloadFolders("workloads");
  for (const { name, missing } of folders) {
    for (const file of missing) problems.push(`workloads/${name}: no ${file}`);
    if (!defined.has(name)) problems.push(`workloads/${name}: its definition is not listed in workloads/index.ts`);
    if (!(name in WORKLOADS)) problems.push(`workloads/${name}: its runner is not listed in workloads/runners.ts`);
  }
  for (const kind of defined) if (!folders.some((f) => f.name === kind)) problems.push(`workload ${kind}: registered, but no folder workloads/${kind}`);
  assert.deepEqual(problems, []);
});

test("every registered workload's hooks load, declaring which faults its verification promises to catch", async () => {
  for (const [kind, entry] of Object.entries(WORKLOADS)) {
    const { hooks } = await entry.testing();
    assert.equal(typeof hooks?.faults, "object", `workloads/${kind}/testing.ts exports no hooks with its faults`);
  }
});

test("every test workload folder has its definition, runner and hooks, and one line in fixtures/workloads/index.ts", () => {
  const registered = fixtureRegistrations().map((r) => r.definition.kind);
  const problems: string[] = [];
  for (const { name, missing } of workloadFolders("fixtures/workloads")) {
    for (const file of missing) problems.push(`fixtures/workloads/${name}: no ${file}`);
    if (!registered.includes(name)) problems.push(`fixtures/workloads/${name}: not listed in fixtures/workloads/index.ts`);
  }
  assert.deepEqual(problems, []);
});
