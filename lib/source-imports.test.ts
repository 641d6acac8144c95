// The import reader the layer tests share (./source-imports.ts): every spelling of an import, and the walk that
// follows them and names the chain to a forbidden module.
import assert from "node:assert/strict";
import { test } from "node:test";
import { forbiddenChains, moduleOf, pathLiterals, resolveFile, type SourceTree, specifiersOf } from "./source-imports";

test("the scanner sees every spelling of an import", () => {
  const src = `
    import { a } from "../../runner/timing";
    import type { B } from '@/runner/stats';
    export { c } from "../runner/pg/pgclient.ts";
    import "../runner/side-effect";
    const d = await import("../runner/format");
    const e = require("../runner/engine");
    const f = await import(name);
    // import { g } from "../runner/commented-out"; a path such as pubsub/*.go in a comment
    import { h } from "../runner/after-the-comment"; /* import "../runner/in-a-block" */
  `;
  assert.deepEqual(specifiersOf(src), [
    "../../runner/timing",
    "@/runner/stats",
    "../runner/pg/pgclient.ts",
    "../runner/after-the-comment",
    "../runner/side-effect",
    "../runner/format",
    "../runner/engine",
    "<computed: name>",
  ]);
  assert.deepEqual(pathLiterals('const spec = "../../runner/engine"; const ok = "not/a/path";'), ["../../runner/engine"]);
  assert.equal(moduleOf("workloads/x/runner.ts", "@/runner/core/index.ts"), "runner/core");
  assert.equal(moduleOf("workloads/x/runner.ts", "../../runner/core"), "runner/core");
});

/** A tree in memory: project path → source. */
const treeOf = (files: Record<string, string>): SourceTree => ({ read: (f) => files[f], isFile: (f) => f in files });

test("the walk follows every kind of import to a forbidden module and names the whole chain", () => {
  const tree = treeOf({
    "core/a.ts": 'import type { T } from "./b";\nimport { clean } from "./clean";',
    "core/b.ts": 'export { c } from "@/lib/c";',
    "core/clean.ts": 'import pg from "pg";\nexport const clean = 1;',
    "lib/c.ts": 'export const c = () => require("../app/d.ts");',
    "app/d.ts": 'export const d = import("./e");',
    "app/e.ts": 'import "../workloads/w";',
    "workloads/w.ts": 'import "../core/a";',
  });
  const forbidden = (f: string) => f.startsWith("workloads/");
  assert.deepEqual(forbiddenChains(["core/a.ts"], forbidden, tree), ["core/a.ts → core/b.ts → lib/c.ts → app/d.ts → app/e.ts → workloads/w.ts"]);
  assert.deepEqual(forbiddenChains(["core/clean.ts"], forbidden, tree), [], "a package is not followed, and a clean module passes");
  const computed = treeOf({ "core/x.ts": "const m = await import(name);" });
  assert.deepEqual(forbiddenChains(["core/x.ts"], forbidden, computed), ["core/x.ts: <computed: name> cannot be followed"]);
});

test("a specifier resolves to the file it names: extension, index, the @/ alias; a package or data file to nothing", () => {
  const tree = treeOf({ "runner/core/index.ts": "", "runner/core/timing.ts": "", "lib/x.tsx": "", "lib/data.json": "" });
  assert.equal(resolveFile("workloads/q/runner.ts", "../../runner/core", tree), "runner/core/index.ts");
  assert.equal(resolveFile("runner/core/pacing.ts", "./timing", tree), "runner/core/timing.ts");
  assert.equal(resolveFile("app/page.tsx", "@/lib/x", tree), "lib/x.tsx");
  assert.equal(resolveFile("lib/y.ts", "./data.json", tree), null);
  assert.equal(resolveFile("lib/y.ts", "pg", tree), null);
});
