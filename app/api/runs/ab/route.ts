import { hasVariants } from "@/lib/compare/ab";
import { Pairs } from "@/lib/compare/ab-order";
import { launchAb } from "@/lib/compare/ab-store";
import { configShapeProblem } from "@/lib/targets/launch";
import { json, readJsonObject, withStoreErrors } from "@/lib/api/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const EXAMPLE = '{"config":{"kind":"cache","vus":20,"durationSeconds":10},"targetId":"default","pairs":3}';

/**
 * POST /api/runs/ab {config, targetId?, pairs?}: "Run baseline and modded". Queues `pairs` pairs (default 3) of
 * the config's baseline and modded variants (same load, same target) in balanced ABBA order (the runner takes
 * queued runs oldest first, one at a time), each validated as POST /api/runs does, and records the group.
 * 201 {group, runs: [{pair, variant, runId}], url}: `url` is the page that follows them and shows each measure
 * with its interval. 400 {error, fields} when the workload has no variants, `pairs` is out of range or a run is
 * refused (nothing stays queued); 409 when the target was deleted meanwhile.
 */
async function handlePOST(req: Request) {
  const body = await readJsonObject(req, EXAMPLE);
  if (!body.ok) return body.response;
  const { pairs: pairsIn, ...rest } = body.body;
  // What was sent is read only as the schema reads it (never String() of it, which throws for {"toString":1}): a
  // config that is not an object, or a kind that is not a name, gets the schema's own message from launchAb, as
  // POST /api/runs gives it.
  const notObject = configShapeProblem(rest.config);
  if (notObject) return json(400, { error: "invalid config", fields: { config: notObject } });
  const config = rest.config as Record<string, unknown>;
  const kind = typeof config.kind === "string" ? config.kind : undefined;
  if (kind !== undefined && !hasVariants(kind))
    return json(400, {
      error: "no variants",
      fields: { kind: `${kind ? `the ${kind} workload` : "this workload"} has no baseline and modded variants: launch it with POST /api/runs` },
    });
  const pairs = Pairs.safeParse(pairsIn);
  if (!pairs.success) return json(400, { error: "bad pairs", fields: { pairs: pairs.error.issues[0].message } });
  const r = await launchAb({ ...rest, config }, pairs.data);
  if (!r.ok) return json(r.status ?? 400, { error: r.error, fields: r.fields });
  const url = `/runs/ab?group=${r.groupId}`;
  return json(201, { group: r.groupId, runs: r.slots, url }, { location: url });
}

export const POST = withStoreErrors(handlePOST);
