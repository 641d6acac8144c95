// What every surface shows of a run carried by several runner processes ("parts"): the run page's Processes table,
// its live view, the CLI's summary lines and compare's hosts, from the summary's manifest `parts` and a sample's
// `processes` (part-figures.ts). One place for the words, so the page and the CLI say the same. A run of one
// process has none of this: every function answers null or an empty list for it. Browser-safe.
import { definitionOf } from "../workloads/config";
import { plural, perSecond } from "../words";
import { rateOperations } from "./operations";
import type { SampleParts } from "./part-figures";
import type { RunSummary } from "./summary";

/** One part's rate of one declared operation: "writes 1,234.5 msg/s". */
export interface PartRate {
  name: string;
  label: string;
  unit: string;
  perSecond: number;
}

/** One row of the Processes table (and one line of the CLI's summary). */
export interface PartRow {
  part: number;
  host: string;
  pid: number;
  startSkewMs: number;
  clockOffsetMs: number;
  /** A part on another host: how far its clock moved against the run's by the end (ms). */
  clockDriftMs?: number;
  rates: PartRate[];
  /** Mean CPU over its own window, in cores (its CPU-seconds over its measured seconds). */
  cpuCores: number;
  /** Event-loop delay it spent at least 1% of its window in (ms), and its p99; absent when it did not measure. */
  exposedDelayMs?: number;
  loopDelayP99Ms?: number;
  runQueueWaitMsPerSec?: number;
  clientBound: boolean;
  worst: boolean;
}

/** The Processes table of a finished run: one row per part, the worst-loaded part and why; null for one process. */
export interface PartsView {
  rows: PartRow[];
  worst: number | null;
  /** Why the worst part is named: "client-bound", "waited longest for a CPU (…)", "highest event-loop delay (…)". */
  why: string | null;
  hosts: string[];
}

const dec = (n: number, d = 1) => n.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d });

/** The declared rate operations' rates of one part, in the workload's words. */
function ratesOf(kind: string, perSec: Record<string, number>): PartRate[] {
  return rateOperations(definitionOf({ kind }).metrics)
    .filter((o) => perSec[o.name] !== undefined)
    .map((o) => ({ name: o.name, label: plural(o.label), unit: o.unit, perSecond: perSec[o.name] }));
}

/** "writes 1,234.5 msg/s, reads 2,469.0 msg/s". */
export const ratesText = (rates: readonly PartRate[]) => rates.map((r) => `${r.label} ${dec(r.perSecond)} ${perSecond(r.unit)}`).join(", ");

/**
 * Why `worst` is the worst part, in the order worstPart ranks them (part-figures.ts): client-bound first, then its
 * wait for a CPU, its event-loop delay, its CPU. The first of these on which it stands above every other part names it.
 */
export function worstWhy(rows: readonly PartRow[], worst: number | null): string | null {
  const w = rows.find((r) => r.part === worst);
  if (!w) return null;
  // Parts ranked alike on being client-bound are told apart by the next key; a part bound alone is named for it.
  const peers = rows.filter((r) => r !== w && r.clientBound === w.clientBound);
  if (w.clientBound && peers.length === 0) return "client-bound (its own load distorted its latencies), the only part that was";
  const lead = w.clientBound ? "client-bound as others, and " : "";
  const above = (f: (r: PartRow) => number | undefined) => (f(w) ?? 0) > Math.max(0, ...peers.map((r) => f(r) ?? 0));
  if (above((r) => r.runQueueWaitMsPerSec)) return `${lead}waited longest for a CPU (${dec(w.runQueueWaitMsPerSec ?? 0)} ms/s)`;
  if (above((r) => r.exposedDelayMs)) return `${lead}highest event-loop delay (${dec(w.exposedDelayMs ?? 0, 2)} ms over 1% of the time)`;
  if (above((r) => r.cpuCores)) return `${lead}most CPU (${dec(100 * w.cpuCores, 0)}% of a core)`;
  return `${lead}loaded no less than the others`;
}

/** The Processes table of a finished run, or null for a run of one process. */
export function partsView(s: RunSummary): PartsView | null {
  const parts = s.manifest.parts;
  if (!parts || parts.length < 2) return null;
  const worst = s.manifest.worstPart ?? null;
  const rows: PartRow[] = [...parts]
    .sort((a, b) => a.part - b.part)
    .map((p) => ({
      part: p.part,
      host: p.host,
      pid: p.pid,
      startSkewMs: p.startSkewMs,
      clockOffsetMs: p.clockOffsetMs,
      ...(p.clockDriftMs !== undefined ? { clockDriftMs: p.clockDriftMs } : {}),
      rates: ratesOf(s.workload, p.perSecond),
      cpuCores: p.measuredSeconds > 0 ? p.runnerCpuSeconds / p.measuredSeconds : 0,
      ...(p.runnerLoad
        ? {
            exposedDelayMs: p.runnerLoad.exposedDelayMs,
            loopDelayP99Ms: p.runnerLoad.loopDelayMs.p99,
            ...(p.runnerLoad.runQueueWaitMsPerSec !== undefined ? { runQueueWaitMsPerSec: p.runnerLoad.runQueueWaitMsPerSec } : {}),
          }
        : {}),
      clientBound: p.runnerLoad?.clientBound ?? false,
      worst: p.part === worst,
    }));
  return { rows, worst, why: worstWhy(rows, worst), hosts: [...new Set(rows.map((r) => r.host))] };
}

/** The run's hosts (each once) for compare; empty for a run of one process. */
export const partHosts = (s: RunSummary): string[] => partsView(s)?.hosts ?? [];

/** The CLI's lines: one per part, then the worst named with why. Empty for a run of one process. */
export function partsLines(s: RunSummary): string[] {
  const v = partsView(s);
  if (!v) return [];
  const lines = v.rows.map(
    (r) =>
      `  part ${r.part} (pid ${r.pid} on ${r.host}): ${ratesText(r.rates)}; runner CPU ${dec(100 * r.cpuCores, 0)}% of a core` +
      `${r.exposedDelayMs !== undefined ? `, event-loop delay ${dec(r.exposedDelayMs, 2)} ms over 1% of the time` : ""}` +
      `; start skew ${dec(r.startSkewMs, 1)} ms, clock offset ${dec(r.clockOffsetMs, 2)} ms${r.clockDriftMs !== undefined ? ` (drift ${r.clockDriftMs >= 0 ? "+" : ""}${dec(r.clockDriftMs, 2)} ms by the end)` : ""}${r.clientBound ? "  CLIENT-BOUND" : ""}${r.worst ? "  ← worst" : ""}`,
  );
  const head = `runner processes: ${v.rows.length} on ${v.hosts.length === 1 ? `host ${v.hosts[0]}` : `hosts ${v.hosts.join(", ")}`}`;
  const worst = v.worst !== null ? [`  worst: part ${v.worst}, ${v.why}`] : [];
  return [head, ...lines, ...worst];
}

/** One live row per part from a sample's `processes`: its rates this second, its CPU and loop delay, the worst marked. */
export interface LivePartRow {
  part: number;
  rates: PartRate[];
  cpuCores?: number;
  loopDelayMaxMs?: number;
  startSkewMs: number;
  worst: boolean;
}

/** The live view per part of one merged second, or null when the second has no parts (one process). */
export function livePartRows(kind: string, processes: SampleParts | undefined): LivePartRow[] | null {
  if (!processes || processes.parts.length < 2) return null;
  return [...processes.parts]
    .sort((a, b) => a.part - b.part)
    .map((p) => ({
      part: p.part,
      rates: ratesOf(kind, p.perSecond),
      ...(p.runnerLoad ? { cpuCores: p.runnerLoad.cpuCores, loopDelayMaxMs: p.runnerLoad.loopDelayMs.max } : {}),
      startSkewMs: p.startSkewMs,
      worst: p.part === processes.worst,
    }));
}
