// One run of `npm run bench` from its command line (runner/cli.ts main hands it over once a run is asked, so --help
// never loads the engine, the embedded servers or the control store): parse, open the target (and the control
// store for --save), run — once, or a set: the pairs of an A/B (--variant both), the levels of the synchronous
// commit ladder (--sync-commit, ./cli-ladder.ts) — print, --json, --save.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type AbSlot, abOrder } from "../lib/compare/ab-order";
import { abStats, abStatsText, completedPairs } from "../lib/compare/ab-stats";
import { type Env, readEnv, dataDir } from "../lib/env";
import type { RunSummary } from "../lib/measurement/summary";
import type { Sample } from "../lib/measurement/sample";
import { labelColumns, memberName } from "../lib/runs/labels";
import { hgrmOf, histogramsOf, hlogOf } from "../lib/measurement/hdr-export";
import { knobsParts } from "../lib/runs/format";
import { defaultTargetName } from "../lib/targets/default-target";
import { identityOf, type ServerIdentity } from "../lib/targets/connect";
import { describeUrl, maskUrl } from "../lib/targets/pgurl";
import { definitionOf, WorkloadConfig } from "../lib/workloads/config";
import { memoryProblem } from "../lib/workloads/memory";
import { CONTROL_DB, type EmbeddedServer, StartupError, TARGET_DB, useCluster } from "../platform/embedded";
import type { SyncCommitLevel } from "../lib/sync-commit";
import { type CliOptions, parseArgs, usage, workloadUsage } from "./cli-args";
import { ladderAsked, ladderSet, type RunSet, type SetContext, type SetRun } from "./cli-ladder";
import { htmlPathProblem, sampleKeeper, writeCliReport } from "./cli-html";
import { cliRunner } from "./cli-runner";
import { embeddedNote } from "./default-target";
import { RunCancelled, runWorkload, verificationError } from "./engine";
import { liveLine, summaryText } from "./format";
import { clusterLine, clusterShape, openReplicated, type UsedCluster } from "./replicated-target";
import { applyGating, loadBaseline } from "./gate-cli";
import { repeatAsked, repeatSet } from "./cli-repeat";
import { quitAfter, STOP_MS } from "./stop";

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

export interface RunOutcome {
  code: number;
  summary?: RunSummary;
  /** Every run's summary, a set's in the order run. */
  summaries?: RunSummary[];
  error?: string;
  runId?: string;
  cancelled?: boolean;
}

type Save = Awaited<ReturnType<typeof openSave>>;

/** What one command line's runs share: how to print, the target, the control store, the cancel, the --save. */
interface CliSession {
  io: CliIo;
  opts: CliOptions;
  env: Env;
  controller: AbortController;
  interrupts: number;
  save?: Save;
  cancelPoll?: NodeJS.Timeout;
  targetUrl: string;
  targetLabel: string;
  controlUrl: string;
  controlStore: ServerIdentity | null;
  embedded?: EmbeddedServer & { owned: boolean };
  embeddedControl?: EmbeddedServer & { owned: boolean };
  /** --replicas: the embedded replicated target (runner/replicated-target.ts). */
  replicated?: UsedCluster;
}

/** The configs to run: the one asked, or a set's (an A/B's N pairs in balanced ABBA order, a synchronous commit ladder's levels). */
interface RunPlan {
  configs: WorkloadConfig[];
  set?: RunSet;
  /** The set's --html (an A/B's report). */
  html?: string;
}

/** One run from its command line (or the two of `--variant both`): parse, run, print, --json, --save. */
export async function runOnce(argv: string[], io: CliIo): Promise<RunOutcome> {
  // `--variant both`: the workload's baseline and modded variants, one after the other (lib/compare/ab.ts).
  const both = await bothVariants(argv);
  if (both && "error" in both) {
    io.err(`bench: ${both.error}`);
    return { code: 2 };
  }
  // `--sync-commit LEVELS [--repeats N]`: the config at each synchronous_commit level (./cli-ladder.ts).
  const ladder = ladderAsked(both ? both.argv : argv);
  if (ladder && "error" in ladder) {
    io.err(`bench: ${ladder.error}`);
    return { code: 2 };
  }
  // `--repeat N`: the config N times as one set (./cli-repeat.ts).
  const repeat = repeatAsked(ladder ? ladder.argv : both ? both.argv : argv);
  if (repeat && "error" in repeat) {
    io.err(`bench: ${repeat.error}`);
    return { code: 2 };
  }
  const parsed = parseArgs(repeat ? repeat.argv : ladder ? ladder.argv : both ? both.argv : argv);
  if (parsed.kind === "help") {
    io.out(parsed.workload ? workloadUsage(parsed.workload) : usage());
    return { code: 0 };
  }
  if (parsed.kind === "error") {
    io.err(`bench: ${parsed.message}`);
    return { code: 2 };
  }
  const opts = parsed.options;
  const set = setOf(opts, both, ladder, repeat?.repeat);
  if (typeof set === "string") {
    io.err(`bench: ${set}`);
    return { code: 2 };
  }
  // An A/B's --html is the set's report (its pairs and intervals), not each run's: taken from the runs' options.
  const htmlProblem =
    opts.html === undefined
      ? null
      : ladder
        ? "--html writes a run's or an A/B's report: for the synchronous commit ladder, add --save and export each run from the app"
        : htmlPathProblem(opts.html);
  const setHtml = set ? opts.html : undefined;
  if (set) opts.html = undefined;
  if (htmlProblem) {
    io.err(`bench: ${htmlProblem}`);
    return { code: 2 };
  }
  const env = checkedEnv(opts.config, io);
  if (!env) return { code: 2 };
  if (opts.gating && set && !repeat) {
    io.err("bench: --gate and --baseline check one run or its repeats (--repeat N); an A/B or a ladder compares its runs itself: give one or the other");
    return { code: 2 };
  }
  // Read before the run, so that a baseline that is not there refuses the command before a run is spent.
  const baseline = opts.gating?.baseline === undefined ? undefined : await loadBaseline(opts.gating.baseline, env, (l) => io.out(l));
  if (typeof baseline === "string") {
    io.err(`bench: ${baseline}`);
    return { code: 2 };
  }
  const s: CliSession = {
    ...{ io, opts, env, controller: new AbortController(), interrupts: 0 },
    ...{ targetUrl: "", targetLabel: "", controlUrl: "", controlStore: null },
  };
  const onSigint = interruptHandler(s);
  process.on("SIGINT", onSigint);
  process.on("SIGTERM", onSigint);
  try {
    await openTargets(s);
    const outcome = await runPlan(s, { configs: set?.configs ?? [opts.config], set, html: setHtml });
    if (!opts.gating) return outcome;
    // Gates are checked on finished runs' summaries: a run that failed or was cancelled has none to check (a set's
    // gates need every repeat: fewer would be other figures than the ones asked).
    if (!outcome.summaries?.length || outcome.cancelled || outcome.summaries.length < (set?.configs.length ?? 1)) {
      io.err("bench: the gates were not checked: the run did not finish");
      return outcome;
    }
    return { ...outcome, code: applyGating(outcome.summaries, outcome.runId ?? null, opts.gating, baseline, io, outcome.code) };
  } catch (err) {
    io.err(`bench: ${err instanceof StartupError ? err.message : (err as Error).message}`);
    return { code: 1, error: (err as Error).message };
  } finally {
    if (s.cancelPoll) clearInterval(s.cancelPoll);
    process.off("SIGINT", onSigint);
    process.off("SIGTERM", onSigint);
    await s.save?.close().catch(() => undefined);
    await Promise.all([s.embedded, s.embeddedControl, s.replicated].map((c) => c?.stop().catch(() => undefined)));
  }
}

/** The environment, or null (said) when unreadable or when the run is more than this process could hold. */
function checkedEnv(config: WorkloadConfig, io: CliIo): Env | null {
  let env: Env;
  try {
    env = readEnv();
  } catch (e) {
    io.err(`bench: ${(e as Error).message}`);
    return null;
  }
  // Before connecting anywhere: a run this process could not hold is refused, naming the flags to lower.
  const flagOf = (field: string) => {
    const f = definitionOf(config).fields.find((x) => x.name === field)?.cli;
    return f ? `${f.ours ? "--" : "-"}${f.flag}` : field;
  };
  const tooBig = memoryProblem(config, env.RUNNER_MEMORY_BUDGET_MB, flagOf);
  if (tooBig) {
    io.err(`bench: ${tooBig.message}`);
    return null;
  }
  return env;
}

/** Ctrl-C (or SIGTERM): cancels the run, and ends the CLI within STOP_MS whatever the target does; twice quits. */
function interruptHandler(s: CliSession): () => void {
  const { io } = s;
  return () => {
    if (++s.interrupts > 1) process.exit(130);
    io.err(`\nbench: stopping within ${STOP_MS / 1000} s (Ctrl-C again to quit at once)…`);
    s.controller.abort();
    // Whatever the target and the control store do, Ctrl-C ends the CLI within the time it just stated.
    quitAfter(STOP_MS, () => {
      const unsaved = s.save?.unsaved();
      return maskUrl(
        `bench: did not stop within ${STOP_MS / 1000} s (the target or the control store did not answer)${unsaved ? `; not saved: run ${s.save!.runId}'s ${unsaved}` : ""}; quitting`,
      );
    });
  };
}

/** The target (the default one: an embedded cluster of DATA_DIR), and for --save the control store likewise. */
async function openTargets(s: CliSession): Promise<void> {
  const { io, opts, env } = s;
  if (opts.replicas) {
    const r = await openReplicated({ replicas: opts.replicas, replicaDelayMs: opts.replicaDelayMs }, env);
    s.replicated = r.cluster;
    io.out(clusterLine(r.cluster));
    for (const n of r.cluster.notes) io.out(`  ${n}`);
    [s.targetUrl, s.targetLabel] = [r.url, r.label];
  } else if (!opts.target && !env.TARGET_DATABASE_URL) {
    s.embedded = await useCluster(dataDir(env), "target", env.EMBEDDED_TARGET_PG_PORT);
    io.out(embeddedNote(s.embedded, env, "target"));
  }
  if (opts.save && !env.DATABASE_URL) {
    s.embeddedControl = await useCluster(dataDir(env), "control", env.EMBEDDED_PG_PORT);
    io.out(embeddedNote(s.embeddedControl, env, "control"));
  }
  if (!s.replicated) {
    s.targetUrl = opts.target ?? env.TARGET_DATABASE_URL ?? s.embedded!.url(TARGET_DB);
    // The default target gets the name the app gives it, so a --save run and an app run on one database match.
    s.targetLabel = opts.target ? describeUrl(s.targetUrl) : defaultTargetName({ embedded: !env.TARGET_DATABASE_URL, url: s.targetUrl });
  }
  s.controlUrl = opts.save ? (env.DATABASE_URL ?? s.embeddedControl!.url(CONTROL_DB)) : "";
  // The app's control store, when this command knows it: a --target that is its database is refused by the engine.
  // (Without --save the embedded control cluster is not started here; a database holding a control store is still
  // refused by what it holds.)
  const knownControl = s.controlUrl || env.DATABASE_URL || s.embeddedControl?.url(CONTROL_DB);
  s.controlStore = knownControl ? await identityOf(knownControl) : null;
}

/** Stores a run as it goes (--save), and cancels it when the app asks. */
async function startSaving(s: CliSession, config: WorkloadConfig, name?: string | null): Promise<void> {
  const save = await openSave(
    s.controlUrl,
    { ...s.opts, config, ...(name ? { labels: { ...s.opts.labels, name } } : {}) },
    s.targetLabel,
    (l) => s.io.err(`bench: ${l}`),
    () => s.interrupts > 0,
  );
  s.save = save;
  s.io.out(`saving as run ${save.runId}`);
  s.cancelPoll = setInterval(
    () =>
      void save.cancelRequested().then(
        (yes) => yes && s.controller.abort(),
        () => undefined,
      ),
    500,
  );
}

/** The set a command line asks for, or a message when it asks for two (an A/B and a ladder) or a level twice. */
function setOf(
  opts: CliOptions,
  both: { pairs: number } | null,
  ladder: { levels: SyncCommitLevel[]; repeats: number } | null,
  repeat: number | undefined,
): RunSet | undefined | string {
  if (both && ladder) return "--variant both and --sync-commit are two sets of runs: give one (an A/B, or the synchronous commit ladder)";
  if (repeat && (both || ladder))
    return `--repeat runs one config N times; ${both ? "an A/B repeats its pairs with --pairs N" : "the ladder repeats its levels with --repeats N"}: give one`;
  if (repeat) return repeatSet(opts.config, repeat, opts.json);
  if (ladder && opts.config.synchronousCommit)
    return `--synchronous-commit ${opts.config.synchronousCommit} sets one level, --sync-commit runs each of its levels: give one`;
  if (ladder) return ladderSet(opts.config, ladder.levels, ladder.repeats);
  return both ? abSet(opts, both.pairs) : undefined;
}

/** One run, or a set's runs one after the other (an A/B's, a ladder's): each an ordinary run of its own. */
async function runPlan(s: CliSession, plan: RunPlan): Promise<RunOutcome> {
  const { io, opts } = s;
  const { set } = plan;
  const results: SetRun[] = [];
  let code = 0;
  let last: { error?: string; runId?: string; cancelled?: boolean } = {};
  for (const [i, config] of plan.configs.entries()) {
    if (i > 0) {
      clearInterval(s.cancelPoll);
      await s.save?.close().catch(() => undefined);
      s.save = undefined;
      if (s.controller.signal.aborted) break;
      io.out("");
    }
    // A set's run is named after the set and its place in it ("WAL test · modded, pair 2"); its tags and notes are the set's.
    if (opts.save) await startSaving(s, config, set && opts.labels?.name ? memberName(opts.labels.name, set.place(i)) : undefined);
    if (set) io.out(set.heading(i));
    const r = await runOne(s, config, set ? set.jsonFor(i) : opts.json, opts.histograms && set ? path.join(opts.histograms, `run-${i + 1}`) : opts.histograms);
    last = { error: r.error, runId: s.save?.runId, cancelled: r.cancelled };
    if (r.summary) results.push({ summary: r.summary, runId: s.save?.runId, slot: i });
    code = Math.max(code, r.code);
    if (r.code && !r.summary) break;
  }
  if (set && results.length > 0)
    await set.report(
      { out: io.out, err: io.err, targetLabel: s.targetLabel, controlUrl: s.controlUrl, json: opts.json, labels: opts.labels, html: plan.html },
      results,
    );
  return { code, summary: results.at(-1)?.summary, summaries: results.map((r) => r.summary), ...last };
}

/** The A/B as a set: N pairs of the two variants in ABBA order, each run's --json beside the asked file, then its intervals. */
function abSet(opts: CliOptions, pairs: number): RunSet {
  const slots = abOrder(pairs);
  return {
    configs: slots.map((x) => WorkloadConfig.parse({ ...opts.config, variant: x.variant })),
    heading: (i) => `--- pair ${slots[i].pair} of ${pairs}: ${slots[i].variant} ---`,
    place: (i) => `${slots[i].variant}, pair ${slots[i].pair}`,
    jsonFor: (i) => opts.json?.replace(/(\.json)?$/i, `.${slots[i].variant}.${slots[i].pair}$1`),
    report: (c, done) => printAb(c, slots, pairs, done),
  };
}

/** The A/B of the completed pairs with its noise; with --save, the group is recorded for the app's A/B page. */
async function printAb(c: SetContext, slots: ReturnType<typeof abOrder>, pairsAsked: number, done: SetRun[]) {
  const io = c;
  const ran = done.map((d) => ({ ...slots[d.slot], runId: d.runId ?? `run ${d.slot + 1}` }));
  const byId = new Map(ran.map((x, k) => [x.runId, done[k].summary]));
  const { pairs, leftOut } = completedPairs(ran, (id) => ({ status: "completed", summary: byId.get(id) }));
  const notRun = [...new Set(slots.map((x) => x.pair))].filter((p) => !pairs.some((x) => x.pair === p) && !leftOut.includes(p));
  io.out("");
  io.out(`=== baseline → modded (${done[0].summary.workload}) ===`);
  if (!pairs.length) return io.out("no pair completed both its runs: nothing to compare");
  const stats = abStats(
    pairs,
    [...leftOut, ...notRun].sort((a, b) => a - b),
  );
  io.out(abStatsText(stats));
  const saved = done.every((d) => d.runId);
  if (!saved) io.out("add --save to store the runs and see the A/B in the app");
  const groupId = saved ? await storeAbGroup(c, done, ran, pairsAsked) : null;
  if (c.html) {
    const { writeAbReport } = await import("./cli-html");
    const written = await writeAbReport(c.html, { groupId, ran, done, stats, targetLabel: c.targetLabel });
    if ("err" in written) io.err(`bench: ${written.err}`);
    else io.out(written.out);
  }
}

/** With --save, the group recorded for the app's A/B page: its id, said with its address; null when not stored. */
async function storeAbGroup(c: SetContext, done: SetRun[], ran: AbSlot[], pairsAsked: number): Promise<string | null> {
  const io = c;
  const { createAbGroup } = await import("../lib/compare/ab-store");
  const { prisma } = await import("../lib/db");
  const { variant: _, ...shared } = done[0].summary.config as Record<string, unknown> & { kind: string };
  const id = await createAbGroup(
    { config: { ...shared, kind: done[0].summary.workload }, pairs: pairsAsked, slots: ran, targetLabel: c.targetLabel, labels: labelColumns(c.labels) },
    prisma(c.controlUrl),
  ).catch((err: Error) => (io.err(`bench: the A/B group was not stored: ${err.message}`), null));
  if (id) io.out(`in the app: /runs/ab?group=${id}`);
  return id;
}

/** --histograms DIR: each latency's merged histogram of the window as .hlog and .hgrm; a folder it cannot write is said. */
function writeHistograms(summary: RunSummary, dir: string, io: CliIo) {
  const at = path.resolve(dir);
  try {
    mkdirSync(at, { recursive: true });
    const refs = histogramsOf(summary);
    for (const h of refs) {
      writeFileSync(path.join(at, `${h.name}.hlog`), hlogOf(summary, h));
      writeFileSync(path.join(at, `${h.name}.hgrm`), hgrmOf(summary.histograms[h.operation][h.kind]!));
    }
    io.out(`histograms written to ${at}: ${refs.map((h) => h.name).join(", ")} (.hlog and .hgrm each)`);
  } catch (err) {
    io.err(`bench: cannot write the histograms to ${at}: ${(err as Error).message}`);
  }
}

/** Stores the run's outcome (--save); says what was not saved when the control store did not take it. */
async function saveOutcome(s: CliSession, outcome: Parameters<Save["finish"]>[0]): Promise<boolean> {
  if (!s.save) return false;
  try {
    await s.save.finish(outcome);
    return true;
  } catch (err) {
    s.io.err(`bench: ${(err as Error).message}`);
    return false;
  }
}

/** One engine run: its live lines, its summary printed (and written with --json, stored with --save). */
async function runOne(s: CliSession, config: WorkloadConfig, json: string | undefined, histograms: string | undefined): Promise<RunOutcome> {
  const { io, save } = s;
  io.out(`${config.kind} on ${s.targetLabel}: ${knobsParts(config).join(", ")}; warm-up ${config.warmupSeconds} s`);
  const kept = sampleKeeper();
  const startedAt = new Date();
  const report = (r: { status: "completed" | "failed" | "cancelled"; error?: string; summary?: RunSummary }) =>
    htmlReport(s, { ...r, config, startedAt, samples: kept.samples });
  let summary: RunSummary;
  try {
    summary = await runWorkload(config, s.targetUrl, {
      signal: s.controller.signal,
      runId: save?.runId,
      controlStore: s.controlStore,
      log: (l) => io.out(`  ${l}`),
      onReport: (r) => io.out(liveLine(r, config.kind)),
      onPhase: (p) => {
        save?.phase(p);
        if (p === "draining" || p === "verifying") io.out(`  ${p}…`);
      },
      onSample: (x) => {
        kept.keep(x);
        save?.sample(x);
      },
      // The CLI forks every part itself; it says so when that is more than RUNNER_MAX_LOCAL_PARTS.
      maxLocalParts: s.env.RUNNER_MAX_LOCAL_PARTS,
    });
  } catch (err) {
    const cancelled = err instanceof RunCancelled;
    const notes = cancelled ? err.notes.map((n) => `; ${n}`).join("") : "";
    io.err(cancelled ? `bench: cancelled${notes}` : `bench: ${(err as Error).message}`);
    const outcome = cancelled
      ? { status: "cancelled" as const, error: `cancelled (Ctrl-C or a cancel request)${notes}` }
      : { status: "failed" as const, error: (err as Error).message };
    await saveOutcome(s, outcome);
    await report(outcome);
    return { code: 1, cancelled, error: (err as Error).message };
  }
  if (s.replicated) summary.manifest.cluster = clusterShape(s.replicated);
  io.out("");
  io.out(summaryText(summary, s.targetLabel, s.opts.labels));
  if (json) {
    const file = path.resolve(json);
    // The labels ride beside the summary (a run not saved has them nowhere else); RunSummary's parse drops them on reading.
    const written = s.opts.labels ? { ...summary, labels: labelColumns(s.opts.labels) } : summary;
    writeFileSync(file, `${JSON.stringify(written, null, 2)}\n`);
    io.out(`summary written to ${file}`);
  }
  if (histograms) writeHistograms(summary, histograms, io);
  const verr = verificationError(summary);
  const outcome = verr ? { status: "failed" as const, summary, error: verr } : { status: "completed" as const, summary };
  // Stored first, then the report (which names the stored run's id): a file that cannot be written loses no run.
  const stored = save ? await saveOutcome(s, outcome) : false;
  if (save && stored) io.out(`stored as run ${save.runId}`);
  if (!(await report(outcome))) return { code: 1, summary, error: "the report could not be written" };
  if (save && !stored) return { code: 1, summary, error: "the run could not be stored" };
  if (verr) {
    io.err(`bench: ${verr}`);
    return { code: 1, summary, error: verr };
  }
  return { code: 0, summary };
}

/** --html: the run's report written (true), or not asked; false (said) when the file could not be written. */
async function htmlReport(
  s: CliSession,
  r: { status: "completed" | "failed" | "cancelled"; error?: string; summary?: RunSummary; config: WorkloadConfig; startedAt: Date; samples: Sample[] },
): Promise<boolean> {
  if (!s.opts.html) return true;
  const written = await writeCliReport({
    ...r,
    file: s.opts.html,
    runId: s.save?.runId,
    targetLabel: s.targetLabel,
    maskedTarget: s.opts.target ? maskUrl(s.opts.target) : undefined,
    ...(s.opts.labels ? { labels: labelColumns(s.opts.labels) } : {}),
    targetArgs: s.opts.replicas ? ["--replicas", String(s.opts.replicas)] : [],
  });
  if ("err" in written) s.io.err(`bench: ${written.err}`);
  else s.io.out(written.out);
  return "out" in written;
}

/**
 * Control-store bookkeeping for --save: the run is stored as it goes, by a registered (heart-beating) runner.
 * `stopping`: true after Ctrl-C; what the control store has not taken by then gets a short wait, then is given up.
 */
async function openSave(controlUrl: string, opts: CliOptions, targetLabel: string, onProblem: (line: string) => void, stopping: () => boolean) {
  const runner = await cliRunner(controlUrl);
  const { db, runnerId } = runner;
  const runs = await import("../lib/runs/store");
  const { runRecorder } = await import("../lib/runs/recorder");
  const run = await runs.createRun({ config: opts.config, targetLabel, source: "cli", status: "running", labels: opts.labels }, db);
  await db.run.update({ where: { id: run.id }, data: { runnerId, startedAt: new Date(), phase: "setup" } });
  // The same recorder as the runner's (lib/runs/recorder.ts): phases, samples and the outcome stored alike.
  const recorder = runRecorder(run.id, db, onProblem, stopping);
  return { ...recorder, close: runner.close };
}

/**
 * `--variant both [--pairs N]` (any spelling of the flags): the argv with `baseline` in its place and --pairs taken
 * out, or null when not asked; an error when --pairs is not a whole number from 1 to MAX_PAIRS or comes without
 * --variant both. The CLI then runs N pairs of the two variants in ABBA order with the same flags.
 */
async function bothVariants(argv: string[]): Promise<{ argv: string[]; pairs: number } | { error: string } | null> {
  const { Pairs } = await import("../lib/compare/ab-order");
  const out = [...argv];
  let pairsIn: string | undefined;
  const at = out.findIndex((a) => /^--?pairs(=.*)?$/.test(a));
  if (at >= 0) {
    const eq = out[at].indexOf("=");
    pairsIn = eq >= 0 ? out[at].slice(eq + 1) : out[at + 1];
    out.splice(at, eq >= 0 ? 1 : 2);
  }
  for (let i = 0; i < out.length; i++) {
    const m = /^--?variant(=both)?$/.exec(out[i]);
    if (!m) continue;
    if (m[1]) out[i] = out[i].replace(/=both$/, "=baseline");
    else if (out[i + 1] === "both") out[i + 1] = "baseline";
    else break;
    const n = pairsIn === undefined ? undefined : /^\d+$/.test(pairsIn) ? Number(pairsIn) : Number.NaN;
    const pairs = Pairs.safeParse(n);
    return pairs.success ? { argv: out, pairs: pairs.data } : { error: `--pairs ${pairsIn ?? ""}: ${pairs.error.issues[0].message}` };
  }
  return pairsIn === undefined ? null : { error: "--pairs applies to an A/B only: add --variant both (e.g. --variant both --pairs 3)" };
}
