// A workload is its folder plus its registry entry: every folder with a definition.ts or a runner.ts has all three
// of definition.ts, runner.ts and testing.ts (its hooks for the conformance suite, workloads/exercise/), and its
// definition is listed in workloads/index.ts under its folder's name, where workloads/runners.ts finds its runner
// and hooks; the test workloads (fixtures/workloads/) likewise, one line each in fixtures/workloads/index.ts.
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fixtureRegistrations } from "../fixtures/workloads/load";
import { PROJECT_ROOT } from "../lib/paths";
import { builtInKinds, workloadDefinitions } from "./index";
import { workloadEntry } from "./runners";

const FILES = ["definition.ts", "runner.ts", "testing.ts"];

/** Folders of `dir` holding a workload's definition or runner, with the files of FILES each lacks. */
function workloadFolders(dir: string): { name: string; missing: string[] }[] {
  return readdirSync(path.join(PROJECT_ROOT, dir), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => ({ name: e.name, has: FILES.filter((f) => existsSync(path.join(PROJECT_ROOT, dir, e.name, f))) }))
    .filter((f) => f.has.includes("definition.ts") || f.has.includes("runner.ts"))
    .map((f) => ({ name: f.name, missing: FILES.filter((x) => !f.has.includes(x)) }));
}

test("every workload folder has its definition, its runner and its test hooks, and its entry in workloads/index.ts", async () => {
  const defined = new Set(workloadDefinitions().map((d) => d.kind));
  const problems: string[] = [];
  const folders = workloadFolders("workloads");
  for (const { name, missing } of folders) {
    for (const file of missing) problems.push(`workloads/${name}: no ${file}`);
    if (!defined.has(name)) problems.push(`workloads/${name}: its definition is not listed in workloads/index.ts`);
    // Its runner is found in its folder by its kind: runner.ts must export the module of that kind.
    if (defined.has(name) && !missing.includes("runner.ts")) await workloadEntry(name).catch((e: Error) => problems.push(`workloads/${name}: ${e.message}`));
  }
  for (const kind of defined) if (!folders.some((f) => f.name === kind)) problems.push(`workload ${kind}: registered, but no folder workloads/${kind}`);
  assert.deepEqual(problems, []);
});

test("every registered workload's hooks load, declaring which faults its verification promises to catch", async () => {
  for (const kind of builtInKinds()) {
    const entry = await workloadEntry(kind);
    assert.ok(entry, `${kind}: no runner found in workloads/${kind}/`);
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
