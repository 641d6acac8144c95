import { z } from "zod";
import { firstFieldErrors, WorkloadFilter } from "@/lib/api/ids";
import { launchCeiling } from "@/lib/ceiling/launch";
import { listSearches } from "@/lib/ceiling/store";
import { toCeilingView } from "@/lib/ceiling/view";
import { json, readJsonObject, withStoreErrors } from "@/lib/api/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const Query = z.object({
  workload: WorkloadFilter,
});

/** GET /api/ceilings[?workload=<kind>]: every ceiling search, newest first, with its steps. */
async function handleGET(req: Request) {
  const parsed = Query.safeParse({ workload: new URL(req.url).searchParams.get("workload") || undefined });
  if (!parsed.success) {
    const fields = firstFieldErrors(parsed.error, "query");
    return json(400, { error: Object.values(fields)[0], fields });
  }
  const rows = await listSearches({ workload: parsed.data.workload });
  return json(200, { ceilings: rows.map(toCeilingView) });
}

const EXAMPLE = '{"config":{"kind":"queue","writers":4,"readers":4},"settings":{"slo":"p99<50ms","stepSeconds":30},"targetId":"default"}';

/**
 * POST /api/ceilings {config, settings, targetId?}: the config checked as a run's, the settings (goal, metric,
 * step, bounds) by lib/ceiling/settings.ts; queues the search. 201 {id, url}, or 400 {error, fields}; 409 {error, fields: {targetId}} when its saved
 * target was deleted meanwhile.
 */
async function handlePOST(req: Request) {
  const body = await readJsonObject(req, EXAMPLE);
  if (!body.ok) return body.response;
  const r = await launchCeiling(body.body);
  if (!r.ok) return json(r.status ?? 400, { error: r.error, fields: r.fields });
  return json(201, { id: r.id, url: `/ceilings/${r.id}` }, { location: `/ceilings/${r.id}` });
}

export const GET = withStoreErrors(handleGET);
export const POST = withStoreErrors(handlePOST);
