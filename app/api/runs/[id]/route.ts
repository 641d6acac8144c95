import { deleteRun, setRunLabels } from "@/lib/runs/store";
import { patchLabels } from "@/lib/api/labels-route";
import { isFinal, toRunView } from "@/lib/runs/view";
import { json, loadRun, withStoreErrors } from "@/lib/api/http";
import { quoteInput, RunId } from "@/lib/api/ids";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Ctx = { params: Promise<{ id: string }> };

/** GET /api/runs/:id[?histograms=1]: the run with its summary (histograms left out unless asked for). */
async function handleGET(req: Request, { params }: Ctx) {
  // The query is checked before the database is asked anything.
  const histograms = new URL(req.url).searchParams.get("histograms");
  if (histograms !== null && histograms !== "0" && histograms !== "1")
    return json(400, { error: `histograms must be 0 or 1, not ${quoteInput(histograms)}`, fields: { histograms: "must be 0 or 1" } });
  const loaded = await loadRun(params);
  if (!loaded.ok) return loaded.response;
  return json(200, toRunView(loaded.run, { withSummary: true, withHistograms: histograms === "1" }));
}

/** DELETE /api/runs/:id: removes the run and its samples. A queued or running run must be cancelled first. */
async function handleDELETE(_req: Request, { params }: Ctx) {
  const loaded = await loadRun(params);
  if (!loaded.ok) return loaded.response;
  const { id, run } = loaded;
  if (!isFinal(toRunView(run).status))
    return json(409, { error: `run "${id}" is ${run.status}; cancel it first (POST /api/runs/${id}/cancel), then delete it` });
  await deleteRun(id);
  return json(200, { deleted: id });
}

/**
 * PATCH /api/runs/:id {name?, notes?, tags?}: changes the labels given, at any time of the run's life (null or ""
 * removes a name or notes, [] the tags). 200 {id, name, notes, tags}, or 400 {error, fields} naming each bad label.
 */
async function handlePATCH(req: Request, { params }: Ctx) {
  return patchLabels(req, params, RunId, "run", (id, labels) => setRunLabels(id, labels));
}

export const GET = withStoreErrors(handleGET);
export const PATCH = withStoreErrors(handlePATCH);
export const DELETE = withStoreErrors(handleDELETE);
