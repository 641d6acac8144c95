import { afterParamProblem, resumeAfter, runEventStream } from "@/lib/runs/events";
import { json, loadRun, withStoreErrors } from "@/lib/api/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * GET /api/runs/:id/events: Server-Sent Events of the run's samples and status (format: lib/runs/events.ts).
 * Resumes after the Last-Event-ID header (sent by EventSource on reconnect) or `?after=<seq>`; an `after` that is no
 * sequence number is a 400 naming it.
 */
async function handleGET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const loaded = await loadRun(params);
  if (!loaded.ok) return loaded.response;
  const { id } = loaded;
  const afterParam = new URL(req.url).searchParams.get("after");
  const problem = afterParamProblem(afterParam);
  if (problem) return json(400, { error: problem });
  const after = resumeAfter(req.headers.get("last-event-id"), afterParam);
  return new Response(runEventStream(id, after, { signal: req.signal }), {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      // no-transform: Next's gzip would otherwise buffer the stream and hold samples back.
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
}

export const GET = withStoreErrors(handleGET);
