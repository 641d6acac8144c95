import { CeilingId } from "@/lib/api/ids";
import { requestSearchCancel } from "@/lib/ceiling/store";
import { checkId, json, notFoundJson, withStoreErrors } from "@/lib/api/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * POST /api/ceilings/:id/cancel. A queued search is cancelled at once (200 {status:"cancelled"}); a running one
 * stops within ~2 s, keeping the steps done (202 {status:"cancelling"}); a finished one answers 409.
 */
async function handlePOST(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  const checked = checkId(CeilingId, (await params).id);
  if (!checked.ok) return checked.response;
  const r = await requestSearchCancel(checked.id);
  if (r === "missing") return notFoundJson(`ceiling search "${checked.id}"`);
  if (r === "finished") return json(409, { error: `ceiling search "${checked.id}" has already finished; nothing to cancel` });
  return r === "cancelled" ? json(200, { status: "cancelled" }) : json(202, { status: "cancelling" });
}

export const POST = withStoreErrors(handlePOST);
