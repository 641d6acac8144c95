// `npm run bench -- … --gate 'e2e.p99<50ms' --baseline r_… --max-regression 10%` (lib/gate/): the baseline read
// before the run (a missing one refuses the command before a run is spent), the gates and regressions checked on
// the summary once the run ends, a line per failure, the outcome written as JSON and Markdown when asked, and the
// exit status GATE_FAILED_EXIT when anything failed.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { checkGates, checkRegressions, defaultRegressionMetrics, figureText, GATE_FAILED_EXIT, gateFailureLine, regressionLine } from "../lib/gate/gate";
import { type GateOutcome, outcomeJson, outcomeMarkdown, outcomePassed } from "../lib/gate/report";
import { dataDir, type Env } from "../lib/env";
import { RunSummary } from "../lib/measurement/summary";
import { describeUrl } from "../lib/targets/pgurl";
import { CONTROL_DB, clusterExists, useCluster } from "../platform/embedded";
import type { Gating } from "./cli-args";

/** The baseline's summary and how the lines name it ("run r_…", "file" and its path). */
export interface Baseline {
  summary: RunSummary;
  name: string;
  runId: string | null;
}

const RUN_ID = /^r_[0-9a-f]{12}$/;

/** The summary in a file `--json` wrote; a message naming what is wrong with it otherwise. */
function baselineFile(spec: string): Baseline | string {
  const file = path.resolve(spec);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    return `--baseline ${spec}: cannot read it as JSON (${(err as Error).message})`;
  }
  // A bundle or another export carries the summary inside: the summary is what a `--json` file holds.
  const parsed = RunSummary.safeParse(data);
  if (!parsed.success)
    return `--baseline ${spec}: not a run's summary as \`--json FILE\` writes it (${parsed.error.issues[0].path.join(".") || "top level"}: ${parsed.error.issues[0].message})`;
  return { summary: parsed.data, name: `file ${spec}`, runId: null };
}

/** A stored run's summary, from DATABASE_URL or the embedded control store of DATA_DIR (started for the read when not running). */
async function baselineRun(id: string, env: Env, say: (l: string) => void): Promise<Baseline | string> {
  let url = env.DATABASE_URL;
  let stop: (() => Promise<void>) | undefined;
  if (!url) {
    if (!clusterExists(dataDir(env), "control"))
      return `--baseline ${id}: no control store in DATA_DIR ${dataDir(env)} and DATABASE_URL is not set: run it where the run was stored, or give a --json summary file`;
    const server = await useCluster(dataDir(env), "control", env.EMBEDDED_PG_PORT);
    url = server.url(CONTROL_DB);
    stop = server.owned ? () => server.stop() : undefined;
  }
  say(`reading the baseline ${id} from ${env.DATABASE_URL ? `DATABASE_URL (${describeUrl(url)})` : `the control store in DATA_DIR ${dataDir(env)}`}`);
  const { prisma } = await import("../lib/db");
  try {
    const run = await prisma(url).run.findUnique({ where: { id }, select: { status: true, summary: true } });
    if (!run) return `--baseline ${id}: no such run in that control store`;
    if (run.status !== "completed" || !run.summary) return `--baseline ${id}: the run is ${run.status}, with no completed summary to compare with`;
    const parsed = RunSummary.safeParse(run.summary);
    if (!parsed.success) return `--baseline ${id}: its stored summary does not read (${parsed.error.issues[0].message})`;
    return { summary: parsed.data, name: `run ${id}`, runId: id };
  } finally {
    await prisma(url)
      .$disconnect()
      .catch(() => undefined);
    await stop?.();
  }
}

/** The baseline asked for: a run id, else a file; a message when it is neither or does not read. */
export async function loadBaseline(spec: string, env: Env, say: (l: string) => void): Promise<Baseline | string> {
  if (RUN_ID.test(spec)) return baselineRun(spec, env, say);
  if (!existsSync(path.resolve(spec))) return `--baseline ${spec}: neither a run id (r_ and 12 hex digits) nor a file that exists`;
  return baselineFile(spec);
}

/** "12 of 14 figures within 10% of run r_…; 1 beyond it but within the noise the repeats measured; 1 regressed". */
function baselineTally(b: NonNullable<GateOutcome["baseline"]>): string {
  const within = b.regressions.filter((r) => r.worsePct <= b.maxRegressionPct).length;
  const noisy = b.regressions.filter((r) => r.worsePct > b.maxRegressionPct && r.withinNoise).length;
  const failed = b.regressions.filter((r) => !r.passed).length;
  return [
    `${within} of ${b.regressions.length} figures within ${b.maxRegressionPct}% of ${b.name}`,
    ...(noisy ? [`${noisy} beyond it but within the noise the repeats measured`] : []),
    ...(failed ? [`${failed} regressed`] : []),
  ].join("; ");
}

/** The settings in which two runs differ, "throttleWritesPerSec 200 → 150": a figure moved by a setting is no regression
 *  of the code, and the lines say so rather than leave it to be found. */
function configDifferences(baseline: RunSummary, now: RunSummary): string[] {
  const a = baseline.config as Record<string, unknown>;
  const b = now.config as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  const text = (v: unknown) => (v === undefined ? "unset" : JSON.stringify(v));
  return keys.filter((k) => text(a[k]) !== text(b[k])).map((k) => `${k} ${text(a[k])} → ${text(b[k])}`);
}

/** The noise a regression is judged beside: one run of each side measures none, so the bound alone decides. */
const NOISE_ONE_RUN = "Noise: each side is one run, so run-to-run noise is not measured here; the bound alone decides.";
/** Over repeats, the noise measured: a change beyond the bound fails only with the baseline outside the median's interval. */
const noiseOfRepeats = (n: number) =>
  `Noise: measured over ${n} repeats; a figure is their median, and a change beyond the bound fails only when the baseline lies outside the interval of that median (its confidence shown).`;

/**
 * Checks the run: its gates, and its figures against the baseline (the gates' metrics when there are gates, else each
 * operation's rate and p50, p99). Prints a line per failure, writes the files asked, and answers the exit status:
 * GATE_FAILED_EXIT when anything failed, else `code`.
 */
export function applyGating(
  runs: readonly RunSummary[],
  runId: string | null,
  gating: Gating,
  baseline: Baseline | undefined,
  io: { out(l: string): void; err(l: string): void },
  code: number,
): number {
  const summary = runs[0];
  const gates = checkGates(runs, gating.gates);
  let base: GateOutcome["baseline"] = null;
  if (baseline) {
    if (baseline.summary.workload !== summary.workload)
      io.err(
        `bench: --baseline ${baseline.name} is a ${baseline.summary.workload} run, this one ${summary.workload}: figures of different workloads are not compared`,
      );
    else {
      const metrics = gating.gates.length ? gating.gates.map((g) => g.metric) : defaultRegressionMetrics(summary, baseline.summary);
      const r = checkRegressions(runs, baseline.summary, metrics, gating.maxRegressionPct);
      base = {
        name: baseline.name,
        maxRegressionPct: gating.maxRegressionPct,
        ...r,
        noise: runs.length > 1 ? noiseOfRepeats(runs.length) : NOISE_ONE_RUN,
        configDiffers: configDifferences(baseline.summary, summary),
      };
    }
  }
  const passed = outcomePassed(gates, base?.regressions ?? []) && !(baseline && !base);
  const measuredSeconds = runs.reduce((a, s) => a + s.window.measuredSeconds, 0);
  const outcome: GateOutcome = {
    run: { id: runId, workload: summary.workload, measuredSeconds, repeats: runs.length },
    gates,
    baseline: base,
    passed,
  };
  io.out("");
  if (runs.length > 1) io.out(`gates on the ${runs.length} repeats pooled (histograms merged; rates over all their seconds)`);
  for (const g of gates) io.out(g.passed ? `gate ok: ${g.gate}: value ${figureText(g.value!, g.unit)}` : gateFailureLine(g));
  for (const r of base?.regressions ?? []) if (!r.passed) io.out(regressionLine(r, base!.name, base!.maxRegressionPct));
  for (const s of base?.skipped ?? []) io.out(`not compared: ${s}`);
  if (base?.configDiffers.length) io.out(`note: the runs' settings differ (baseline → this run): ${base.configDiffers.join("; ")}`);
  if (base) io.out(baselineTally(base));
  write(gating.json, outcomeJson(outcome), "gate outcome (JSON)", io);
  write(gating.markdown, outcomeMarkdown(outcome), "gate outcome (Markdown)", io);
  // A run that failed (verification, say) keeps its own status: the gates are said, but the run failing comes first.
  return passed || code !== 0 ? code : GATE_FAILED_EXIT;
}

function write(file: string | undefined, text: string, what: string, io: { out(l: string): void; err(l: string): void }) {
  if (!file) return;
  const at = path.resolve(file);
  try {
    writeFileSync(at, text);
    io.out(`${what} written to ${at}`);
  } catch (err) {
    io.err(`bench: cannot write the ${what} to ${at}: ${(err as Error).message}`);
  }
}
