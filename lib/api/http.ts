// The helpers every API route handler shares (app/api/**/route.ts), server-only: JSON answers that never get cached,
// reading a JSON body with a message that says what was wrong, checking a path id, and the "load the run or 404" prologue.
import type { z } from "zod";
import { isStoreUnavailable, storeErrorText } from "@/lib/status/health";
import { RunId } from "@/lib/api/ids";
import { maskUrl } from "@/lib/targets/pgurl";
import { getRun } from "@/lib/runs/store";

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { "cache-control": "no-store", ...headers } });
}

export const notFoundJson = (what: string) => json(404, { error: `${what} does not exist` });

/** Parses the body as a JSON object, or returns the 400 to send. */
export async function readJsonObject(req: Request, example: string): Promise<{ ok: true; body: Record<string, unknown> } | { ok: false; response: Response }> {
  let body: unknown;
  try {
    body = await req.json();
  } catch {
    return {
      ok: false,
      response: json(400, {
        error: `the request body is not valid JSON; send Content-Type: application/json and a body like ${example}`,
        fields: { body: "not valid JSON" },
      }),
    };
  }
  if (!body || typeof body !== "object" || Array.isArray(body))
    return { ok: false, response: json(400, { error: `the request body must be a JSON object like ${example}`, fields: { body: "not a JSON object" } }) };
  return { ok: true, body: body as Record<string, unknown> };
}

/** An id from the path, checked by shape before any query: the value, or the 400 naming it. */
export function checkId(schema: z.ZodType<string>, id: string): { ok: true; id: string } | { ok: false; response: Response } {
  const r = schema.safeParse(id);
  if (r.success) return { ok: true, id: r.data };
  return { ok: false, response: json(400, { error: r.error.issues[0].message, fields: { id: r.error.issues[0].message } }) };
}

type RunRow = NonNullable<Awaited<ReturnType<typeof getRun>>>;

/** The prologue of every /api/runs/:id route: a well-formed id, and the run, or the 400/404 to send. */
export async function loadRun(params: Promise<{ id: string }>): Promise<{ ok: true; id: string; run: RunRow } | { ok: false; response: Response }> {
  const checked = checkId(RunId, (await params).id);
  if (!checked.ok) return checked;
  const run = await getRun(checked.id);
  if (!run) return { ok: false, response: notFoundJson(`run "${checked.id}"`) };
  return { ok: true, id: checked.id, run };
}

/**
 * Wraps a route handler so a failure never reaches the client as an empty 500: when the control store is
 * unreachable or restarting (an external DATABASE_URL that went down, say) the answer is a 503 naming the cause;
 * anything else is a 500 that says what failed. Every route handler is exported through this.
 */
export function withStoreErrors<A extends unknown[]>(handler: (...args: A) => Promise<Response>): (...args: A) => Promise<Response> {
  return async (...args: A) => {
    try {
      return await handler(...args);
    } catch (err) {
      const cause = storeErrorText(err);
      if (isStoreUnavailable(err))
        return json(503, { error: `the control store is unreachable (${cause}); try again once it answers` }, { "retry-after": "5" });
      console.error(`web app: ${maskUrl(err instanceof Error ? (err.stack ?? err.message) : String(err))}`);
      return json(500, { error: `the server could not answer: ${maskUrl(cause)}` });
    }
  };
}
