// The conformance suite every registered workload passes, the product's and the test fixtures' alike
// (River's riverdrivertest.Exercise: one suite, every driver). exercise(kind) registers its checks (node:test):
// - schema.ts: its presets and fields through the registry's, the form's, the API's and the CLI's schemas;
// - pacing.ts: its declared pacing, driven by the core's pacers on a fake clock;
// - split.ts: where it splits, N parts that add up to the whole run (no I/O);
// - runs.ts: a short real run through the engine (verified, batches as declared, the target left clean) and,
//   where it splits, the same over 2 processes (verified over every part, the merge exact);
// - faults.ts: verification catching the loss, duplicate and reorder it promises, provoked by its hooks.
// Its test files (exercise-*.test.ts, two-processes-*.test.ts) each take a share of the registry by a stable rule,
// so the test runner runs them side by side and a new workload needs no new file.
import { after, before, describe, test } from "node:test";
import { registerFixtures } from "../../fixtures/workloads/load";
import { testDatabase } from "../../lib/testing";
import type { WorkloadHooks } from "../hooks";
import { workloadDefinition, workloadDefinitions } from "../index";
import { workloadEntry } from "../runners";
import { faultsCaught } from "./faults";
import { pacingDeclared, pacingOnFakeClock } from "./pacing";
import { engineRun, twoProcessRun } from "./runs";
import { fieldsAgree, presetsParse } from "./schema";
import { splitsOverParts } from "./split";

/** Which of the suite's checks a test file runs: those in this process, or the runs over 2 processes (which CI's
 *  pass on the product's Node floor also runs: scripts/test-order.ts). */
export type Family = "one process" | "two processes";

interface Target {
  url: string;
  /** A part entry that registers the fixtures before it runs (a fixture's parts need them registered too). */
  partEntry?: string;
}

/** The suite's checks of one registered workload, as node:test tests under its name. */
export function exercise(kind: string, family: Family, target: () => Target) {
  const def = workloadDefinition(kind);
  describe(`exercise(${kind})`, () => {
    let hooks: WorkloadHooks;
    before(async () => {
      const entry = await workloadEntry(kind);
      if (!def || !entry) throw new Error(`${kind}: registered ${def ? "without a runner" : "without a definition"}`);
      hooks = (await entry.testing()).hooks;
    });
    if (!def) return void test("is registered", () => undefined);
    if (family === "two processes") {
      test("a short run over 2 processes: every part verified, the merge exact, the target clean", () =>
        twoProcessRun(def, hooks, target().url, target().partEntry));
      return;
    }
    test("presets parse and read back through the form, the API and the CLI", () => presetsParse(def));
    test("fields: declared bounds, options and defaults are the schema's", () => fieldsAgree(def));
    test("pacing: declared on an operation of its own, and driven on a fake clock as declared", async () => {
      pacingDeclared(def);
      await pacingOnFakeClock(def);
    });
    test("parts add up to the whole run", () => splitsOverParts(def, hooks));
    test("a short run through the engine: verified, batches as declared, the target clean", () => engineRun(def, hooks, target().url));
    test("verification catches the loss, duplicate and reorder it promises", () => faultsCaught(def, hooks, target().url));
  });
}

/**
 * Registers the fixtures, then exercises share `index` (1 … `of`) of every registered workload: the workload at
 * position i of the registry (the product's in their order, then the fixtures') is in share i mod `of` + 1.
 */
export function exerciseShare(index: number, of: number, family: Family) {
  const unregister = registerFixtures();
  let db: { url: string; drop: () => Promise<void> };
  before(async () => {
    db = await testDatabase(`exercise_${index}`);
  });
  after(async () => {
    await db?.drop();
    unregister.remove();
  });
  const kinds = workloadDefinitions()
    .map((d) => d.kind)
    .filter((_, i) => i % of === index - 1);
  for (const kind of kinds) exercise(kind, family, () => ({ url: db.url, ...(unregister.kinds.includes(kind) ? { partEntry: unregister.partEntry } : {}) }));
}
