// The one home of the words a surface writes for a workload's units and operation labels: every page, export, CLI
// table and note takes its unit from the declaration (an operation's `unit`, pacing().unit, verifiedUnit) and
// spells it here, so an insert run says "rows" and "row/s", never "messages". Browser-safe, no imports.

/** Units declared in short form, spelled out in a sentence. */
const SPELLED: Record<string, { one: string; many: string }> = {
  msg: { one: "message", many: "messages" },
  req: { one: "request", many: "requests" },
  txn: { one: "transaction", many: "transactions" },
  // A compound of "by": Postgres writes "standbys", not "standbies".
  standby: { one: "standby", many: "standbys" },
};

/** "gets", "searches", "queries": a word's plural; one that is plural or a participle already ("rows returned") stays. */
export function plural(word: string): string {
  if (/(s|ed)$/.test(word)) return word;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  return /(ch|sh|x|z)$/.test(word) ? `${word}es` : `${word}s`;
}

/** A unit in a sentence's words for `n` items: "msg" → "messages", "req" → "requests", "query" → "queries";
 *  one item stays singular ("message"). Without `n`, the plural. */
export function unitWords(unit: string, n?: number): string {
  const spelled = SPELLED[unit];
  if (n === 1) return spelled?.one ?? unit;
  return spelled?.many ?? plural(unit);
}

/** "3 rows", "1 message": a count with its unit's words. */
export const countWords = (n: number, unit: string) => `${n.toLocaleString("en-US")} ${unitWords(unit, n)}`;

/** A rate's unit: "msg" → "msg/s", "row" → "row/s". */
export const perSecond = (unit: string) => `${unit}/s`;

/** Who does an operation: "write" → "writers", "enqueue" → "enqueuers". */
export const doersOf = (label: string) => (label.endsWith("e") ? `${label}rs` : `${label}ers`);

/** Whether a unit counts messages (a broker's): the only units that may be written "msg" or "message". */
export const isMessageUnit = (unit: string) => unit === "msg" || unit === "message" || unit === "messages";

/** The verb that agrees with a count: agree(1, "were", "was") is "was", any other count "were". */
export const agree = (n: number, many: string, one: string) => (n === 1 ? one : many);
