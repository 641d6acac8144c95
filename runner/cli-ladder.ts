// The synchronous commit ladder from the command line: `npm run bench -- <workload> [flags] --sync-commit
// off,local,remote_write,on,remote_apply [--repeats N]` runs the config once per level and repeat in the balanced
// order (lib/ladder/order.ts), each an ordinary run (./cli-run.ts runs them as a set), then prints each level's
// figures (lib/ladder/text.ts); `--json FILE` writes the set, `--save` stores the group for the app's ladder page.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { DEFAULT_REPEATS, type LadderSlot, ladderOrder, parseLevels, Repeats } from "../lib/ladder/order";
import { ladderStats } from "../lib/ladder/stats";
import { ladderText } from "../lib/ladder/text";
import type { RunSummary } from "../lib/measurement/summary";
import type { SyncCommitLevel } from "../lib/sync-commit";
import type { WorkloadConfig } from "../lib/workloads/config";
import { labelColumns, type LabelsInput } from "../lib/runs/labels";

/** What a set of runs (an A/B, a ladder) reports with once its runs are over. */
export interface SetContext {
  out: (line: string) => void;
  err: (line: string) => void;
  targetLabel: string;
  /** The control store, with --save. */
  controlUrl: string;
  json?: string;
  /** --html of an A/B: the set's report (./cli-html.ts writeAbReport). */
  html?: string;
  /** --name, --tag, --notes: the set keeps them when it is stored. */
  labels?: LabelsInput;
}

/** A run of a set that ended with a summary: its place in the plan, and its stored id with --save. */
export interface SetRun {
  slot: number;
  summary: RunSummary;
  runId?: string;
}

/** A set of runs the CLI runs one after the other: each one's line before it and --json file, and the set's report. */
export interface RunSet {
  configs: WorkloadConfig[];
  heading(i: number): string;
  jsonFor(i: number): string | undefined;
  /** The i-th run's place in the set ("modded, pair 2"), which its name ends with (lib/runs/labels.ts memberName). */
  place(i: number): string;
  report(c: SetContext, done: SetRun[]): Promise<void>;
}

/** Takes a flag and its value out of argv (-name value, --name=value), or undefined when absent. */
export function takeFlag(argv: string[], name: string): string | undefined {
  const at = argv.findIndex((a) => new RegExp(`^--?${name}(=.*)?$`).test(a));
  if (at < 0) return undefined;
  const eq = argv[at].indexOf("=");
  const value = eq >= 0 ? argv[at].slice(eq + 1) : (argv[at + 1] ?? "");
  argv.splice(at, eq >= 0 ? 1 : 2);
  return value;
}

/**
 * `--sync-commit LIST [--repeats N]`: the argv without them, the levels (in the ladder's order) and the repeats; null
 * when not asked; an error naming a level that is none (with the choices), bad repeats, or --repeats alone.
 */
export function ladderAsked(argv: string[]): { argv: string[]; levels: SyncCommitLevel[]; repeats: number } | { error: string } | null {
  const out = [...argv];
  const list = takeFlag(out, "sync[-_]commit");
  const repeatsIn = takeFlag(out, "repeats");
  if (list === undefined)
    return repeatsIn === undefined
      ? null
      : { error: "--repeats applies to the synchronous commit ladder only: add --sync-commit LEVELS (e.g. --sync-commit off,on)" };
  const levels = parseLevels(list);
  if (!levels.ok) return { error: `--sync-commit ${list}: ${levels.message}` };
  const n = repeatsIn === undefined ? undefined : /^\d+$/.test(repeatsIn) ? Number(repeatsIn) : Number.NaN;
  const repeats = Repeats.safeParse(n);
  if (!repeats.success) return { error: `--repeats ${repeatsIn ?? ""}: ${repeats.error.issues[0].message}` };
  return { argv: out, levels: levels.levels, repeats: repeats.data ?? DEFAULT_REPEATS };
}

/** The ladder as a set of runs: the config at each level, round after round, then its table. */
export function ladderSet(config: WorkloadConfig, levels: SyncCommitLevel[], repeats: number): RunSet {
  const order = ladderOrder(levels, repeats);
  return {
    configs: order.map((o) => ({ ...config, synchronousCommit: o.level })),
    heading: (i) => `--- round ${order[i].round} of ${repeats}: synchronous_commit ${order[i].level} (${i + 1} of ${order.length}) ---`,
    jsonFor: () => undefined, // --json writes the whole set once it is over
    place: (i) => `${order[i].level}, round ${order[i].round}`,
    report: (c, done) => reportLadder(c, { config, levels, repeats, order }, done),
  };
}

async function reportLadder(
  c: SetContext,
  plan: { config: WorkloadConfig; levels: SyncCommitLevel[]; repeats: number; order: { round: number; level: SyncCommitLevel }[] },
  done: SetRun[],
) {
  // Every run of the plan in its slot: a stored run by its id, one not stored by its place; unrun ones left out.
  const slots: LadderSlot[] = done.map((d) => ({ ...plan.order[d.slot], runId: d.runId ?? `run ${d.slot + 1}` }));
  const byId = new Map(slots.map((x, k) => [x.runId, done[k].summary]));
  const notRun = plan.order.length - done.length;
  const st = ladderStats(slots, (id) => ({ status: "completed", summary: byId.get(id) }));
  c.out("");
  c.out(`=== synchronous commit ladder (${plan.config.kind}) ===`);
  if (!st) return c.out("no run completed: nothing to show");
  c.out(ladderText(st));
  if (notRun) c.out(`- Not run: ${notRun} of the ${plan.order.length} runs (stopped, or a run failed before it).`);
  if (c.json) {
    const file = path.resolve(c.json);
    const runs = slots.map((s, k) => ({ ...s, summary: done[k].summary }));
    const labels = c.labels ? { labels: labelColumns(c.labels) } : {};
    writeFileSync(file, `${JSON.stringify({ ladder: st, order: plan.order, runs, ...labels }, null, 2)}\n`);
    c.out(`the ladder written to ${file}`);
  }
  if (!done.every((d) => d.runId)) return c.out("add --save to store the runs and see the ladder in the app");
  const { createLadderGroup, ladderUrl } = await import("../lib/ladder/store");
  const { prisma } = await import("../lib/db");
  const id = await createLadderGroup(
    { config: plan.config, levels: plan.levels, repeats: plan.repeats, slots, targetLabel: c.targetLabel, labels: labelColumns(c.labels) },
    prisma(c.controlUrl),
  ).catch((err: Error) => (c.err(`bench: the ladder was not stored: ${err.message}`), null));
  if (id) c.out(`in the app: ${ladderUrl(id)}`);
}
