// Small shared pieces of the compare view: item colours, the source badge, number cells.
import type { Badge, Comparable } from "@/lib/compare/comparable";

/** One colour per selected item, in selection order (colour-blind-friendlier than a rainbow). */
export const ITEM_COLORS = ["#2457c5", "#d9480f", "#2b8a3e", "#9c36b5", "#0b7285", "#c92a2a", "#e67700", "#495057"];
export const colorOf = (i: number) => ITEM_COLORS[i % ITEM_COLORS.length];

const BADGE_CLASS: Record<Badge, string> = { measured: "ok", imported: "warn", published: "neutral" };
export function SourceBadge({ badge }: { badge: Badge }) {
  return (
    <span className={`badge ${BADGE_CLASS[badge]} source-badge`} data-badge={badge}>
      {badge}
    </span>
  );
}

export function ItemName({ item, index }: { item: Comparable; index: number }) {
  return (
    <span className="item-name">
      <span className="swatch" style={{ background: colorOf(index) }} aria-hidden />
      <a href={item.href}>{item.label}</a>
      {/* A named run is called by its name; its id stays beside it, small. */}
      {item.kind === "run" && !item.label.startsWith(item.key) && <span className="mono muted small item-id">{item.key}</span>}
    </span>
  );
}
