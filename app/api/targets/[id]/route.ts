import { deleteTarget } from "@/lib/targets/store";
import { TargetId } from "@/lib/api/ids";
import { checkId, json, withStoreErrors } from "@/lib/api/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** DELETE /api/targets/:id: forgets a saved target (its runs keep their label). */
async function handleDELETE(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  const checked = checkId(TargetId, (await params).id);
  if (!checked.ok) return checked.response;
  const { id } = checked;
  const r = await deleteTarget(id);
  if (r === "missing") return json(404, { error: `target "${id}" does not exist` });
  if (r === "default") return json(409, { error: "the default target comes from TARGET_DATABASE_URL (or the embedded server) and cannot be deleted" });
  if (r === "virtual") return json(409, { error: "the embedded replicated target comes with the embedded default (EMBEDDED_REPLICAS) and cannot be deleted" });
  if (r === "in-use") return json(409, { error: `target "${id}" has a queued or running run; cancel it or wait for it to finish, then delete the target` });
  return json(200, { deleted: id });
}

export const DELETE = withStoreErrors(handleDELETE);
