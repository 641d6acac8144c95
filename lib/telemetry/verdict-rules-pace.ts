// The verdict rules on the run's own pace (./pace-rules.ts judges it): the two pace effects, a stall and consumers
// behind, and whether the rate asked was met (rate-bound) or missed (behind schedule).
import { blockerWords, stallBlocker } from "./held-snapshot";
import { behindSchedule, consumersBehind, paceStatement, paceStrength, rateBound, stall } from "./pace-rules";
import { fact, serverCpuPct, THRESHOLDS } from "./verdict-evidence";
import type { RuleCategory, RuleContext, VerdictRule } from "./verdict-rule";
import { stallReplication } from "./verdict-rules-replication";
import type { Finding } from "./verdict-shape";

const strength = (ctx: RuleContext, f: Finding) => paceStrength(f, ctx.pace);
const words = (ctx: RuleContext, f: Finding) => paceStatement(f.category, ctx.pace!, ctx.w, undefined);

export const PACE_RULES = {
  "consumers-behind": {
    label: "consumers behind",
    effect: "unless-cause",
    missedRate: "numbers",
    judge: (ctx) => consumersBehind(ctx.pace),
    strength,
    words,
  },
  stall: {
    label: "stall",
    effect: "always",
    missedRate: "numbers",
    judge: ({ pace, w }) => {
      const f = stall(pace);
      const b = f.matched && w ? stallBlocker(w, pace!) : undefined;
      if (b) f.evidence.push(fact(`the lock behind it, read during the stall: ${blockerWords(b)}`, b.readings, "readings"));
      const r = f.matched ? stallReplication(w, pace) : undefined;
      if (r) f.evidence.push(fact(`behind it, commits waiting for a synchronous standby: ${r.words}`, r.seconds, "s"));
      return f;
    },
    strength,
    // The lock behind it, as read during it: relation, mode, the holder's pid and query; or the standbys commits waited for.
    words: ({ pace, w }, f) => {
      const b = w ? stallBlocker(w, pace!) : undefined;
      const r = stallReplication(w, pace);
      return `${paceStatement(f.category, pace!, w, undefined)}${b ? `; behind it: ${blockerWords(b)} (read during the stall)` : ""}${r ? `; behind it: ${r.words}` : ""}`;
    },
  },
  "rate-bound": {
    label: "rate-bound",
    tier: 1,
    judge: ({ pace, w }) =>
      rateBound(pace, w, w ? serverCpuPct(w) : undefined, { active: THRESHOLDS.headroomActiveShare, cpuPct: THRESHOLDS.headroomServerCpuPct }),
    words,
  },
  "behind-schedule": {
    label: "behind schedule",
    tier: 5,
    judge: (ctx) => behindSchedule(ctx.pace),
    words,
  },
} satisfies Partial<Record<RuleCategory, VerdictRule>>;
