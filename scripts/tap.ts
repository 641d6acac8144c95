// Reading node's test runner TAP output beyond its closing counts.

/** Test files that crashed outside any test. Node's runner reports such a file as one failed top-level test
 *  named by the file's path, and never reports the tests it held, so its count alone would hide them. */
export function filesThatDidNotLoad(tap: string): string[] {
  return [...tap.matchAll(/^not ok \d+ - (\S+\.test\.[cm]?[jt]sx?)$/gm)].map((m) => m[1]);
}
