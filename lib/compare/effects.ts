// The known effects on a built comparison's shown figures (Facts.effects, the rows each moves), numbered once per
// item and text: the page lists them under the results table, the text and Markdown exports after it.
import type { Comparison } from "./compare";

/** A known effect on an item's figures, said once: the rows it moves, numbered as the page's cells refer to it. */
export interface EffectNote {
  /** 1, 2, … in the order the results table first shows them. */
  n: number;
  /** The item's index in the comparison. */
  item: number;
  text: string;
  /** The labels of the shown rows it moves ("Write msg/s", "Write MiB/s", …). */
  rows: string[];
}

/** Every known effect on a shown figure, once per item and text (the page lists them under the results table). */
export function effectNotes(cmp: Comparison): EffectNote[] {
  const byKey = new Map<string, EffectNote>();
  for (const r of cmp.results) {
    if (r.values.every((v) => v === null)) continue;
    r.effects.forEach((texts, item) => {
      // Only where the item has a value: an effect moves a figure shown, not a "—".
      if (r.values[item] === null) return;
      for (const text of texts) {
        const k = effectKey(item, text);
        const e = byKey.get(k) ?? { n: byKey.size + 1, item, text, rows: [] };
        e.rows.push(r.label);
        byKey.set(k, e);
      }
    });
  }
  return [...byKey.values()];
}
export const effectKey = (item: number, text: string) => `${item}\u0000${text}`;

/** A known effect's short name, as a cell shows it beside its number: what comes before its explanation
 *  ("start-up burst", "rate divisor", "its latencies are HTTP round trips"). */
export function effectTag(text: string): string {
  const head = text.split(/[:;]| \(/)[0].trim();
  return head.length > 48 ? `${head.slice(0, 47)}…` : head;
}

/** "Write msg/s, Published: …: start-up burst …": every known effect on a shown row, once per item and text. */
export function effectLines(cmp: Comparison): string[] {
  return effectNotes(cmp).map((e) => `${e.rows.join(", ")} of ${cmp.items[e.item].label}: ${e.text}`);
}
