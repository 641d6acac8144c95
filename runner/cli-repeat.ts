// `npm run bench -- <workload> [flags] --repeat N`: the config run N times back to back as one set (./cli-run.ts runs
// them as it runs an A/B's or a ladder's), then each figure with its spread and the interval of its median
// (lib/repeat/stats.ts). `--json FILE` writes each repeat beside it (numbered 1, 2 … before .json) and the set to FILE; a gate
// (--gate, --baseline) is checked on the set: the pooled figures, and regressions beyond the noise it measured.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { MAX_REPEATS, repeatRows, repeatText } from "../lib/repeat/stats";
import type { WorkloadConfig } from "../lib/workloads/config";
import { type RunSet, type SetContext, type SetRun, takeFlag } from "./cli-ladder";
import { labelColumns } from "../lib/runs/labels";

/** `--repeat N`: the argv without it and N; null when not asked; an error naming what is wrong with N. */
export function repeatAsked(argv: string[]): { argv: string[]; repeat: number } | { error: string } | null {
  const out = [...argv];
  const raw = takeFlag(out, "repeat");
  if (raw === undefined) return null;
  const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(n >= 2 && n <= MAX_REPEATS))
    return { error: `--repeat ${raw}: give a whole number of runs from 2 to ${MAX_REPEATS} (6 give a 95 % interval of the median)` };
  return { argv: out, repeat: n };
}

/** The repeats as a set: the same config N times, each run's --json beside the asked file, then the set's table. */
export function repeatSet(config: WorkloadConfig, repeat: number, json: string | undefined): RunSet {
  return {
    configs: Array.from({ length: repeat }, () => config),
    heading: (i) => `--- repeat ${i + 1} of ${repeat} ---`,
    jsonFor: (i) => json?.replace(/(\.json)?$/i, `.${i + 1}$1`),
    place: (i) => `run ${i + 1} of ${repeat}`,
    report: (c, done) => reportRepeats(c, repeat, done),
  };
}

async function reportRepeats(c: SetContext, repeat: number, done: SetRun[]) {
  const runs = done.map((d) => d.summary);
  const rows = repeatRows(runs);
  c.out("");
  c.out(`=== ${runs[0].workload}: ${done.length} of ${repeat} repeats completed ===`);
  c.out(repeatText(runs, rows));
  if (c.json) {
    const file = path.resolve(c.json);
    writeFileSync(file, `${JSON.stringify({ repeats: rows, runs: done.map((d) => ({ slot: d.slot, runId: d.runId ?? null })) }, null, 2)}\n`);
    c.out(`the set written to ${file}`);
  }
  if (!done.every((d) => d.runId)) return c.out("add --save to store the runs and see the set in the app");
  const { createRepeatGroup, repeatUrl } = await import("../lib/repeat/store");
  const { prisma } = await import("../lib/db");
  const config = { ...runs[0].config, kind: runs[0].workload } as Record<string, unknown> & { kind: string };
  const id = await createRepeatGroup(
    { config, runIds: done.map((d) => d.runId!), targetLabel: c.targetLabel, labels: labelColumns(c.labels) },
    prisma(c.controlUrl),
  ).catch((err: Error) => (c.err(`bench: the repeated set was not stored: ${err.message}`), null));
  if (id) c.out(`in the app: ${repeatUrl(id)}`);
}
