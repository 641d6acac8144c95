// No code file of the app, the runner or the workloads grows past MAX_LINES: a file that long holds several ideas,
// and each idea should have a file of its own that says what it is (issue 21, "rooms that show the design").
// Tests and generated code (the Prisma client) are not counted; styles and data (CSS, JSON) are not code.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { PROJECT_ROOT } from "./paths";

const MAX_LINES = 600;
const FOLDERS = ["components", "lib", "app", "runner", "workloads"];
const CODE = /\.(ts|tsx|js|mjs|cjs)$/;
const TEST = /\.test\.(ts|tsx|js|mjs|cjs)$/;
const SKIP = new Set(["node_modules", "generated"]);

/**
 * Files allowed past the limit for now, each with why. Keep it short: when a file is split, remove it here
 * (the test fails on an entry that no longer needs to be here).
 */
const ALLOWED: Record<string, string> = {};

function codeFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(path.join(PROJECT_ROOT, dir), { withFileTypes: true })) {
    if (SKIP.has(e.name)) continue;
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) codeFiles(rel, out);
    else if (CODE.test(e.name) && !TEST.test(e.name)) out.push(rel);
  }
  return out;
}

const lineCount = (rel: string) => readFileSync(path.join(PROJECT_ROOT, rel), "utf8").replace(/\n$/, "").split("\n").length;

test(`no code file under ${FOLDERS.join("/, ")}/ is over ${MAX_LINES} lines, but the few allowed`, () => {
  const files = FOLDERS.flatMap((d) => codeFiles(d));
  assert.ok(files.length > 100, `found only ${files.length} code files: is the walk broken?`);
  const sizes = new Map(files.map((f) => [f, lineCount(f)]));
  const tooLong = [...sizes].filter(([f, n]) => n > MAX_LINES && !(f in ALLOWED)).map(([f, n]) => `${f} (${n} lines)`);
  assert.deepEqual(tooLong, [], `split these along their ideas (at most ${MAX_LINES} lines a file): ${tooLong.join(", ")}`);
  const stale = Object.keys(ALLOWED).filter((f) => (sizes.get(f) ?? 0) <= MAX_LINES);
  assert.deepEqual(stale, [], `no longer over ${MAX_LINES} lines (or gone): remove from ALLOWED in lib/source-size.test.ts: ${stale.join(", ")}`);
});
