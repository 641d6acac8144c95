// The order of an A/B's runs: N pairs of baseline and modded, balanced ABBA (pair 1 baseline first, pair 2
// modded first, …) so that neither variant always runs first on a warmer cache, a fuller table or a later
// checkpoint. The order is recorded with the group (AbSlot) and shown beside the results. Browser-safe.
import { z } from "zod";
import { VARIANTS, type Variant } from "../../workloads/yong/fields";

export const DEFAULT_PAIRS = 3;
export const MAX_PAIRS = 10;

/** One run of an A/B: its pair (1-based), its variant, and the run's id once queued. */
export const AbSlot = z.object({ pair: z.number().int().min(1), variant: z.enum(VARIANTS), runId: z.string() });
export type AbSlot = z.infer<typeof AbSlot>;

/** The variants in the order they run: ABBA over the pairs (odd pairs baseline first, even pairs modded first). */
export function abOrder(pairs: number): { pair: number; variant: Variant }[] {
  const out: { pair: number; variant: Variant }[] = [];
  for (let pair = 1; pair <= pairs; pair++) {
    const first: Variant = pair % 2 === 1 ? "baseline" : "modded";
    const second: Variant = first === "baseline" ? "modded" : "baseline";
    out.push({ pair, variant: first }, { pair, variant: second });
  }
  return out;
}

/** The order as letters, A baseline and B modded: "AB BA AB". */
export const orderText = (slots: { pair: number; variant: Variant }[]): string =>
  [...new Set(slots.map((s) => s.pair))]
    .map((p) =>
      slots
        .filter((s) => s.pair === p)
        .map((s) => (s.variant === "baseline" ? "A" : "B"))
        .join(""),
    )
    .join(" ");

/** How many pairs to run: a whole number from 1 to MAX_PAIRS, DEFAULT_PAIRS when not given. */
export const Pairs = z
  .number({ error: `pairs must be a whole number from 1 to ${MAX_PAIRS}, e.g. ${DEFAULT_PAIRS}` })
  .int({ error: `pairs must be a whole number from 1 to ${MAX_PAIRS}, e.g. ${DEFAULT_PAIRS}` })
  .min(1, { error: `pairs must be at least 1 (one baseline and one modded run); ${DEFAULT_PAIRS} or more give an interval worth reading` })
  .max(MAX_PAIRS, { error: `pairs must be at most ${MAX_PAIRS}: each pair is two full runs` })
  .default(DEFAULT_PAIRS);
