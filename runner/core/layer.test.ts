// The engine core is a layer: what runs under runner/core/ (pacing, the open loop, timing, the recorder, the
// target client, the footprint) knows no workload and nothing of the runner above it. Every import of every
// module under it is followed, transitively and of every kind (type-only ones too: a chain is a chain), and none
// may reach workloads/, lib/workloads/ or a runner/ module outside runner/core/. A failure names the chain.
import assert from "node:assert/strict";
import { test } from "node:test";
import { forbiddenChains, isTestFile, sourceFiles } from "../../lib/source-imports";

/** What the core may not reach, by any path: the workloads, their configs and registry, and the runner above it. */
const beyondTheCore = (file: string) =>
  file.startsWith("workloads/") || file.startsWith("lib/workloads/") || (file.startsWith("runner/") && !file.startsWith("runner/core/"));

const coreModules = () => sourceFiles("runner/core").filter((f) => !isTestFile(f));

test("nothing under runner/core/ imports, directly or through another module, a workload or the runner above it", () => {
  const modules = coreModules();
  assert.ok(modules.includes("runner/core/index.ts") && modules.length >= 10, `only ${modules.length} core modules found: is the walk broken?`);
  const chains = forbiddenChains(modules, beyondTheCore);
  assert.deepEqual(chains, [], `the core reaches beyond itself:\n  ${chains.join("\n  ")}`);
});

test("the same walk from the engine finds its way to the workloads, and names the chain", () => {
  // runner/engine.ts stands above the core and runs the workloads through their registry: the check must see it.
  const chains = forbiddenChains(["runner/engine.ts"], (f) => f.startsWith("workloads/"));
  assert.ok(
    chains.some((c) => /^runner\/engine\.ts( → \S+)* → workloads\/\S+\.ts$/.test(c)),
    `no chain from runner/engine.ts to workloads/ found:\n  ${chains.join("\n  ")}`,
  );
});
