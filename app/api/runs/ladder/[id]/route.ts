import { LadderGroupId } from "@/lib/api/ids";
import { patchLabels } from "@/lib/api/labels-route";
import { withStoreErrors } from "@/lib/api/http";
import { setLadderGroupLabels } from "@/lib/ladder/store";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Ctx = { params: Promise<{ id: string }> };

/** PATCH /api/runs/ladder/:id {name?, notes?, tags?}: names, annotates and tags a synchronous commit ladder. */
async function handlePATCH(req: Request, { params }: Ctx) {
  return patchLabels(req, params, LadderGroupId, "ladder", (id, labels) => setLadderGroupLabels(id, labels));
}

export const PATCH = withStoreErrors(handlePATCH);
