// The runs list's filter (issue 33): workload, target, tag, status, created date and a search over names and notes.
// One schema reads it from the page's address and from GET and DELETE /api/runs, and one SQL condition applies it
// (lib/runs/store.ts), so the rows the list shows are the rows "Delete these N runs" deletes.
import { z } from "zod";
import { RUN_STATUSES } from "../measurement/metrics";
import { noControlChars, quoteInput, WorkloadFilter } from "../api/ids";
import { Tag } from "./labels";

export interface RunListFilter {
  workload?: string;
  statuses?: string[];
  /** The target's name as the run stored it (target_label): a deleted target's runs still match. */
  target?: string;
  tag?: string;
  /** Case-insensitive, anywhere in the name or the notes. */
  text?: string;
  /** Created on or after this day, and on or before that one (whole days, UTC). */
  from?: string;
  to?: string;
}

/** The query keys, as the page's address and the API spell them (components/runs/query.ts writes them in this order). */
export const FILTER_KEYS = ["workload", "status", "target", "tag", "q", "from", "to"] as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const Day = (key: "from" | "to") =>
  z
    .string()
    .refine((v) => DAY.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), {
      error: (i) => `${key} ${quoteInput(String(i.input))} is not a day; give it as YYYY-MM-DD, e.g. 2026-11-29`,
    })
    .optional();

const Statuses = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const list = v?.split(",").filter(Boolean) ?? [];
    const bad = list.find((s) => !(RUN_STATUSES as readonly string[]).includes(s));
    if (bad) ctx.addIssue({ code: "custom", message: `status ${quoteInput(bad)} is unknown; use one or more of ${RUN_STATUSES.join(", ")}` });
    return list;
  });

const Text = (key: string, max: number) =>
  z
    .string()
    .refine(...noControlChars(key))
    .refine((v) => v.length <= max, { error: `${key} is longer than ${max} characters; shorten it` })
    .optional();

export const RunListQuery = z
  .object({
    workload: WorkloadFilter,
    status: Statuses,
    target: Text("target", 200),
    tag: Tag.optional(),
    q: Text("q", 200),
    from: Day("from"),
    to: Day("to"),
  })
  .refine((v) => !v.from || !v.to || v.from <= v.to, { error: "from is after to; give from on or before to", path: ["from"] });

/** The filter of a query string, or {field: message} naming the first bad key. Empty values are no filter. */
export function parseListQuery(q: URLSearchParams): { ok: true; filter: RunListFilter } | { ok: false; fields: Record<string, string> } {
  const raw = Object.fromEntries(FILTER_KEYS.map((k) => [k, q.get(k) || undefined]));
  const r = RunListQuery.safeParse(raw);
  if (!r.success) {
    const fields: Record<string, string> = {};
    for (const i of r.error.issues) fields[String(i.path[0] ?? "query")] ??= i.message;
    return { ok: false, fields };
  }
  const d = r.data;
  return {
    ok: true,
    filter: { workload: d.workload, statuses: d.status, target: d.target, tag: d.tag, text: d.q?.trim() || undefined, from: d.from, to: d.to },
  };
}

/** A LIKE pattern matching `text` anywhere, its own % _ and \ taken literally. */
export const likeAnywhere = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
