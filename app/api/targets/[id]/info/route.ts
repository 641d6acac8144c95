import { controlStoreIdentity, resolveTarget, targetInfo } from "@/lib/targets/store";
import { TargetId } from "@/lib/api/ids";
import { checkId, json, withStoreErrors } from "@/lib/api/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * GET /api/targets/:id/info: server version and connection limits (max, reserved, in use, available), and why no
 * run could use it (readOnly, controlStore: null when it can). The embedded replicated target before its first run
 * has nothing to probe: `info` is null and `pending` says it starts with the run.
 */
async function handleGET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  const checked = checkId(TargetId, (await params).id);
  if (!checked.ok) return checked.response;
  const { id } = checked;
  const target = await resolveTarget(id);
  if (!target) return json(404, { error: `target "${id}" does not exist` });
  if (target.pending?.refuse) return json(409, { error: `${target.name}: ${target.pending.note}` });
  if (target.pending) return json(200, { target: { id: target.id, name: target.name, maskedUrl: target.maskedUrl }, info: null, pending: target.pending.note });
  try {
    return json(200, {
      target: { id: target.id, name: target.name, maskedUrl: target.maskedUrl },
      info: await targetInfo(target.url, 5000, await controlStoreIdentity()),
    });
  } catch (err) {
    return json(502, { error: `${target.name}: ${(err as Error).message}` });
  }
}

export const GET = withStoreErrors(handleGET);
