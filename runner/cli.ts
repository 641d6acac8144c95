// `npm run bench -- pubsub|queue [flags]`: the same engine as the runner, headless. Prints a live line every
// report interval and a summary table; --json writes the summary, --save stores the run (live) so the app
// shows it. `npm run bench -- compare …` is handed to runner/compare-cli.ts.
import "../platform/node-floor";
// Only what reading the command line needs is imported here: --help answers at once, and the engine, the
// embedded servers and the control store are loaded once a run is asked for (./cli-run.ts runOnce).
import { maskUrl } from "../lib/targets/pgurl";
import { helpAsked, usage, workloadUsage } from "./cli-args";
import type { CliIo } from "./cli-run";
import type { SweepPoint } from "../workloads/runtime";

export type { CliIo } from "./cli-run";
const consoleIo: CliIo = { out: (l) => console.log(l), err: (l) => console.error(l) };

export async function main(argv: string[], rawIo: CliIo = consoleIo): Promise<number> {
  // Every line goes through maskUrl: a target URL may carry its password in any libpq form, typed in clear.
  const io: CliIo = { out: (l) => rawIo.out(maskUrl(l)), err: (l) => rawIo.err(maskUrl(l)) };
  if (argv[0] === "compare") {
    // Written by another part of the project; imported lazily so the bench itself never depends on it.
    const spec = "./compare-cli";
    const mod = (await import(spec)) as { main(args: string[]): Promise<number> };
    return mod.main(argv.slice(1));
  }
  if (argv[0] === "export-bundle" || argv[0] === "import-bundle") {
    const bundles = await import("./bundle-cli");
    return bundles.main(argv[0], argv.slice(1), io);
  }
  if (argv[0] === "ceiling") {
    const ceiling = await import("./ceiling/cli");
    return ceiling.main(argv.slice(1), io);
  }
  const help = helpAsked(argv);
  if (help) {
    io.out(help.workload ? workloadUsage(help.workload) : usage());
    return 0;
  }
  const { cliSweepFor } = await import("../workloads/runners");
  const { runOnce } = await import("./cli-run");
  // A workload's sweep (queued-workflows' `-queues 1,2,4,8`): one ordinary run per value, back to back, then its table.
  // Its --html is the sweep's report (its runs compared, ./cli-html.ts), not each run's: taken out of each run's flags.
  const sweepHtml = htmlOf(argv);
  const asked = cliSweepFor(sweepHtml ? sweepHtml.argv : argv);
  if (asked?.plan.kind === "error") {
    io.err(`bench: ${asked.plan.message}`);
    return 2;
  }
  if (asked?.plan.kind === "sweep") {
    const { sweep, plan } = asked;
    const { htmlPathProblem, writeSweepReport } = await import("./cli-html");
    const problem = sweepHtml && (sweepHtml.file ? htmlPathProblem(sweepHtml.file) : "--html needs a file name");
    if (problem) {
      io.err(`bench: ${problem}`);
      return 2;
    }
    const points: SweepPoint[] = [];
    let code = 0;
    for (const q of plan.counts) {
      io.out(`--- ${plan.flag} ${q} (${points.length + 1} of ${plan.counts.length}) ---`);
      const r = await runOnce(plan.argvFor(q), io);
      if (r.code === 2 || r.cancelled) return r.code; // bad flags fail every run alike; a cancel stops the sweep
      points.push({ value: q, summary: r.summary, error: r.error, runId: r.runId });
      if (r.code !== 0) code = 1;
      io.out("");
    }
    io.out(sweep.text(points));
    if (sweepHtml?.file) {
      const written = await writeSweepReport(sweepHtml.file, plan.flag, points);
      if ("err" in written) {
        io.err(`bench: ${written.err}`);
        return 1;
      }
      io.out(written.out);
    }
    return code;
  }
  return (await runOnce(argv, io)).code;
}

/** `--html FILE` (any spelling) taken out of `argv`, or null when not given. */
function htmlOf(argv: string[]): { argv: string[]; file: string | undefined } | null {
  const at = argv.findIndex((a) => /^--?html(=|$)/.test(a));
  if (at < 0) return null;
  const eq = argv[at].indexOf("=");
  const file = eq >= 0 ? argv[at].slice(eq + 1) : argv[at + 1];
  return { argv: [...argv.slice(0, at), ...argv.slice(at + (eq >= 0 ? 1 : 2))], file: file?.trim() ? file : undefined };
}

if (require.main === module)
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(`bench: ${maskUrl((err as Error).message)}`);
      process.exit(1);
    },
  );
