// Shapes of the ids and free-text names the API accepts, checked before any query. Browser-safe.
// Postgres refuses a NUL byte in text (error 22021), and an id that could never exist should not reach the
// database at all: a malformed id is a 400 naming the field, not a 500 or a slow 404.
import { z } from "zod";
import { workloadDefinition, workloadDefinitions } from "../workloads/config";

/** Run ids are r_<12 hex>, imports imp_<12 hex>, targets t_<10 hex>; older fixtures use shorter words. */
const ID_SHAPE = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;

/** A readable quote of what was sent: control characters shown as \u0000, long values cut. */
export const quoteInput = (v: string): string => JSON.stringify(v.length > 80 ? `${v.slice(0, 77)}…` : v);

/** A schema for one id field: `what` names it in the message ("run id", "targetId"). */
export const IdSchema = (what: string, example: string) =>
  z.string({ error: `${what} must be text, e.g. ${example}` }).refine((v) => ID_SHAPE.test(v), {
    error: (i) => `${what} ${quoteInput(String(i.input))} is not a valid id: ids are 1-64 letters, digits, _ . : -, e.g. ${example}`,
  });

export const RunId = IdSchema("run id", "r_0123456789ab");
export const ImportId = IdSchema("import id", "imp_0123456789ab");
export const TargetId = IdSchema("targetId", '"default" or t_0123456789');
export const CeilingId = IdSchema("ceiling search id", "c_0123456789ab");
export const AbGroupId = IdSchema("A/B group id", "ab_0123456789ab");
export const LadderGroupId = IdSchema("ladder id", "sc_0123456789ab");
export const RepeatGroupId = IdSchema("repeated set id", "rp_0123456789ab");

// Control characters other than tab and newlines: NUL cannot be stored, the others only garble a label.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Refinement for free text (names, labels): control characters (NUL first among them) are refused, naming the field. */
export const noControlChars = (field: string) =>
  [(v: string | undefined) => v === undefined || !CONTROL.test(v), `${field} contains a control character (such as \\u0000); remove it`] as const;

/** First problem of a Zod error as {field: message}, with "_" never used for a top-level problem. */
export function firstFieldErrors(err: z.ZodError, topField: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of err.issues) out[i.path.join(".") || topField] ??= i.message;
  return out;
}

/** A list's `?workload=<kind>` filter: a registered workload's kind, else a message naming the kinds there are. */
export const WorkloadFilter = z
  .string()
  .refine((k) => workloadDefinition(k) !== undefined, {
    error: (i) =>
      `workload ${quoteInput(String(i.input))} is unknown; use ${workloadDefinitions()
        .map((d) => d.kind)
        .join(" or ")}`,
  })
  .optional();
