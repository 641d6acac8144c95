// Names, notes and tags (issue 33): what a person calls a run, an A/B, a ladder or a ceiling search. One schema
// for every way they come in (the launch's body, PATCH, the New run form, the CLI's --name/--tag/--notes), so each
// says the same words for the same mistake. Browser-safe: the form checks with it before it sends.
import { z } from "zod";
import { noControlChars, quoteInput } from "../api/ids";

export const MAX_NAME = 120;
export const MAX_NOTES = 10_000;
export const MAX_TAG = 40;
export const MAX_TAGS = 20;
/** Letters and digits of any script, and - _ . : (so "pg18", "wal:sync", "v1.2" are tags; a space or a comma parts two). */
const TAG_SHAPE = /^[\p{L}\p{N}_.:-]+$/u;

export interface Labels {
  name: string | null;
  notes: string | null;
  tags: string[];
}

/** "a, b c,,d" → ["a", "b", "c", "d"]: the form's and the CLI's tags, parted by commas or spaces, each once. */
export function splitTags(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter(Boolean))];
}

// Blank text is no name (null), so clearing the field removes it rather than storing "".
const blankIsNull = (v: string) => (v.trim() === "" ? null : v.trim());

const Name = z
  .string({ error: `name must be text of at most ${MAX_NAME} characters, or null to remove it` })
  .refine(...noControlChars("name"))
  .refine((v) => v.trim().length <= MAX_NAME, {
    error: (i) => `name is ${String(i.input).trim().length} characters long; shorten it to ${MAX_NAME} or fewer`,
  })
  .transform(blankIsNull)
  .nullable();

// Notes keep their lines and tabs (noControlChars allows them).
const Notes = z
  .string({ error: `notes must be text of at most ${MAX_NOTES} characters, or null to remove them` })
  .refine(...noControlChars("notes"))
  .refine((v) => v.length <= MAX_NOTES, {
    error: (i) => `notes are ${String(i.input).length} characters long; shorten them to ${MAX_NOTES.toLocaleString("en")} or fewer`,
  })
  .transform(blankIsNull)
  .nullable();

/** One tag; also the runs list's tag filter (lib/runs/list-filter.ts). */
export const Tag = z.string({ error: "each tag must be text" }).superRefine((t, ctx) => {
  if (t.length > MAX_TAG) ctx.addIssue({ code: "custom", message: `tag ${quoteInput(t)} is ${t.length} characters long; shorten it to ${MAX_TAG} or fewer` });
  else if (!TAG_SHAPE.test(t))
    ctx.addIssue({
      code: "custom",
      message: `tag ${quoteInput(t)} has a character other than letters, digits and - _ . :; part tags with commas or spaces, e.g. "pg18, wal:sync"`,
    });
});

/** Tags as a list, or as the form's and the CLI's text ("a, b c"); each once, in the order given. */
const Tags = z
  .preprocess(
    (v) => (typeof v === "string" ? splitTags(v) : v),
    z.array(Tag, { error: `tags must be a list of tags (["pg18", "wal:sync"]) or a text of tags parted by commas or spaces` }),
  )
  .transform((tags) => [...new Set(tags)])
  .refine((tags) => tags.length <= MAX_TAGS, { error: (i) => `${(i.input as string[]).length} tags given; keep at most ${MAX_TAGS}` });

/** The labels a body may carry, each optional (PATCH changes only those given; null or "" removes one). */
export const LabelsInput = z.object({ name: Name.optional(), notes: Notes.optional(), tags: Tags.optional() });
export type LabelsInput = z.output<typeof LabelsInput>;

export const LABEL_KEYS = ["name", "notes", "tags"] as const;

/** The labels of `input` (only its name/notes/tags keys are read), or {field: message} for the first problem of each. */
export function parseLabels(input: Record<string, unknown>): { ok: true; labels: LabelsInput } | { ok: false; fields: Record<string, string> } {
  const picked = Object.fromEntries(LABEL_KEYS.filter((k) => input[k] !== undefined).map((k) => [k, input[k]]));
  const r = LabelsInput.safeParse(picked);
  if (r.success) return { ok: true, labels: r.data };
  const fields: Record<string, string> = {};
  for (const i of r.error.issues) fields[String(i.path[0] ?? "labels")] ??= i.message;
  return { ok: false, fields };
}

/** The stored columns of labels given at a launch (absent ones are none). */
export const labelColumns = (l: LabelsInput = {}): Labels => ({ name: l.name ?? null, notes: l.notes ?? null, tags: l.tags ?? [] });

/**
 * The name of a set's run (an A/B's, a ladder's): the set's name and the run's place, "WAL test · modded, pair 2",
 * the set's name cut so the whole stays within MAX_NAME; null when the set has no name.
 */
export function memberName(setName: string | null | undefined, place: string): string | null {
  if (!setName) return null;
  const room = MAX_NAME - place.length - 3;
  return `${setName.length > room ? `${setName.slice(0, room - 1)}…` : setName} · ${place}`;
}
