import { requestCancel, getRun } from "@/lib/runs/store";
import { RunId } from "@/lib/api/ids";
import { checkId, json, notFoundJson, withStoreErrors } from "@/lib/api/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * POST /api/runs/:id/cancel. A queued run is cancelled at once (200 {status:"cancelled"}); a running one is
 * stopped by its runner within ~2 s (202 {status:"cancelling"}); a finished one answers 409.
 */
async function handlePOST(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  const checked = checkId(RunId, (await params).id);
  if (!checked.ok) return checked.response;
  const { id } = checked;
  const r = await requestCancel(id);
  if (r === "missing") return notFoundJson(`run "${id}"`);
  if (r === "finished") {
    const run = await getRun(id);
    return json(409, { error: `run "${id}" has already finished (${run?.status ?? "gone"}); nothing to cancel` });
  }
  return r === "cancelled" ? json(200, { status: "cancelled" }) : json(202, { status: "cancelling" });
}

export const POST = withStoreErrors(handlePOST);
