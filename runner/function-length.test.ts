// No function of the runner is longer than MAX_LINES (issue 30, "one lifecycle"): a function that long holds
// several steps, and each step should be a function of its own whose name says what it is. Parsed with the
// typescript package's parser file by file (scripts/function-lengths.ts), so it takes a second or two.
import assert from "node:assert/strict";
import { test } from "node:test";
import { describeFunction, functionLengthsOf, longestFunctions } from "../scripts/function-lengths";

/** The functions under `folders` (relative to the root) longer than `limit` lines, longest first. */
function functionsOver(limit: number, folders: readonly string[]) {
  return longestFunctions(folders).filter((f) => f.lines > limit);
}

/** Measured by the second test: a method and a named arrow. */
class Measured {
  twoLines() {
    return 1;
  }
  arrow = () => 2;
}

const MAX_LINES = 150;
const FOLDERS = ["runner"];

test(`no function under ${FOLDERS.join("/, ")}/ (tests aside) is over ${MAX_LINES} lines`, () => {
  const all = longestFunctions(FOLDERS);
  assert.ok(all.length > 200, `found only ${all.length} functions: is the walk broken?`);
  const over = functionsOver(MAX_LINES, FOLDERS).map(describeFunction);
  assert.deepEqual(over, [], `split these along their steps (at most ${MAX_LINES} lines a function): ${over.join(", ")}`);
});

test("the walk measures declarations, methods and named arrows, and names them", () => {
  // This very file: a declaration, a method, an arrow property; arrows passed inline are anonymous, not counted.
  const mine = functionLengthsOf("runner/function-length.test.ts");
  const lines = Object.fromEntries(mine.map((x) => [x.name, x.lines]));
  assert.equal(lines.functionsOver, 3);
  assert.equal(lines["Measured.twoLines"], 3);
  assert.equal(lines.arrow, 1);
  assert.equal(new Measured().twoLines() + new Measured().arrow(), 3);
  assert.ok(!mine.some((x) => x.name === "undefined"));
  // A limit every long function passes over names it.
  const [longest] = longestFunctions(FOLDERS);
  assert.deepEqual(functionsOver(longest.lines - 1, FOLDERS)[0], longest);
});
