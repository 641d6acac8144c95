// Shapes of what the API sends to the browser (JSON answers and the run's Server-Sent Events), parsed on arrival
// instead of cast: a payload of another shape (an older server, a proxy's error page) becomes a message on the
// page, never a crash deep inside a chart. Browser-safe: Zod and other browser-safe schemas only.
import { z } from "zod";
import { Phase, RUN_STATUSES } from "../measurement/metrics";
import { Sample } from "../measurement/sample";

/** A refusal: {error, fields?} (or {error, field?} from the import route). */
export const ApiRefusal = z.object({
  error: z.string().optional(),
  fields: z.record(z.string(), z.string()).optional(),
  field: z.string().optional(),
});
export type ApiRefusal = z.infer<typeof ApiRefusal>;

/** 201 of POST /api/runs. */
export const RunCreated = z.object({ id: z.string(), url: z.string() });

/** `event: status` of GET /api/runs/:id/events (lib/runs/events.ts). */
export const RunStatusEvent = z.object({
  status: z.enum(RUN_STATUSES),
  phase: Phase.nullable(),
  error: z.string().nullable(),
  cancelRequested: z.boolean(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** "waiting for parts 2, 3 of 4": parts opened for other runners that none has taken yet (lib/runs/waiting.ts). */
  waitingForParts: z.string().nullable().optional(),
});
export type RunStatusEvent = z.infer<typeof RunStatusEvent>;

export const SampleEvent = Sample;
export const ProblemEvent = z.object({ message: z.string() });
export const EndEvent = z.object({ status: z.string() });

/** Parses an SSE `data:` line or a JSON text; null when it is not JSON or not of the shape. */
export function parsePayload<T>(schema: z.ZodType<T>, text: string): T | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  const r = schema.safeParse(raw);
  return r.success ? r.data : null;
}

/** A refusal's words for the page: the error, then each field's message. */
export async function refusalText(r: Response): Promise<string> {
  const body = ApiRefusal.safeParse(await r.json().catch(() => null));
  if (!body.success) return `HTTP ${r.status}`;
  const fields = body.data.fields ? Object.values(body.data.fields).join("; ") : "";
  return [body.data.error, fields].filter(Boolean).join(": ") || `HTTP ${r.status}`;
}
