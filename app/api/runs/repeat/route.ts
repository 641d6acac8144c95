import { json, readJsonObject, withStoreErrors } from "@/lib/api/http";
import { launchRepeat, Repeat, repeatUrl } from "@/lib/repeat/store";
import { configShapeProblem } from "@/lib/targets/launch";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const EXAMPLE = '{"config":{"kind":"queue","throttleWritesPerSec":500,"durationSeconds":30},"targetId":"default","repeat":6}';

/**
 * POST /api/runs/repeat {config, targetId?, repeat}: a repeated set. Queues the config `repeat` times (2 to 20) on one
 * target (the runner takes queued runs oldest first, one at a time), each validated as POST /api/runs does, and
 * records the set. 201 {group, runs: [runId], url}: `url` is the page that follows them and shows each figure with its
 * spread and the interval of its median. 400 {error, fields} when `repeat` is out of range or a run is refused
 * (nothing stays queued); 409 when the target was deleted meanwhile.
 */
async function handlePOST(req: Request) {
  const body = await readJsonObject(req, EXAMPLE);
  if (!body.ok) return body.response;
  const { repeat: repeatRaw, ...rest } = body.body;
  const notObject = configShapeProblem(rest.config);
  if (notObject) return json(400, { error: "invalid config", fields: { config: notObject } });
  const repeat = Repeat.safeParse(repeatRaw);
  if (!repeat.success) return json(400, { error: "bad repeat", fields: { repeat: repeat.error.issues[0].message } });
  const r = await launchRepeat({ ...rest, config: rest.config as Record<string, unknown> }, repeat.data);
  if (!r.ok) return json(r.status ?? 400, { error: r.error, fields: r.fields });
  const url = repeatUrl(r.groupId);
  return json(201, { group: r.groupId, runs: r.runIds, url }, { location: url });
}

export const POST = withStoreErrors(handlePOST);
