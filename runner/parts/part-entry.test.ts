// A forked part runs the bundle (./part-entry.ts), never its sources under tsx unless the bundle cannot be had: a
// change that stops the part's code from bundling (an import.meta the bundle cannot keep, a warning) is caught here,
// not found later as slower runs. The runs over parts (parts-runs, parts-failures, agents) run the bundle for real.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { PROJECT_ROOT } from "../../lib/paths";
import { forkPart, PART_MAIN, partEntry } from "./part-entry";

test("parts run one bundled file, built once per process under node_modules/.cache, without tsx", async () => {
  const e = await partEntry();
  assert.equal(e.fallback, undefined, `the part's code did not bundle: ${e.fallback}`);
  assert.equal(path.dirname(e.file), path.join(PROJECT_ROOT, "node_modules", ".cache", "pgbb-parts"));
  assert.match(path.basename(e.file), /^part-main-[0-9a-f]{16}\.cjs$/);
  assert.ok(!e.execArgv.includes("tsx"), `no tsx: ${e.execArgv.join(" ")}`);
  assert.equal(await partEntry(), e, "the same entry for every run of this process");
  // lib/paths.ts's own URL, kept in the bundle: the part finds the project's root (its version, its commit) as the
  // coordinator does.
  assert.ok(readFileSync(e.file, "utf8").includes(JSON.stringify(`file://${path.join(PROJECT_ROOT, "lib", "paths.ts")}`)));
});

test("a forked part loads and exits on its own once its coordinator's channel closes", async () => {
  const e = await partEntry();
  for (const file of [e.file, PART_MAIN]) {
    const child = forkPart(e, { file });
    let out = "";
    child.stdout?.on("data", (b: Buffer) => (out += b));
    child.stderr?.on("data", (b: Buffer) => (out += b));
    await new Promise((r) => child.once("spawn", r));
    child.disconnect();
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((r) => child.once("exit", (c, s) => r([c, s])));
    assert.equal(signal, null, `${path.basename(file)}: ${out}`);
    // At once when nothing holds it (0), or, when it was still loading as the channel closed (a busy machine: a clean
    // CI run), by its own timer 3 s later (1, with nothing printed): never hung, never crashed.
    assert.ok(code === 0 || (code === 1 && out === ""), `${path.basename(file)} exited ${code}: ${out}`);
  }
});
