import { CeilingId } from "@/lib/api/ids";
import { deleteSearch, getSearch, setSearchLabels } from "@/lib/ceiling/store";
import { patchLabels } from "@/lib/api/labels-route";
import { isFinalSearch, toCeilingView } from "@/lib/ceiling/view";
import { checkId, json, notFoundJson, withStoreErrors } from "@/lib/api/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Ctx = { params: Promise<{ id: string }> };

/** GET /api/ceilings/:id: the search, its steps as judged, the step in progress and the outcome. */
async function handleGET(_req: Request, { params }: Ctx) {
  const checked = checkId(CeilingId, (await params).id);
  if (!checked.ok) return checked.response;
  const row = await getSearch(checked.id);
  if (!row) return notFoundJson(`ceiling search "${checked.id}"`);
  return json(200, toCeilingView(row));
}

/** DELETE /api/ceilings/:id: removes a finished search and its steps. A queued or running one must be cancelled first. */
async function handleDELETE(_req: Request, { params }: Ctx) {
  const checked = checkId(CeilingId, (await params).id);
  if (!checked.ok) return checked.response;
  const row = await getSearch(checked.id);
  if (!row) return notFoundJson(`ceiling search "${checked.id}"`);
  if (!isFinalSearch(toCeilingView(row)))
    return json(409, { error: `ceiling search "${checked.id}" is ${row.status}; cancel it first (POST /api/ceilings/${checked.id}/cancel), then delete it` });
  await deleteSearch(checked.id);
  return json(200, { deleted: checked.id });
}

/** PATCH /api/ceilings/:id {name?, notes?, tags?}: names, annotates and tags a search, at any time of its life. */
async function handlePATCH(req: Request, { params }: Ctx) {
  return patchLabels(req, params, CeilingId, "ceiling search", (id, labels) => setSearchLabels(id, labels));
}

export const GET = withStoreErrors(handleGET);
export const PATCH = withStoreErrors(handlePATCH);
export const DELETE = withStoreErrors(handleDELETE);
