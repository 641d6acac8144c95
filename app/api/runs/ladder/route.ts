import { json, readJsonObject, withStoreErrors } from "@/lib/api/http";
import { Levels, Repeats } from "@/lib/ladder/order";
import { ladderUrl, launchLadder } from "@/lib/ladder/store";
import { configShapeProblem } from "@/lib/targets/launch";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const EXAMPLE =
  '{"config":{"kind":"pubsub","durationSeconds":10},"targetId":"default","levels":["off","local","remote_write","on","remote_apply"],"repeats":3}';

/** Levels as a list, or as the CLI writes them ("off,local,on"). */
const levelsIn = (v: unknown): unknown =>
  typeof v === "string"
    ? v
        .split(",")
        .map((w) => w.trim())
        .filter(Boolean)
    : v;

/**
 * POST /api/runs/ladder {config, targetId?, levels, repeats?}: the synchronous commit ladder. Queues the config once
 * per synchronous_commit level (any of off, local, remote_write, on, remote_apply, run in that order) and round
 * (`repeats`, default 3), round 1 up the levels, round 2 down them and so on, on one target (the runner takes queued
 * runs oldest first, one at a time), each validated as POST /api/runs does, and records the group.
 * 201 {group, runs: [{round, level, runId}], url}: `url` is the page that follows them and shows each level's figures
 * with their intervals. 400 {error, fields} when a level is not one, `repeats` is out of range or a run is refused
 * (nothing stays queued); 409 when the target was deleted meanwhile.
 */
async function handlePOST(req: Request) {
  const body = await readJsonObject(req, EXAMPLE);
  if (!body.ok) return body.response;
  const { levels: levelsRaw, repeats: repeatsRaw, ...rest } = body.body;
  const notObject = configShapeProblem(rest.config);
  if (notObject) return json(400, { error: "invalid config", fields: { config: notObject } });
  const levels = Levels.safeParse(levelsIn(levelsRaw));
  if (!levels.success) return json(400, { error: "bad levels", fields: { levels: levels.error.issues[0].message } });
  const repeats = Repeats.safeParse(repeatsRaw);
  if (!repeats.success) return json(400, { error: "bad repeats", fields: { repeats: repeats.error.issues[0].message } });
  const r = await launchLadder({ ...rest, config: rest.config as Record<string, unknown> }, levels.data, repeats.data);
  if (!r.ok) return json(r.status ?? 400, { error: r.error, fields: r.fields });
  const url = ladderUrl(r.groupId);
  return json(201, { group: r.groupId, runs: r.slots, url }, { location: url });
}

export const POST = withStoreErrors(handlePOST);
