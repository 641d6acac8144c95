// `npm run bench -- pubsub|queue [flags]`: the same engine as the runner, headless. Prints a live line every
// report interval and a summary table; --json writes the summary, --save stores the run (live) so the app
// shows it. `npm run bench -- compare …` is handed to runner/compare-cli.ts.
import "../platform/node-floor";
// Only what reading the command line needs is imported here: --help answers at once, and the engine, the
// embedded servers and the control store are loaded once a run is asked for (runOnce).
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { EmbeddedServer } from "../platform/embedded";
import type { Env } from "../lib/env";
import { maskUrl } from "../lib/targets/pgurl";
import type { WorkloadConfig } from "../lib/workloads/config";
import type { RunSummary } from "../lib/measurement/summary";
import { helpAsked, parseArgs, usage, workloadUsage, type CliOptions } from "./cli-args";
import type { SweepPoint } from "../workloads/runtime";

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}
const consoleIo: CliIo = { out: (l) => console.log(l), err: (l) => console.error(l) };

/** The longest the control store is waited for when closing --save's connection. */
const CLOSE_MS = 1500;

/**
 * Control-store bookkeeping for --save: the run is stored as it goes, by a registered (heart-beating) runner.
 * `stopping`: true after Ctrl-C; what the control store has not taken by then gets a short wait, then is given up.
 */
async function openSave(controlUrl: string, opts: CliOptions, targetLabel: string, onProblem: (line: string) => void, stopping: () => boolean) {
  const { within } = await import("./stop");
  const { migrate } = await import("../platform/migrate");
  await migrate(controlUrl);
  const { prisma } = await import("../lib/db");
  const runs = await import("../lib/runs/store");
  const runners = await import("../lib/status/runners");
  const { runRecorder } = await import("../lib/runs/recorder");
  const db = prisma(controlUrl);
  const runnerId = `${os.hostname()}-cli-${process.pid}`;
  await runners.registerRunner(db, runnerId);
  // Heart-beat so the app's sweep does not mark this live run interrupted.
  const beat = setInterval(() => void runners.heartbeat(db, runnerId).catch(() => undefined), 2000);
  const run = await runs.createRun({ config: opts.config, targetLabel, source: "cli", status: "running" }, db);
  await db.run.update({ where: { id: run.id }, data: { runnerId, startedAt: new Date(), phase: "setup" } });
  // The same recorder as the runner's (lib/runs/recorder.ts): phases, samples and the outcome stored alike.
  const recorder = runRecorder(run.id, db, onProblem, stopping);
  return {
    ...recorder,
    async close() {
      clearInterval(beat);
      // Bounded: a frozen control store would hold these for ever (the app's sweep retires a silent runner).
      await within(
        db.runner
          .delete({ where: { id: runnerId } })
          .catch(() => undefined)
          .then(() => db.$disconnect()),
        CLOSE_MS,
      ).catch(() => undefined);
    },
  };
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

export async function main(argv: string[], rawIo: CliIo = consoleIo): Promise<number> {
  // Every line goes through maskUrl: a target URL may carry its password in any libpq form, typed in clear.
  const io: CliIo = { out: (l) => rawIo.out(maskUrl(l)), err: (l) => rawIo.err(maskUrl(l)) };
  if (argv[0] === "compare") {
    // Written by another part of the project; imported lazily so the bench itself never depends on it.
    const spec = "./compare-cli";
    const mod = (await import(spec)) as { main(args: string[]): Promise<number> };
    return mod.main(argv.slice(1));
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
  // A workload's sweep (queued-workflows' `-queues 1,2,4,8`): one ordinary run per value, back to back, then its table.
  const asked = cliSweepFor(argv);
  if (asked?.plan.kind === "error") {
    io.err(`bench: ${asked.plan.message}`);
    return 2;
  }
  if (asked?.plan.kind === "sweep") {
    const { sweep, plan } = asked;
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
    return code;
  }
  return (await runOnce(argv, io)).code;
}

interface RunOutcome {
  code: number;
  summary?: RunSummary;
  error?: string;
  runId?: string;
  cancelled?: boolean;
}

/** One run from its command line (or the two of `--variant both`): parse, run, print, --json, --save. */
async function runOnce(argv: string[], io: CliIo): Promise<RunOutcome> {
  // `--variant both`: the workload's baseline and modded variants, one after the other (lib/compare/ab.ts).
  const both = await bothVariants(argv);
  if (both && "error" in both) {
    io.err(`bench: ${both.error}`);
    return { code: 2 };
  }
  const parsed = parseArgs(both ? both.argv : argv);
  if (parsed.kind === "help") {
    io.out(parsed.workload ? workloadUsage(parsed.workload) : usage());
    return { code: 0 };
  }
  if (parsed.kind === "error") {
    io.err(`bench: ${parsed.message}`);
    return { code: 2 };
  }
  const [
    { defaultTargetName },
    { CONTROL_DB, StartupError, TARGET_DB, useCluster },
    { dataDir, readEnv },
    { memoryProblem },
    { describeUrl },
    { identityOf },
    { abOrder },
    { abStats, abStatsText, completedPairs },
    { definitionOf, WorkloadConfig },
    { knobsParts },
    { quitAfter, STOP_MS },
    { embeddedNote },
    { RunCancelled, runWorkload, verificationError },
    { liveLine, summaryText },
  ] = await Promise.all([
    import("../lib/targets/default-target"),
    import("../platform/embedded"),
    import("../lib/env"),
    import("../lib/workloads/memory"),
    import("../lib/targets/pgurl"),
    import("../lib/targets/connect"),
    import("../lib/compare/ab-order"),
    import("../lib/compare/ab-stats"),
    import("../lib/workloads/config"),
    import("../lib/runs/format"),
    import("./stop"),
    import("./default-target"),
    import("./engine"),
    import("./format"),
  ]);
  const opts = parsed.options;
  const config = opts.config;
  // An A/B: N pairs of the two variants in balanced ABBA order, each an ordinary run.
  const pairsAsked = both ? both.pairs : 0;
  const slots = abOrder(pairsAsked);
  const configs = both ? slots.map((s) => WorkloadConfig.parse({ ...config, variant: s.variant })) : [config];

  let env: Env;
  try {
    env = readEnv();
  } catch (e) {
    io.err(`bench: ${(e as Error).message}`);
    return { code: 2 };
  }
  // Before connecting anywhere: a run this process could not hold is refused, naming the flags to lower.
  const flagOf = (field: string) => {
    const f = definitionOf(config).fields.find((x) => x.name === field)?.cli;
    return f ? `${f.ours ? "--" : "-"}${f.flag}` : field;
  };
  const tooBig = memoryProblem(config, env.RUNNER_MEMORY_BUDGET_MB, flagOf);
  if (tooBig) {
    io.err(`bench: ${tooBig.message}`);
    return { code: 2 };
  }
  // The default target's and (for --save) the control store's embedded servers: two clusters of DATA_DIR.
  let embedded: (EmbeddedServer & { owned: boolean }) | undefined;
  let embeddedControl: (EmbeddedServer & { owned: boolean }) | undefined;
  const controller = new AbortController();
  let interrupts = 0;
  let save: Awaited<ReturnType<typeof openSave>> | undefined;
  const onSigint = () => {
    if (++interrupts > 1) process.exit(130);
    io.err(`\nbench: stopping within ${STOP_MS / 1000} s (Ctrl-C again to quit at once)…`);
    controller.abort();
    // Whatever the target and the control store do, Ctrl-C ends the CLI within the time it just stated.
    quitAfter(STOP_MS, () => {
      const unsaved = save?.unsaved();
      return maskUrl(
        `bench: did not stop within ${STOP_MS / 1000} s (the target or the control store did not answer)${unsaved ? `; not saved: run ${save!.runId}'s ${unsaved}` : ""}; quitting`,
      );
    });
  };
  process.on("SIGINT", onSigint);
  process.on("SIGTERM", onSigint);
  let cancelPoll: NodeJS.Timeout | undefined;
  try {
    if (!opts.target && !env.TARGET_DATABASE_URL) {
      embedded = await useCluster(dataDir(env), "target", env.EMBEDDED_TARGET_PG_PORT);
      io.out(embeddedNote(embedded, env, "target"));
    }
    if (opts.save && !env.DATABASE_URL) {
      embeddedControl = await useCluster(dataDir(env), "control", env.EMBEDDED_PG_PORT);
      io.out(embeddedNote(embeddedControl, env, "control"));
    }
    const targetUrl = opts.target ?? env.TARGET_DATABASE_URL ?? embedded!.url(TARGET_DB);
    // The default target gets the name the app gives it, so a --save run and an app run on one database match.
    const targetLabel = opts.target ? describeUrl(targetUrl) : defaultTargetName({ embedded: !env.TARGET_DATABASE_URL, url: targetUrl });

    const controlUrl = opts.save ? (env.DATABASE_URL ?? embeddedControl!.url(CONTROL_DB)) : "";
    // The app's control store, when this command knows it: a --target that is its database is refused by the engine.
    // (Without --save the embedded control cluster is not started here; a database holding a control store is still
    // refused by what it holds.)
    const knownControl = controlUrl || env.DATABASE_URL || embeddedControl?.url(CONTROL_DB);
    const controlStore = knownControl ? await identityOf(knownControl) : null;
    /** Stores a run as it goes (--save), and cancels it when the app asks. */
    const startSaving = async (config: WorkloadConfig) => {
      const s = await openSave(
        controlUrl,
        { ...opts, config },
        targetLabel,
        (l) => io.err(`bench: ${l}`),
        () => interrupts > 0,
      );
      save = s;
      io.out(`saving as run ${s.runId}`);
      cancelPoll = setInterval(
        () =>
          void s.cancelRequested().then(
            (yes) => yes && controller.abort(),
            () => undefined,
          ),
        500,
      );
    };
    const results: { summary: RunSummary; runId?: string; slot: number }[] = [];
    let code = 0;
    let last: { error?: string; runId?: string; cancelled?: boolean } = {};
    // One run, or the baseline and then the modded variant (--variant both): each an ordinary run of its own.
    for (const [i, config] of configs.entries()) {
      if (i > 0) {
        clearInterval(cancelPoll);
        await save?.close().catch(() => undefined);
        save = undefined;
        if (controller.signal.aborted) break;
        io.out("");
      }
      if (opts.save) await startSaving(config);
      const json = opts.json && both ? opts.json.replace(/(\.json)?$/i, `.${slots[i].variant}.${slots[i].pair}$1`) : opts.json;
      if (both) io.out(`--- pair ${slots[i].pair} of ${pairsAsked}: ${slots[i].variant} ---`);
      const r = await runOne(config, json);
      last = { error: r.error, runId: save?.runId, cancelled: r.cancelled };
      if (r.summary) results.push({ summary: r.summary, runId: save?.runId, slot: i });
      code = Math.max(code, r.code);
      if (r.code && !r.summary) break;
    }
    if (both && results.length > 0) await printAb(results, controlUrl);
    return { code, summary: results.at(-1)?.summary, ...last };

    /** The A/B of the completed pairs with its noise; with --save, the group is recorded for the app's A/B page. */
    async function printAb(done: { summary: RunSummary; runId?: string; slot: number }[], controlUrl: string) {
      const ran = done.map((d) => ({ ...slots[d.slot], runId: d.runId ?? `run ${d.slot + 1}` }));
      const byId = new Map(ran.map((s, k) => [s.runId, done[k].summary]));
      const { pairs, leftOut } = completedPairs(ran, (id) => ({ status: "completed", summary: byId.get(id) }));
      const notRun = [...new Set(slots.map((s) => s.pair))].filter((p) => !pairs.some((x) => x.pair === p) && !leftOut.includes(p));
      io.out("");
      io.out(`=== baseline → modded (${done[0].summary.workload}) ===`);
      if (!pairs.length) return io.out("no pair completed both its runs: nothing to compare");
      io.out(
        abStatsText(
          abStats(
            pairs,
            [...leftOut, ...notRun].sort((a, b) => a - b),
          ),
        ),
      );
      if (!done.every((d) => d.runId)) return io.out("add --save to store the runs and see the A/B in the app");
      const { createAbGroup } = await import("../lib/compare/ab-store");
      const { prisma } = await import("../lib/db");
      const { variant: _, ...shared } = done[0].summary.config as Record<string, unknown> & { kind: string };
      const id = await createAbGroup(
        { config: { ...shared, kind: done[0].summary.workload }, pairs: pairsAsked, slots: ran, targetLabel },
        prisma(controlUrl),
      ).catch((err: Error) => (io.err(`bench: the A/B group was not stored: ${err.message}`), null));
      if (id) io.out(`in the app: /runs/ab?group=${id}`);
    }

    /** Stores the run's outcome (--save); says what was not saved when the control store did not take it. */
    async function saveOutcome(outcome: Parameters<NonNullable<typeof save>["finish"]>[0]): Promise<boolean> {
      if (!save) return false;
      try {
        await save.finish(outcome);
        return true;
      } catch (err) {
        io.err(`bench: ${(err as Error).message}`);
        return false;
      }
    }

    async function runOne(
      config: WorkloadConfig,
      json: string | undefined,
    ): Promise<{ code: number; summary?: RunSummary; error?: string; cancelled?: boolean }> {
      const c = config;
      io.out(`${c.kind} on ${targetLabel}: ${knobsParts(c).join(", ")}; warm-up ${c.warmupSeconds} s`);

      let summary: RunSummary;
      try {
        summary = await runWorkload(config, targetUrl, {
          signal: controller.signal,
          runId: save?.runId,
          controlStore,
          log: (l) => io.out(`  ${l}`),
          onReport: (r) => io.out(liveLine(r, config.kind)),
          onPhase: (p) => {
            save?.phase(p);
            if (p === "draining" || p === "verifying") io.out(`  ${p}…`);
          },
          onSample: save?.sample,
          // The CLI forks every part itself; it says so when that is more than RUNNER_MAX_LOCAL_PARTS.
          maxLocalParts: env.RUNNER_MAX_LOCAL_PARTS,
        });
      } catch (err) {
        const cancelled = err instanceof RunCancelled;
        const notes = cancelled ? err.notes.map((n) => `; ${n}`).join("") : "";
        io.err(cancelled ? `bench: cancelled${notes}` : `bench: ${(err as Error).message}`);
        await saveOutcome(
          cancelled ? { status: "cancelled", error: `cancelled (Ctrl-C or a cancel request)${notes}` } : { status: "failed", error: (err as Error).message },
        );
        return { code: 1, cancelled, error: (err as Error).message };
      }
      io.out("");
      io.out(summaryText(summary, targetLabel));
      if (json) {
        const file = path.resolve(json);
        writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);
        io.out(`summary written to ${file}`);
      }
      const verr = verificationError(summary);
      if (save) {
        if (!(await saveOutcome(verr ? { status: "failed", summary, error: verr } : { status: "completed", summary })))
          return { code: 1, summary, error: "the run could not be stored" };
        io.out(`stored as run ${save.runId}`);
      }
      if (verr) {
        io.err(`bench: ${verr}`);
        return { code: 1, summary, error: verr };
      }
      return { code: 0, summary };
    }
  } catch (err) {
    io.err(`bench: ${err instanceof StartupError ? err.message : (err as Error).message}`);
    return { code: 1, error: (err as Error).message };
  } finally {
    if (cancelPoll) clearInterval(cancelPoll);
    process.off("SIGINT", onSigint);
    process.off("SIGTERM", onSigint);
    await save?.close().catch(() => undefined);
    await Promise.all([embedded?.stop().catch(() => undefined), embeddedControl?.stop().catch(() => undefined)]);
  }
}

if (require.main === module)
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(`bench: ${maskUrl((err as Error).message)}`);
      process.exit(1);
    },
  );
