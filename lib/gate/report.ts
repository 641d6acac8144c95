// A gated run's outcome, machine-readable (JSON, for a CI step to read) and as Markdown fit for a pull-request
// comment: every gate and every compared figure with its value, what failed first. Browser-safe.
import { figureText, type GateResult, type Regression } from "./gate";

export interface GateOutcome {
  /** The run the gates were checked on: its id when stored, its workload, its window. */
  run: { id: string | null; workload: string; measuredSeconds: number; repeats: number };
  gates: GateResult[];
  /** Against a baseline (--baseline), with its name (a run id or a file) and the bound. */
  baseline: {
    name: string;
    maxRegressionPct: number;
    regressions: Regression[];
    skipped: string[];
    noise: string;
    /** The settings the two runs differ in ("throttleWritesPerSec 200 → 150"). */
    configDiffers: string[];
  } | null;
  passed: boolean;
}

/** Whether every gate held and no figure regressed beyond the bound. */
export function outcomePassed(gates: readonly GateResult[], regressions: readonly Regression[]): boolean {
  return gates.every((g) => g.passed) && regressions.every((r) => r.passed);
}

/** The outcome as the JSON a CI step reads: the same fields, versioned. */
export function outcomeJson(o: GateOutcome): string {
  return `${JSON.stringify({ schemaVersion: 1, ...o }, null, 2)}\n`;
}

const cell = (s: string) => s.replace(/\|/g, "\\|");

/** The outcome as Markdown: a verdict line, the gates' table, the baseline's table. */
export function outcomeMarkdown(o: GateOutcome): string {
  const lines: string[] = [];
  const runName = o.run.repeats > 1 ? `${o.run.repeats} repeats of a ${o.run.workload} run` : (o.run.id ?? `an unsaved ${o.run.workload} run`);
  const failedGates = o.gates.filter((g) => !g.passed).length;
  const failedRegs = o.baseline?.regressions.filter((r) => !r.passed).length ?? 0;
  lines.push(
    o.passed
      ? `### ✅ Benchmark gates passed (${runName}, ${o.run.measuredSeconds.toFixed(0)} s measured)`
      : `### ❌ Benchmark gates failed: ${[failedGates ? `${failedGates} gate${failedGates > 1 ? "s" : ""}` : "", failedRegs ? `${failedRegs} regression${failedRegs > 1 ? "s" : ""}` : ""].filter(Boolean).join(", ")} (${runName})`,
  );
  if (o.gates.length) {
    lines.push("", "| Gate | Goal | Value | |", "|---|---|---|---|");
    for (const g of o.gates)
      lines.push(
        `| \`${cell(g.gate)}\` | ${cell(g.goal)} | ${g.value === null ? cell(g.problem ?? "none") : figureText(g.value, g.unit)} | ${g.passed ? "✅" : "❌"} |`,
      );
  }
  if (o.baseline) {
    const b = o.baseline;
    lines.push("", `Against ${cell(b.name)}, at most ${b.maxRegressionPct}% worse:`, "", "| Metric | Baseline | Value | Change | |", "|---|---|---|---|---|");
    for (const r of b.regressions) {
      const change = `${Math.abs(r.worsePct).toFixed(1)}% ${r.worsePct > 0 ? "worse" : "better"}${r.withinNoise ? ", within the noise" : ""}`;
      lines.push(`| ${r.metric} | ${figureText(r.baseline, r.unit)} | ${figureText(r.value, r.unit)} | ${change} | ${r.passed ? "✅" : "❌"} |`);
    }
    for (const s of b.skipped) lines.push("", `Not compared: ${s}`);
    if (b.configDiffers.length) lines.push("", `The runs' settings differ (baseline → this run): ${cell(b.configDiffers.join("; "))}`);
    lines.push("", b.noise);
  }
  return `${lines.join("\n")}\n`;
}
