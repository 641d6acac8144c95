// The synchronous commit ladder's plan: which levels (any of lib/sync-commit.ts's five, in their order), how many
// repeats, and the order the runs go in. Like the A/B's ABBA (lib/compare/ab-order.ts), the order is balanced:
// round 1 climbs the levels, round 2 descends them, and so on, so no level always runs first, on the coldest
// cache, or last, on the fullest table and the latest checkpoint. The order is recorded with the group
// (LadderSlot) and shown beside the results. Browser-safe.
import { z } from "zod";
import { DEFAULT_PAIRS, MAX_PAIRS } from "../compare/ab-order";
import { SYNC_COMMIT_CHOICES, SYNC_COMMIT_LEVELS, type SyncCommitLevel } from "../sync-commit";

/** Repeats of each level: as many as an A/B's pairs, by default and at most. */
export const DEFAULT_REPEATS = DEFAULT_PAIRS;
export const MAX_REPEATS = MAX_PAIRS;

/** One run of a ladder: its round (1-based), its level, and the run's id once queued. */
export const LadderSlot = z.object({ round: z.number().int().min(1), level: z.enum(SYNC_COMMIT_LEVELS), runId: z.string() });
export type LadderSlot = z.infer<typeof LadderSlot>;

const repeatsWords = `repeats must be a whole number from 1 to ${MAX_REPEATS}, e.g. ${DEFAULT_REPEATS}`;
/** How many rounds to run: a whole number from 1 to MAX_REPEATS, DEFAULT_REPEATS when not given. */
export const Repeats = z
  .number({ error: repeatsWords })
  .int({ error: repeatsWords })
  .min(1, { error: `repeats must be at least 1; ${DEFAULT_REPEATS} or more give an interval worth reading` })
  .max(MAX_REPEATS, { error: `repeats must be at most ${MAX_REPEATS}: each repeat is one full run per level` })
  .default(DEFAULT_REPEATS);

/** The levels asked, in the ladder's order (lib/sync-commit.ts), each once; refused naming a level that is none. */
export const Levels = z
  .array(z.string(), { error: `levels must be a list of synchronous_commit levels: ${SYNC_COMMIT_CHOICES}` })
  .min(1, { error: `name at least one level: ${SYNC_COMMIT_CHOICES}` })
  .superRefine((xs, ctx) => {
    for (const x of xs)
      if (!(SYNC_COMMIT_LEVELS as readonly string[]).includes(x))
        ctx.addIssue({ code: "custom", message: `"${x}" is not a synchronous_commit level: use ${SYNC_COMMIT_CHOICES}` });
  })
  .transform((xs) => SYNC_COMMIT_LEVELS.filter((l) => xs.includes(l)));

/** "off,local, on" → the levels in ladder order, or the message naming the first word that is not a level. */
export function parseLevels(text: string): { ok: true; levels: SyncCommitLevel[] } | { ok: false; message: string } {
  const words = text
    .split(",")
    .map((w) => w.trim())
    .filter(Boolean);
  const r = Levels.safeParse(words);
  return r.success ? { ok: true, levels: r.data } : { ok: false, message: r.error.issues[0].message };
}

/** The runs in the order they go: round after round, odd rounds up the levels, even rounds down them. */
export function ladderOrder(levels: readonly SyncCommitLevel[], repeats: number): { round: number; level: SyncCommitLevel }[] {
  const out: { round: number; level: SyncCommitLevel }[] = [];
  for (let round = 1; round <= repeats; round++) {
    const these = round % 2 === 1 ? levels : [...levels].reverse();
    for (const level of these) out.push({ round, level });
  }
  return out;
}

/** The order as text, a round a clause: "off → on, then on → off". */
export const ladderOrderText = (slots: readonly { round: number; level: string }[]): string =>
  [...new Set(slots.map((s) => s.round))]
    .map((r) =>
      slots
        .filter((s) => s.round === r)
        .map((s) => s.level)
        .join(" → "),
    )
    .join(", then ");
