// Reading node's test runner TAP output beyond its closing counts.

/** Test files that crashed outside any test. Node's runner reports such a file as one failed top-level test
 *  named by the file's path, and never reports the tests it held, so its count alone would hide them. */
export function filesThatDidNotLoad(tap: string): string[] {
  return [...tap.matchAll(/^not ok \d+ - (\S+\.test\.[cm]?[jt]sx?)$/gm)].map((m) => m[1]);
}

/** A test that failed on its own account (not a parent failing for its subtests): where it is, its name and the
 *  first line of its error. */
export interface FailedTest {
  location: string;
  name: string;
  error: string;
}

/**
 * The tests that failed, read from the TAP report, so that the closing lines of `npm test` name them: a pass of some
 * thousand tests prints the failure minutes and thousands of lines before its end, which a CI log that keeps only
 * its tail then loses (the red run of 554402d showed "1 failed" and nothing else). Parents failing only because a
 * subtest did (failureType 'subtestsFailed') are left out: the subtest is named.
 */
export function failedTests(tap: string): FailedTest[] {
  const lines = tap.split("\n");
  const out: FailedTest[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)not ok \d+ - (.*)$/.exec(lines[i]);
    if (!m) continue;
    const fields: Record<string, string> = {};
    // The YAML block below it, indented two more, from "---" to "...".
    const inner = `${m[1]}  `;
    if (lines[i + 1] !== `${inner}---`) continue;
    for (let j = i + 2; j < lines.length && lines[j] !== `${inner}...`; j++) {
      const f = new RegExp(`^${inner}(\\w+): (.*)$`).exec(lines[j]);
      if (!f) continue;
      // A block scalar (|-) holds its text on the lines below, indented further: its first line is what we keep.
      fields[f[1]] = f[2] === "|-" ? (lines[j + 1] ?? "").trim() : f[2].replace(/^'(.*)'$/, "$1");
    }
    if (fields.failureType === "subtestsFailed") continue;
    out.push({ location: fields.location ?? "", name: m[2], error: fields.error ?? "" });
  }
  return out;
}
