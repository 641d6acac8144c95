// Every verdict rule, one entry each (./verdict-rule.ts says what an entry holds): adding a rule is one entry in
// one of these groups (and its id in the stored vocabulary, ./verdict-shape.ts CATEGORIES, which the compiler
// asks for). The table's order is the order of a verdict's findings.
import type { RuleCategory, VerdictRule } from "./verdict-rule";
import { MACHINE_RULES } from "./verdict-rules-machine";
import { PACE_RULES } from "./verdict-rules-pace";
import { REPLICATION_RULES } from "./verdict-rules-replication";
import { SERVER_RULES } from "./verdict-rules-server";
import { TABLE_RULES } from "./verdict-rules-tables";
import type { Category } from "./verdict-shape";

export const RULES: Record<RuleCategory, VerdictRule> = { ...PACE_RULES, ...MACHINE_RULES, ...SERVER_RULES, ...REPLICATION_RULES, ...TABLE_RULES };
export const RULE_CATEGORIES = Object.keys(RULES) as RuleCategory[];

export const CATEGORY_LABELS = {
  ...(Object.fromEntries(RULE_CATEGORIES.map((c) => [c, RULES[c].label])) as Record<RuleCategory, string>),
  undetermined: "undetermined",
} satisfies Record<Category, string>;
