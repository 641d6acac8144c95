// What one verdict rule is (docs/verdict.md): its label, its place in the precedence, how it judges a window from
// the evidence, how strongly a match holds, and its words. The rules are ./verdict-rules.ts, one entry each;
// verdictOf (./verdict.ts) reads their precedence from these fields, never from their words.
import type { PaceInput } from "./pace-rules";
import type { Category, Finding, VerdictInput } from "./verdict-shape";
import type { TelemetryWindow } from "./window";

/** Every category but "undetermined" (no rule matched) is one rule's. */
export type RuleCategory = Exclude<Category, "undetermined">;

/** What a rule judges: the verdict's input, its server-side window, and the run's pace (./verdict-evidence.ts paceOf). */
export interface RuleContext {
  input: VerdictInput;
  w: TelemetryWindow | undefined;
  pace: PaceInput | undefined;
}

export interface VerdictRule {
  /** Its name on the page, the CLI and the report. */
  label: string;
  /**
   * A cause's place in the precedence: the verdict tries the tiers lowest first, and within one tier the strongest
   * matched rule wins. A pace effect has none (`effect` says how it headlines instead).
   */
  tier?: number;
  /**
   * A pace effect (the run's own pace, not a cause): "always" headlines whenever it happened (the window's averages
   * around it mislead), "unless-cause" only when no `cause` rule was the headline (which then names the effect).
   */
  effect?: "always" | "unless-cause";
  /** A cause a pace effect yields to (on this run: a function). */
  cause?: boolean | ((ctx: RuleContext) => boolean);
  /** On this run it comes before every tier (and is a cause): a held snapshot that is the bigger effect. */
  leads?: (ctx: RuleContext) => boolean;
  /** A CPU shortage (the host's or the runner's): said beside a pace effect that headlines over it. */
  cpuShortage?: boolean;
  /**
   * When the run also missed its rate (behind schedule held), the statement says so after its own: "as-limit"
   * names this rule as who made it miss, "numbers" gives the missed rate's numbers only. Absent: not said.
   */
  missedRate?: "as-limit" | "numbers";
  judge: (ctx: RuleContext) => Finding;
  /** How strongly a match holds, against the other matches of its tier (a server-side rule's main wait share). */
  strength?: (ctx: RuleContext, f: Finding) => number;
  /** Its statement, the verdict's headline when it is chosen. */
  words: (ctx: RuleContext, f: Finding) => string;
}
