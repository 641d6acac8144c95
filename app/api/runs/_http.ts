// Small helpers shared by the run and target route handlers: JSON answers that never get cached, and
// reading a JSON body with a message that says what was wrong.

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
    return { ok: false, response: json(400, { error: `the request body is not valid JSON; send Content-Type: application/json and a body like ${example}` }) };
  }
  if (!body || typeof body !== "object" || Array.isArray(body))
    return { ok: false, response: json(400, { error: `the request body must be a JSON object like ${example}` }) };
  return { ok: true, body: body as Record<string, unknown> };
}
