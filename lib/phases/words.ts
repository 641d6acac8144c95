// A phase's report in words: the lines the CLI prints and the run page shows for each phase. Browser-safe.
import { num } from "../number-text";
import { fmtBytes, fmtInt, fmtLatency } from "../runs/format";
import type { PhaseReport, PhaseWindow } from "./report";
import { INSTANT_KINDS, phaseText } from "./shape";

/** A phase's report as lines (the CLI prints them; the run page shows the same words): when it ran and what it did,
 *  the consumers' rate and the delivery latency before, during and after it, the backlog, dead tuples and sizes, and
 *  how long the run took to be back. */
export function phaseReportLines(r: PhaseReport): string[] {
  const when = r.startedSec === null ? "" : ` (${num(r.startedSec)}–${r.endedSec === null ? "?" : num(r.endedSec)} s)`;
  const out = [`phase ${phaseText(r.phase)}${when}: ${r.startedSec === null ? (r.problem ?? "not carried out") : r.did}`];
  if (r.startedSec === null) return out;
  if (r.problem) out.push(`  ${r.problem}`);
  // An instant kind (a killed backend) has no during: its effect is in the seconds after it, and the recovery.
  if (INSTANT_KINDS.includes(r.phase.kind)) out.push("  an instant: the figures are before and after it");
  else if (!r.during) out.push("  too short to hold a whole second of the run: nothing measured during it");
  const windows = [r.before, r.during, r.after];
  const names = ["before", "during", "after"].filter((_, k) => windows[k]);
  const present = windows.filter((w): w is PhaseWindow => w !== null);
  if (present.length) out.push(`  ${r.rate.label} ${r.rate.unit}/s ${names.join(" → ")}: ${present.map((w) => fmtInt(w.perSecond)).join(" → ")}`);
  if (r.latency && present.some((w) => w.latencyMs))
    out.push(`  ${r.latency.label} p99 ${names.join(" → ")}: ${present.map((w) => (w.latencyMs ? fmtLatency(w.latencyMs.p99) : "none")).join(" → ")}`);
  if (present.some((w) => w.backlogMax !== undefined))
    out.push(`  largest backlog ${names.join(" → ")}: ${present.map((w) => fmtInt(w.backlogMax ?? 0)).join(" → ")}`);
  const sizes = [
    ...(r.deadTuples ? [`dead tuples ${fmtInt(r.deadTuples.start)} → ${fmtInt(r.deadTuples.end)}`] : []),
    ...(r.tableBytes ? [`tables ${fmtBytes(r.tableBytes.start)} → ${fmtBytes(r.tableBytes.end)}`] : []),
    ...(r.indexBytes ? [`indexes ${fmtBytes(r.indexBytes.start)} → ${fmtBytes(r.indexBytes.end)}`] : []),
  ];
  if (sizes.length) out.push(`  from its start to its end: ${sizes.join("; ")}`);
  out.push(`  ${recoveryWords(r)}`);
  return out;
}

/** "recovered 3 s after it ended (back at ≥ 900 msg/s …)", or why not. */
export function recoveryWords(r: PhaseReport): string {
  if (!r.before) return `recovery: not measured: ${r.recoveryRule}`;
  if (r.recoverySec !== null) return `recovered ${num(r.recoverySec)} s after it ended (${r.recoveryRule})`;
  const left = r.after ? ` in the ${num(r.after.seconds)} s after it` : " (the measured window ended with it)";
  return `not recovered${left}: not ${r.recoveryRule}`;
}
