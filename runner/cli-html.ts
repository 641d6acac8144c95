// `--html FILE` of `npm run bench`: the report of the run just made as one self-contained HTML file (the app's export,
// components/report/render.tsx), saved or not: the samples the engine handed over, the summary, and the command that
// reproduces the run. The file's folder is checked before the run starts, so a typo costs no run.
import { accessSync, constants, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { RunSummary } from "../lib/measurement/summary";
import type { Sample } from "../lib/measurement/sample";
import type { RunStatus } from "../lib/measurement/metrics";
import { toCliCommand } from "../lib/runs/cli-command";
import type { Labels } from "../lib/runs/labels";
import { headlineOf, type RunView } from "../lib/runs/view";
import type { WorkloadConfig } from "../lib/workloads/config";
import type { EngineSample } from "./run-context";
import type { SweepPoint } from "../workloads/runtime";
import type { AbSlot } from "../lib/compare/ab-order";
import type { AbStats } from "../lib/compare/ab-stats";

/** Why `file` cannot be written (its folder missing or read-only, or a folder by that name), or null when it can. */
export function htmlPathProblem(file: string): string | null {
  const abs = path.resolve(file);
  const dir = path.dirname(abs);
  try {
    if (!statSync(dir).isDirectory()) return `--html ${file}: ${dir} is not a folder`;
  } catch {
    return `--html ${file}: the folder ${dir} does not exist; create it or give a file in an existing folder`;
  }
  try {
    if (statSync(abs).isDirectory()) return `--html ${file}: ${abs} is a folder; give a file name, such as ${path.join(file, "report.html")}`;
  } catch {
    /* a new file: fine */
  }
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    return `--html ${file}: the folder ${dir} is not writable by this user; give a file in a folder you can write to`;
  }
  return null;
}

/** Keeps the samples the engine hands over, as the app stores and shows them. */
export function sampleKeeper(): { keep: (s: EngineSample) => void; samples: Sample[] } {
  const samples: Sample[] = [];
  return { samples, keep: (s) => void samples.push({ seq: s.seq, phase: s.phase, time: s.time.toISOString(), metrics: s.metrics }) };
}

/** What the CLI knows of the run just made, for its report. */
export interface CliReportRun {
  file: string;
  runId?: string;
  config: WorkloadConfig;
  status: RunStatus;
  error?: string;
  summary?: RunSummary;
  samples: Sample[];
  targetLabel: string;
  /** The masked --target, when the run had one; the reproducing command names it. */
  maskedTarget?: string;
  targetArgs: string[];
  startedAt: Date;
  /** --name, --tag, --notes, as the run is called. */
  labels?: Labels;
}

/** The run as the app's pages take it, from what the CLI knows (its summary, its outcome). */
function cliRunView(r: Pick<CliReportRun, "runId" | "config" | "status" | "error" | "summary" | "targetLabel" | "startedAt" | "labels">, now: string): RunView {
  return {
    ...(r.labels ?? { name: null, notes: null, tags: [] }),
    id: r.runId ?? "not saved",
    workload: r.config.kind,
    config: r.config,
    status: r.status,
    phase: "done",
    targetId: null,
    targetLabel: r.targetLabel,
    source: "cli",
    cancelRequested: false,
    createdAt: r.startedAt.toISOString(),
    startedAt: r.startedAt.toISOString(),
    finishedAt: now,
    error: r.error ?? null,
    headline: r.summary ? headlineOf(r.summary) : null,
    summary: r.summary ? { ...r.summary, histograms: {} } : null,
  };
}

/** Writes the report; the line to print (where it went), or the error to print when it could not be written. */
export async function writeCliReport(r: CliReportRun): Promise<{ out: string } | { err: string }> {
  const { renderRunReport } = await import("../components/report/render");
  const now = new Date().toISOString();
  const run = cliRunView(r, now);
  const command = toCliCommand(r.config, r.maskedTarget, {}, r.targetArgs);
  const html = renderRunReport({ run, samples: r.samples, command }, { exportedAt: now });
  const file = path.resolve(r.file);
  try {
    writeFileSync(file, html);
    return { out: `report written to ${file}` };
  } catch (err) {
    return { err: `the report could not be written to ${file}: ${(err as Error).message}` };
  }
}

/**
 * A sweep's report: its runs compared (components/report/CompareReport.tsx), each named by its id when saved, else by
 * its point ("-queues 4"). A point without a summary is left out, and the report says which were.
 */
export async function writeSweepReport(file: string, flag: string, points: SweepPoint[]): Promise<{ out: string } | { err: string }> {
  // Loaded only when asked, as the run's report is: the CLI's runs need neither React nor the comparison.
  const [{ renderCompareReport }, { buildComparison }, { fromRun }] = await Promise.all([
    import("../components/report/render"),
    import("../lib/compare/compare"),
    import("../lib/compare/from-run"),
  ]);
  const items = points.flatMap((p) =>
    p.summary
      ? [fromRun({ id: p.runId ?? `${flag} ${p.value}`, status: "completed", createdAt: p.summary.manifest.startedAt, targetLabel: "", summary: p.summary })]
      : [],
  );
  const lost = points.filter((p) => !p.summary).map((p) => `${flag} ${p.value}`);
  if (!items.length) return { err: `no run of the sweep has a summary, so there is no report to write to ${path.resolve(file)}` };
  const cmp = buildComparison(items, null);
  const html = renderCompareReport(cmp, { exportedAt: new Date().toISOString() });
  try {
    writeFileSync(path.resolve(file), html);
  } catch (err) {
    return { err: `the report could not be written to ${path.resolve(file)}: ${(err as Error).message}` };
  }
  return { out: `report of the sweep written to ${path.resolve(file)}${lost.length ? ` (without ${lost.join(", ")}: no summary)` : ""}` };
}

/** An A/B's report (the app's A/B page, components/run/AbView.tsx): its runs in their order, each measure with its interval. */
export async function writeAbReport(
  file: string,
  ab: { groupId: string | null; ran: AbSlot[]; done: { summary: RunSummary; runId?: string }[]; stats: AbStats; targetLabel: string },
): Promise<{ out: string } | { err: string }> {
  const { renderAbReport } = await import("../components/report/render");
  const now = new Date().toISOString();
  const views = ab.done.map((d, i) =>
    cliRunView(
      {
        runId: ab.ran[i].runId,
        config: d.summary.config,
        status: d.summary.verification.ok ? "completed" : "failed",
        summary: d.summary,
        targetLabel: ab.targetLabel,
        startedAt: new Date(d.summary.manifest.startedAt),
      },
      now,
    ),
  );
  const html = renderAbReport({ groupId: ab.groupId, slots: ab.ran, views, stats: ab.stats }, { exportedAt: now });
  try {
    writeFileSync(path.resolve(file), html);
  } catch (err) {
    return { err: `the report could not be written to ${path.resolve(file)}: ${(err as Error).message}` };
  }
  return { out: `report of the A/B written to ${path.resolve(file)}` };
}
