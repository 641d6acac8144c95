// The runner's one option, `--part K` (./part-mode.ts), read without importing anything: deploy/checks.ts judges
// the Kubernetes manifests' runner arguments with the very function the runner uses.

/** Reads `--part K` from the runner's arguments: undefined without it, an Error naming what is wrong otherwise. */
export function partArg(argv: readonly string[]): number | undefined | Error {
  const at = argv.indexOf("--part");
  if (at < 0) {
    const other = argv.find((a) => a.startsWith("-"));
    return other ? new Error(`unknown option ${other}: the runner takes only --part K (a part's index, from 0)`) : undefined;
  }
  const v = argv[at + 1];
  const k = Number(v);
  if (v === undefined || v.trim() === "" || !Number.isInteger(k) || k < 0 || k > 63)
    return new Error(
      `--part needs a part's index, a whole number from 0 to 63 (got ${v === undefined ? "nothing" : `"${v}"`}); in a Kubernetes Indexed Job pass $JOB_COMPLETION_INDEX`,
    );
  return k;
}
