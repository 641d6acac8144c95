import { AbGroupId } from "@/lib/api/ids";
import { patchLabels } from "@/lib/api/labels-route";
import { withStoreErrors } from "@/lib/api/http";
import { setAbGroupLabels } from "@/lib/compare/ab-store";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Ctx = { params: Promise<{ id: string }> };

/** PATCH /api/runs/ab/:id {name?, notes?, tags?}: names, annotates and tags an A/B (its runs keep their own). */
async function handlePATCH(req: Request, { params }: Ctx) {
  return patchLabels(req, params, AbGroupId, "A/B", (id, labels) => setAbGroupLabels(id, labels));
}

export const PATCH = withStoreErrors(handlePATCH);
