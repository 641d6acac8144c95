// `npm run bench:faults -- [--target URL] [--kinds kill-backend,restart-target] [--workloads queue,notify,…]
//                          [--duration 10s] [--at 5s]`
// Which workloads survive a fault that takes connections from under them, measured here: for each workload asked
// (default: every one) and each kind (default: both), one short run of its defaults with the fault in the middle of
// its window. Prints, per run, whether it verified, how many operations were in doubt and how they settled, how many
// times the loops reconnected, what the phase did and how long the run took to recover. A workload that refuses the
// kind (graphile-worker and pg-boss refuse restart-target) is printed with its refusal, not run. Without --target it
// starts a private embedded Postgres a restart-target phase may restart; a target given must be one too.
import type { RunSummary } from "../lib/measurement/summary";
import { factOf } from "../lib/measurement/verification";
import { countWords } from "../lib/words";
import { phaseReportLines } from "../lib/phases/words";
import { parseConfig, workloadDefinitions } from "../lib/workloads/config";
import { parseDuration } from "../runner/cli-args";
import { runWorkload, verificationError } from "../runner/engine";
import { benchArgs } from "./bench-args";
import { benchTarget } from "./bench-target";

const KINDS = ["kill-backend", "restart-target"];
const IN_DOUBT = "operations in doubt (connection lost before the reply; settled either way)";

const seconds = (name: string, v: string | undefined, fallback: string) => {
  const s = parseDuration(v ?? fallback);
  if (s === null || s < 1) throw new Error(`--${name} expects a duration such as ${fallback}, got "${v}"`);
  return s;
};

/** One run's lines: verified or why not, in doubt, reconnections, the phase's report. */
function runLines(s: RunSummary): string[] {
  const verr = verificationError(s);
  const doubt = factOf(s.verification, IN_DOUBT);
  const notes = (s.notes ?? []).filter((n) => /in doubt|reconnected|missed|resumed/.test(n));
  return [
    verr ?? `verified: ${countWords(s.verification.checked, s.verification.unit)} checked`,
    ...(doubt !== undefined ? [`in doubt: ${doubt}`] : []),
    ...notes.map((n) => `note: ${n}`),
    ...(s.phases ?? []).flatMap((r) => phaseReportLines(r)),
  ];
}

async function main() {
  const a = benchArgs(process.argv.slice(2), ["target", "kinds", "workloads", "duration", "at"]);
  const kinds = (a.kinds ?? KINDS.join(",")).split(",").map((k) => k.trim());
  for (const k of kinds) if (!KINDS.includes(k)) throw new Error(`--kinds expects some of ${KINDS.join(", ")}, got "${k}"`);
  const all = workloadDefinitions().map((d) => d.kind as string);
  const workloads = a.workloads ? a.workloads.split(",").map((w) => w.trim()) : all;
  for (const w of workloads) if (!all.includes(w)) throw new Error(`--workloads expects some of ${all.join(", ")}, got "${w}"`);
  const duration = seconds("duration", a.duration, "10s");
  const at = seconds("at", a.at, "5s");
  const target = await benchTarget(a.target, "faults");
  console.log(
    `faults on ${target.label}: each workload's defaults, 2 s warm-up, ${duration} s measured, the fault ${at} s into the run (the warm-up included)\n`,
  );
  let failed = 0;
  // A run whose fault was not carried out (its phase could not begin) verified without one: it shows nothing survived.
  let notCarriedOut = 0;
  try {
    for (const kind of kinds)
      for (const workload of workloads) {
        const parsed = parseConfig({ kind: workload, warmupSeconds: 2, durationSeconds: duration, phases: `${kind}@${at}s` });
        const head = `${workload} with ${kind}@${at}s`;
        if (!parsed.ok) {
          console.log(`${head}: refused: ${Object.values(parsed.errors).join("; ")}\n`);
          continue;
        }
        try {
          const s = await runWorkload(parsed.config, target.url, { drainSeconds: 10 });
          if (verificationError(s)) failed++;
          else if ((s.phases ?? []).some((r) => r.startedSec === null)) notCarriedOut++;
          console.log(
            `${head}:\n${runLines(s)
              .map((l) => `  ${l}`)
              .join("\n")}\n`,
          );
        } catch (err) {
          failed++;
          console.log(`${head}: the run failed: ${(err as Error).message}\n`);
        }
      }
  } finally {
    await target.release();
  }
  const closing = [
    ...(failed ? [`${countWords(failed, "run")} failed or did not verify`] : []),
    ...(notCarriedOut ? [`${countWords(notCarriedOut, "run")} verified without the fault, which was not carried out (its report says why)`] : []),
  ];
  console.log(closing.length ? closing.join("; ") : "every run that was not refused took its fault and verified");
  process.exitCode = failed || notCarriedOut ? 1 : 0;
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
