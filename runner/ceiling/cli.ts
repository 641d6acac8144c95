// `npm run bench -- ceiling <workload> [workload flags] --slo 'p99<50ms' [--metric e2e|write|…] [--step 30s]
// [--max-rate N] [--start-rate N] [--precision 10%] [--max-steps N] [--json FILE]`: the highest rate the target
// sustains under a latency goal. The workload flags are the bench's (runner/cli-args.ts); the search's own
// flags are taken out first.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { goalMetric } from "../../lib/ceiling/facts";
import { rateKnobOrProblem, searchUnit } from "../../lib/ceiling/rate";
import { perSecond } from "../../lib/words";
import { searchKnobs } from "../../lib/ceiling/view";
import { SEARCH_DEFAULTS, type SearchOptions } from "../../lib/ceiling/search";
import { answerOfResult, outcomeOf, statusOfStop } from "../../lib/ceiling/answer";
import {
  CeilingSettings,
  confirmSecondsOf,
  DEFAULT_CONFIRM_SECONDS,
  DEFAULT_MAX_RATE,
  DEFAULT_START_RATE,
  DEFAULT_STEP_SECONDS,
  MIN_STEP_SECONDS,
} from "../../lib/ceiling/settings";
import { parseSlo, type Slo, sloText } from "../../lib/ceiling/slo";
import { parseWholeSeconds } from "../../lib/duration";
import { dataDir, readEnv } from "../../lib/env";
import { memoryProblem } from "../../lib/workloads/memory";
import { maskUrl } from "../../lib/targets/pgurl";
import { definitionOf, type WorkloadConfig } from "../../lib/workloads/config";
import type { GoalMetric } from "../../lib/ceiling/facts";
import { parseArgs } from "../cli-args";
import { labelColumns, type LabelsInput } from "../../lib/runs/labels";
import { embeddedNote, resolveTarget } from "../default-target";
import { CONTROL_DB, useCluster } from "../../platform/embedded";
import { searchRecorder } from "./execute";
import { findCeiling } from "./driver";
import { resultLines, stepLine } from "./format";
import { htmlPathProblem } from "../cli-html";
import { quitAfter, STOP_MS } from "../stop";
import { cliRunner } from "../cli-runner";
import { flagLines, wrap } from "../help-text";

export interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** The search's own flags and what they take. */
const OWN = {
  slo: "the latency goal, e.g. 'p99<50ms' or 'p50<10ms,p99<50ms' (required)",
  metric: "the latency the goal is on (default: the workload's delivery latency, e2e for pub/sub and queue)",
  step: `each step's measured window (default ${DEFAULT_STEP_SECONDS}s, at least ${MIN_STEP_SECONDS}s); each step warms up for --warmup first`,
  confirm: `the confirmation run's measured window: the rate found is run this long before it is reported (default ${DEFAULT_CONFIRM_SECONDS}s or 4 steps, whichever is longer)`,
  "start-rate": `the first step's rate in the workload's paced unit per second (msg/s, row/s, req/s, workflow/s; default ${DEFAULT_START_RATE})`,
  "max-rate": `never try above this rate, in the same unit (default ${DEFAULT_MAX_RATE.toLocaleString("en-US")})`,
  precision: `stop once the bracket is this narrow, relative to its low end (default ${SEARCH_DEFAULTS.precision * 100}%)`,
  "max-steps": `stop after this many steps (default ${SEARCH_DEFAULTS.maxSteps})`,
  json: "write the search (settings, every step, the result) to this file",
} as const;
/** Taken by the bench's own parser (runner/cli-args.ts), listed in the search's --help too. */
const SHARED_HELP = {
  save: "store the search as it runs, so the app shows it live at /ceilings/<id> (a cancel there stops it)",
  html: "write the search's report to this file: one self-contained HTML page (its answer, curves and steps) that opens offline",
  "name TEXT, --tag TAG, --notes TEXT": "the search's name, tags (repeat --tag) and notes, stored with it by --save",
};
type OwnFlag = keyof typeof OWN;

/** The workload flags a search sets itself, with what to use instead. */
const SET_BY_SEARCH: Record<string, string> = {
  duration: "each step's measured window is --step",
};

export interface CeilingArgs {
  config: WorkloadConfig;
  target?: string;
  slo: Slo;
  metric: GoalMetric;
  stepSeconds: number;
  /** Set by --confirm; absent: confirmSecondsOf's default. */
  confirmSeconds?: number;
  search: SearchOptions;
  json?: string;
  /** --html: the search's report, as the app exports it (components/report/CeilingReport.tsx). */
  html?: string;
  /** Store the search in the control store as it runs (the app shows it live; a cancel there stops it). */
  save: boolean;
  /** --name, --tag, --notes (the bench's flags, lib/runs/labels.ts): stored with the search by --save. */
  labels?: LabelsInput;
}

export function ceilingUsage(): string {
  return [
    "Usage: npm run bench -- ceiling <workload> [workload flags] --slo 'p99<50ms' [flags]",
    "",
    ...wrap(
      "Finds the highest rate the target sustains: constant-rate steps, doubling while sustained, then bisecting between the last sustained and the first unsustained rate. A step is sustained when the achieved rate is within 2% of the target, the backlog does not grow, readers keep up with the fan-out, the goal is clearly met (the percentile's 95% interval below the limit, on the latency from each message's scheduled time where recorded), the paced writes keep to their timetable and nothing failed. A step whose interval straddles the goal, or has too few samples to bound it, runs longer (up to 4 runs, merged); still undecided, it is not sustained. A latency miss the server's telemetry does not explain, or below a rate already sustained, is measured once more before it counts. A step the runner was starved in (its CPU, its run-queue wait, or an event-loop stall that alone explains the failure) is run again, never charged to the target; a rate starved every time ends the search, and the rate below it is confirmed as a lower bound, with what to do. The rate found is confirmed by one longer run (--confirm) before it is reported; if that fails the search goes on below it.",
    ),
    "",
    ...Object.entries({ ...OWN, ...SHARED_HELP }).flatMap(([f, h]) => flagLines(`--${f}`, h)),
    "",
    "Workload flags are the bench's (<workload> --help lists them), but -duration and -throttle_writes.",
    "Example: npm run bench -- ceiling queue -writers 10 -readers 15 --slo 'p99<50ms' --step 20s",
  ].join("\n");
}

/** Parses the search's arguments; a message naming the flag when something is wrong. */
export function parseCeilingArgs(argv: string[]): { ok: true; args: CeilingArgs } | { ok: false; message: string } | { ok: "help" } {
  const own = new Map<OwnFlag, string>();
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const tok = argv[i];
    const m = /^--?([a-z_-]+)(?:=(.*))?$/.exec(tok);
    const name = m?.[1];
    if (name === "help" || name === "h") return { ok: "help" };
    if (name && name in SET_BY_SEARCH) return { ok: false, message: `${tok.split("=")[0]} does not apply to a ceiling search: ${SET_BY_SEARCH[name]}` };
    if (!name || !(name in OWN)) {
      rest.push(tok);
      continue;
    }
    const flag = name as OwnFlag;
    if (own.has(flag)) return { ok: false, message: `--${flag} is given twice` };
    const value = m[2] ?? argv[++i];
    if (value === undefined) return { ok: false, message: `--${flag} needs a value: ${OWN[flag]}` };
    own.set(flag, value);
  }
  const bench = parseArgs(rest);
  if (bench.kind === "help") return { ok: "help" };
  if (bench.kind === "error") return { ok: false, message: bench.message };
  const config = bench.options.config;
  const knob = rateKnobOrProblem(config.kind);
  if (!knob.ok) return { ok: false, message: knob.message };
  // The flags of the fields each step sets (a rate, a load model), as the bench names them.
  for (const f of definitionOf(config).fields)
    if (f.cli && knob.knob.fields.includes(f.name) && rest.some((t) => new RegExp(`^--?${f.cli!.flag.replace(/[-_]/g, "[-_]")}(=|$)`).test(t)))
      return {
        ok: false,
        message: `${f.cli.ours ? "--" : "-"}${f.cli.flag} does not apply to a ceiling search: the search sets each step's rate; use --start-rate and --max-rate`,
      };

  const sloRaw = own.get("slo");
  if (sloRaw === undefined) return { ok: false, message: "--slo is required: the latency goal each step must meet, e.g. --slo 'p99<50ms'" };
  const slo = parseSlo(sloRaw);
  if (!slo.ok) return { ok: false, message: `--slo: ${slo.message}` };
  const metric = goalMetric(config.kind, own.get("metric"));
  if (!metric.ok) return { ok: false, message: metric.message };

  const stepRaw = own.get("step");
  const stepSeconds = stepRaw === undefined ? DEFAULT_STEP_SECONDS : parseWholeSeconds(stepRaw);
  if (stepSeconds === null) return { ok: false, message: `--step expects a duration in whole seconds such as 30s, 1m or 45, got "${stepRaw}"` };
  if (stepSeconds < MIN_STEP_SECONDS)
    return {
      ok: false,
      message: `--step ${stepRaw}: a step's measured window must be at least ${MIN_STEP_SECONDS}s (the backlog's trend needs a few samples)`,
    };

  const confirmRaw = own.get("confirm");
  const confirmSeconds = confirmRaw === undefined ? undefined : parseWholeSeconds(confirmRaw);
  if (confirmSeconds === null) return { ok: false, message: `--confirm expects a duration in whole seconds such as 60s, 2m or 90, got "${confirmRaw}"` };
  if (confirmSeconds !== undefined && confirmSeconds < MIN_STEP_SECONDS)
    return { ok: false, message: `--confirm ${confirmRaw}: the confirmation run's window must be at least ${MIN_STEP_SECONDS}s` };

  const int = (flag: OwnFlag, dflt: number): number | string => {
    const v = own.get(flag);
    if (v === undefined) return dflt;
    if (!/^\d+$/.test(v.replaceAll(",", "")) || Number(v.replaceAll(",", "")) < 1) return `--${flag} expects a whole number of at least 1, got "${v}"`;
    return Number(v.replaceAll(",", ""));
  };
  const startRate = int("start-rate", DEFAULT_START_RATE);
  const maxRate = int("max-rate", DEFAULT_MAX_RATE);
  const maxSteps = int("max-steps", SEARCH_DEFAULTS.maxSteps);
  for (const v of [startRate, maxRate, maxSteps]) if (typeof v === "string") return { ok: false, message: v };
  if ((startRate as number) > (maxRate as number))
    return { ok: false, message: `--start-rate ${startRate} is above --max-rate ${maxRate}: start at or below the maximum` };
  const precRaw = own.get("precision");
  let precision = SEARCH_DEFAULTS.precision;
  if (precRaw !== undefined) {
    const pm = /^(\d+(?:\.\d+)?)\s*%?$/.exec(precRaw.trim());
    const p = pm ? Number(pm[1]) / 100 : Number.NaN;
    if (!(p > 0 && p < 1)) return { ok: false, message: `--precision expects a percentage between 0 and 100 such as 10% or 5, got "${precRaw}"` };
    precision = p;
  }
  const json = own.get("json");
  if (json !== undefined && json.trim() === "") return { ok: false, message: "--json needs a file name" };
  return {
    ok: true,
    args: {
      config,
      target: bench.options.target,
      slo: slo.slo,
      metric: metric.metric,
      stepSeconds,
      ...(confirmSeconds !== undefined ? { confirmSeconds } : {}),
      search: { ...SEARCH_DEFAULTS, startRate: startRate as number, maxRate: maxRate as number, maxSteps: maxSteps as number, precision },
      ...(json ? { json } : {}),
      ...(bench.options.html ? { html: bench.options.html } : {}),
      save: bench.options.save,
      ...(bench.options.labels ? { labels: bench.options.labels } : {}),
    },
  };
}

export async function main(argv: string[], io: Io): Promise<number> {
  const parsed = parseCeilingArgs(argv);
  if (parsed.ok === "help") {
    io.out(ceilingUsage());
    return 0;
  }
  if (!parsed.ok) {
    io.err(`bench ceiling: ${parsed.message}`);
    return 2;
  }
  const a = parsed.args;
  const htmlProblem = a.html === undefined ? null : htmlPathProblem(a.html);
  if (htmlProblem) {
    io.err(`bench ceiling: ${htmlProblem}`);
    return 2;
  }
  let env: ReturnType<typeof readEnv>;
  try {
    env = readEnv();
  } catch (e) {
    io.err(`bench ceiling: ${(e as Error).message}`);
    return 2;
  }
  const flagOf = (field: string) => {
    const f = definitionOf(a.config).fields.find((x) => x.name === field)?.cli;
    return f ? `${f.ours ? "--" : "-"}${f.flag}` : field;
  };
  const tooBig = memoryProblem(a.config, env.RUNNER_MEMORY_BUDGET_MB, flagOf);
  if (tooBig) {
    io.err(`bench ceiling: ${tooBig.message}`);
    return 2;
  }
  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    if (++interrupts > 1) process.exit(130);
    io.err(`\nbench ceiling: stopping within ${STOP_MS / 1000} s after keeping the steps done (Ctrl-C again to quit at once)…`);
    controller.abort();
    // Whatever the target and the control store do (a frozen server never fails a call), within the time stated.
    quitAfter(STOP_MS, () => `bench ceiling: did not stop within ${STOP_MS / 1000} s (the target or the control store did not answer); quitting`);
  };
  process.on("SIGINT", onSigint);
  process.on("SIGTERM", onSigint);
  let release: () => Promise<void> = async () => undefined;
  let save: Awaited<ReturnType<typeof openSave>> | undefined;
  let cancelPoll: NodeJS.Timeout | undefined;
  try {
    const target = await resolveTarget(a.target, io.out);
    release = target.release;
    if (a.save) {
      // The control store: DATABASE_URL, else the control store's embedded server of DATA_DIR (a running start's,
      // or one started for this command).
      let controlUrl = env.DATABASE_URL;
      if (!controlUrl) {
        const embedded = await useCluster(dataDir(env), "control", env.EMBEDDED_PG_PORT);
        io.out(embeddedNote(embedded, env, "control"));
        const releaseTarget = release;
        release = async () => {
          await releaseTarget();
          await embedded.stop();
        };
        controlUrl = embedded.url(CONTROL_DB);
      }
      save = await openSave(controlUrl, a, target.label, (l) => io.err(`bench ceiling: ${l}`));
      io.out(`saving as ceiling search ${save.id} (the app shows it at /ceilings/${save.id})`);
      const s = save;
      cancelPoll = setInterval(
        () =>
          void s.cancelRequested().then(
            (yes) => yes && controller.abort(),
            () => undefined,
          ),
        500,
      );
    }
    const c = a.config;
    const confirmSeconds = confirmSecondsOf(a);
    const unit = searchUnit(c.kind, c);
    const from = a.metric.scheduled ? `${a.metric.scheduled.label}` : a.metric.label;
    io.out(`ceiling search: ${c.kind} on ${target.label}: ${searchKnobs(c)}`);
    io.out(
      `goal ${from} ${sloText(a.slo)}; steps of ${a.stepSeconds} s measured after ${c.warmupSeconds} s warm-up; from ${a.search.startRate.toLocaleString("en-US")} ${perSecond(unit)}, at most ${a.search.maxRate.toLocaleString("en-US")} ${perSecond(unit)}, until the bracket is within ${a.search.precision * 100}%; the rate found is confirmed by a ${confirmSeconds} s run`,
    );
    const result = await findCeiling({
      base: c,
      targetUrl: target.url,
      slo: a.slo,
      metric: a.metric,
      stepSeconds: a.stepSeconds,
      confirmSeconds,
      warmupSeconds: c.warmupSeconds,
      search: a.search,
      signal: controller.signal,
      ...save?.recorder.hooks,
      onStep: async (s, summary, samples) => {
        io.out(stepLine(s, unit));
        await save?.recorder.hooks.onStep?.(s, summary, samples);
      },
    });
    if (save) {
      const status = statusOfStop(result.stop);
      const error =
        status === "cancelled" ? "cancelled (Ctrl-C or a cancel request); the steps done are kept" : result.error ? maskUrl(result.error) : undefined;
      await save.recorder.finish(result, status, error);
    }
    io.out("");
    for (const l of resultLines(result, a.slo, result.steps[0]?.goal.label ?? from, unit)) io.out(l);
    if (a.json) {
      const file = path.resolve(a.json);
      const doc = {
        kind: "ceiling",
        workload: c.kind,
        config: c,
        target: target.label,
        slo: sloText(a.slo),
        metric: a.metric.name,
        stepSeconds: a.stepSeconds,
        confirmSeconds,
        warmupSeconds: c.warmupSeconds,
        search: a.search,
        result: {
          ...outcomeOf(result),
          // What the result lines say it is: confirmed ceiling, confirmed or unconfirmed lower bound, none, …
          outcome: answerOfResult(result, a.slo, result.steps[0]?.goal.label ?? from, unit).kind,
          error: result.error ?? null,
        },
        steps: result.steps,
      };
      writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
      io.out(`search written to ${file}`);
    }
    if (a.html) await writeHtml(a, a.html, { result, id: save?.id, targetLabel: target.label }, io);
    return result.stop === "failed" || result.stop === "cancelled" ? 1 : 0;
  } catch (err) {
    io.err(`bench ceiling: ${maskUrl((err as Error).message)}`);
    return 1;
  } finally {
    if (cancelPoll) clearInterval(cancelPoll);
    process.off("SIGINT", onSigint);
    process.off("SIGTERM", onSigint);
    await save?.close().catch(() => undefined);
    await release().catch(() => undefined);
  }
}

/** --save: the search stored as it runs by a registered (heart-beating) runner, as the bench's --save stores a run. */
async function openSave(controlUrl: string, a: CeilingArgs, targetLabel: string, onProblem: (line: string) => void) {
  const runner = await cliRunner(controlUrl);
  const { db, runnerId } = runner;
  const store = await import("../../lib/ceiling/store");
  const settings = settingsOf(a);
  const s = await store.createSearch({ config: a.config, settings, targetLabel, source: "cli", status: "running", labels: a.labels }, db);
  await db.ceilingSearch.update({ where: { id: s.id }, data: { runnerId, startedAt: new Date() } });
  return {
    id: s.id,
    recorder: searchRecorder(db, s.id, onProblem, () => false),
    cancelRequested: () => store.isSearchCancelRequested(s.id, db),
    close: runner.close,
  };
}

/** The search's settings as the control store keeps them (and the app and its report read them). */
function settingsOf(a: CeilingArgs) {
  return CeilingSettings.parse({
    slo: sloText(a.slo),
    metric: a.metric.name,
    stepSeconds: a.stepSeconds,
    ...(a.confirmSeconds !== undefined ? { confirmSeconds: a.confirmSeconds } : {}),
    startRate: a.search.startRate,
    maxRate: a.search.maxRate,
    precisionPercent: a.search.precision * 100,
    maxSteps: a.search.maxSteps,
  });
}

/** --html: the search as the app's export shows it (its answer, curves, steps), saved or not; said where it went. */
async function writeHtml(
  a: CeilingArgs,
  file: string,
  r: { result: Awaited<ReturnType<typeof findCeiling>>; id?: string; targetLabel: string },
  io: Io,
): Promise<void> {
  const [{ renderCeilingReport }, { ceilingCommand }] = await Promise.all([import("../../components/report/render"), import("../../lib/ceiling/command")]);
  const settings = settingsOf(a);
  const now = new Date().toISOString();
  const view = {
    id: r.id ?? "not saved",
    workload: a.config.kind,
    config: a.config,
    settings,
    targetId: null,
    targetLabel: r.targetLabel,
    status: statusOfStop(r.result.stop),
    cancelRequested: false,
    createdAt: r.result.steps[0]?.startedAt ?? now,
    startedAt: r.result.steps[0]?.startedAt ?? null,
    finishedAt: now,
    error: r.result.error ? maskUrl(r.result.error) : null,
    progress: null,
    result: outcomeOf(r.result),
    steps: r.result.steps,
    labels: a.labels ? labelColumns(a.labels) : { name: null, notes: null, tags: [] },
  };
  const command = ceilingCommand(a.config, settings, a.target ? maskUrl(a.target) : undefined);
  const out = path.resolve(file);
  try {
    writeFileSync(out, renderCeilingReport({ view, others: [], command }, { exportedAt: now }));
    io.out(`report written to ${out}`);
  } catch (err) {
    io.err(`bench ceiling: the report could not be written to ${out}: ${(err as Error).message}`);
  }
}
