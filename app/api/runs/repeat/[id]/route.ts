import { RepeatGroupId } from "@/lib/api/ids";
import { patchLabels } from "@/lib/api/labels-route";
import { withStoreErrors } from "@/lib/api/http";
import { setRepeatGroupLabels } from "@/lib/repeat/store";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Ctx = { params: Promise<{ id: string }> };

/** PATCH /api/runs/repeat/:id {name?, notes?, tags?}: names, annotates and tags a repeated set. */
async function handlePATCH(req: Request, { params }: Ctx) {
  return patchLabels(req, params, RepeatGroupId, "repeated set", (id, labels) => setRepeatGroupLabels(id, labels));
}

export const PATCH = withStoreErrors(handlePATCH);
