// The verdict over one window (docs/verdict.md): every rule of ./verdict-rules.ts judges it, and their precedence,
// which each rule's entry declares (its tier, whether it is a pace effect or a cause, what it says beside the
// headline), picks the headline and composes its statement. Browser-safe.
import { phasesClause } from "../phases/window";
import { cautionText, runnerRole } from "../measurement/runner-load";
import { paceStatement } from "./pace-rules";
import { clientJudgement, clientMeasures, clientOf, fact, paceOf, pct, rateMet, topKeys } from "./verdict-evidence";
import type { RuleCategory, RuleContext } from "./verdict-rule";
import { RULE_CATEGORIES, RULES } from "./verdict-rules";
import { type Category, type Finding, partWords, type Verdict, type VerdictInput } from "./verdict-shape";
import type { TelemetryWindow } from "./window";

export * from "./verdict-shape";
export { fact, ge, gt, lt, num, paceOf, THRESHOLDS, WAL_FLUSH_WAITS } from "./verdict-evidence";
export { CATEGORY_LABELS } from "./verdict-rules";

const undeterminedWords = (w: TelemetryWindow | undefined) =>
  w
    ? `undetermined: no rule's thresholds were met (the run's connections were active ${pct(w.runActiveShare)} of the time; top waits ${topKeys(w, () => true) || "none"})`
    : "undetermined: no server telemetry for this window";

/** The matched rules' findings, each judged once, and the precedence read from their entries. */
class Judged {
  readonly findings: Finding[];
  private readonly byCat: Map<Category, Finding>;
  /** The rules that come first on this run (their `leads`). */
  private readonly leading: RuleCategory[];

  constructor(readonly ctx: RuleContext) {
    this.findings = RULE_CATEGORIES.map((c) => RULES[c].judge(ctx));
    this.byCat = new Map(this.findings.map((f) => [f.category, f]));
    this.leading = RULE_CATEGORIES.filter((c) => RULES[c].leads?.(ctx));
  }

  get(c: RuleCategory): Finding {
    return this.byCat.get(c)!;
  }

  /** Of these rules, the matched one that holds most strongly (the first on a tie). */
  strongest(cats: RuleCategory[]): Finding | undefined {
    const strength = (f: Finding) => RULES[f.category as RuleCategory].strength?.(this.ctx, f) ?? 0;
    return cats
      .map((c) => this.get(c))
      .filter((f) => f.matched)
      .sort((a, b) => strength(b) - strength(a))[0];
  }

  /** The headline cause: the leading rules first, then tier by tier, lowest first. */
  cause(): Finding | undefined {
    const tiers = [...new Set(RULE_CATEGORIES.map((c) => RULES[c].tier).filter((t) => t !== undefined))].sort((a, b) => a - b);
    const groups = [this.leading, ...tiers.map((t) => RULE_CATEGORIES.filter((c) => RULES[c].tier === t && !this.leading.includes(c)))];
    for (const group of groups) {
      const f = this.strongest(group);
      if (f) return f;
    }
    return undefined;
  }

  /** Whether a pace effect yields to this rule: a cause, or a rule that leads. */
  isCause(c: RuleCategory): boolean {
    const cause = RULES[c].cause;
    return this.leading.includes(c) || (typeof cause === "function" ? cause(this.ctx) : cause === true);
  }

  words(c: Category, f: Finding | undefined): string {
    return c === "undetermined" || !f ? undeterminedWords(this.ctx.w) : RULES[c].words(this.ctx, f);
  }
}

/** The headline: a pace effect that headlines (`effect`) over the cause, or the cause; and the effect said beside it. */
function headline(j: Judged): { chosen: Finding | undefined; suffix: string } {
  const cause = j.cause();
  // The larger pace effect, when one happened (their size: the share of the window's work each touched).
  const effect = j.strongest(RULE_CATEGORIES.filter((c) => RULES[c].effect));
  if (!effect) return { chosen: cause, suffix: "" };
  const yields = RULES[effect.category as RuleCategory].effect === "unless-cause" && cause && j.isCause(cause.category as RuleCategory);
  return yields ? { chosen: cause, suffix: `; ${j.words(effect.category, effect)}` } : { chosen: effect, suffix: "" };
}

/** What is said after the headline's own words: a CPU shortage, the runner part, the missed rate, the runner's load. */
function clauses(j: Judged, category: Category, chosen: Finding | undefined): { text: string; caution?: string } {
  const { input, w, pace } = j.ctx;
  const rule = category === "undetermined" ? undefined : RULES[category];
  let text = "";
  // A pace effect headlining over a runner short of CPU (other processes took it, or it starved) names that beside
  // it: the consumers or the stall may be the shared machine's, not the target's.
  const cpu = RULE_CATEGORIES.find((c) => RULES[c].cpuShortage && j.get(c).matched);
  const named = new Set<Category>([category]);
  if (rule?.effect && cpu) {
    text += `; ${j.words(cpu, j.get(cpu))}`;
    named.add(cpu);
  }
  // Over several runner processes, a part the client rule held for is named whatever the headline: the run's
  // merged figures would otherwise hide that one process distorted them.
  const client = j.get("client-bound");
  if (clientOf(input, w)?.part && client.matched && !named.has("client-bound")) text += `; ${j.words("client-bound", client)}`;
  // A limit that made the run miss its rate says so: who fell behind, and by how much. Beside a pace effect (the
  // consumers behind, a stall) the missed rate is said too, its numbers only: the headline is the effect.
  if (pace && chosen && j.get("behind-schedule").matched) {
    if (rule?.missedRate === "as-limit") text += `; ${paceStatement("behind-schedule", pace, w, rule.label)}`;
    else if (rule?.missedRate === "numbers") text += `; ${paceStatement("behind-schedule", pace, w, undefined, false)}`;
  }
  // The runner's load where it was not the limit: a caution on the latencies, inside the verdict (its last clause).
  const cj = clientJudgement(input, w);
  const c = clientOf(input, w);
  if (!cj || !c || runnerRole(cj, rateMet(input)) !== "caution") return { text };
  const caution = cautionText(cj, clientMeasures(c), c.eventLoopDelayMaxMs ?? c.exposedDelayMs ?? 0, rateMet(input), c.part ? `${partWords(c.part)}: ` : "");
  return { text: `${text}; ${caution}`, caution };
}

function blindSpotsOf(input: VerdictInput, w: TelemetryWindow | undefined): string[] {
  if (!w) return ["no server telemetry: only the client's numbers and the run's pace were judged"];
  const blindSpots: string[] = [];
  if (!w.host) blindSpots.push("the server host's CPU and disks are not visible (a remote target): CPU- and I/O-bound are judged from wait events alone");
  if (!w.client && !input.client) blindSpots.push("the runner's CPU and event loop were not measured");
  return blindSpots;
}

/** The verdict over one window: the headline its rules' precedence picks, its evidence, every rule's findings. */
export function verdictOf(input: VerdictInput): Verdict {
  const w = input.telemetry;
  const j = new Judged({ input, w, pace: paceOf(input) });
  const { chosen, suffix } = headline(j);
  const category: Category = chosen?.category ?? "undetermined";
  const { text, caution } = clauses(j, category, chosen);
  // A window that held the run's own phases: its figures include them, and the statement says so last.
  const phases = input.phases?.length ? `; ${phasesClause(input.phases, w?.seconds ?? 0)}` : "";
  return {
    category,
    statement: j.words(category, chosen) + suffix + text + phases,
    evidence: chosen?.evidence ?? (w ? [fact("share of time the run's connections were active", w.runActiveShare, "ratio")] : []),
    also: j.findings.filter((f) => f.matched && f !== chosen).map((f) => f.category),
    findings: j.findings,
    blindSpots: blindSpotsOf(input, w),
    ...(caution ? { caution } : {}),
  };
}
