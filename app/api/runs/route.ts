import { FILTER_KEYS, parseListQuery } from "@/lib/runs/list-filter";
import { deleteRunsMatching, listRunRows } from "@/lib/runs/store";
import { toRunView } from "@/lib/runs/view";
import { launchRun } from "@/lib/targets/launch";
import { workloadDefinitions } from "@/lib/workloads/config";
import { json, readJsonObject, withStoreErrors } from "@/lib/api/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The list's filter from the query (lib/runs/list-filter.ts), or the 400 naming the first bad parameter. */
function filterOf(req: Request) {
  const parsed = parseListQuery(new URL(req.url).searchParams);
  if (parsed.ok) return parsed;
  return { ok: false as const, response: json(400, { error: Object.values(parsed.fields)[0], fields: parsed.fields }) };
}

/**
 * GET /api/runs[?workload=<kind>][&status=completed,…][&target=<name>][&tag=<tag>][&q=<text>][&from=&to=YYYY-MM-DD]:
 * the runs that match, newest first, with headline numbers, names, notes and tags.
 */
async function handleGET(req: Request) {
  const f = filterOf(req);
  if (!f.ok) return f.response;
  const rows = await listRunRows(f.filter);
  return json(200, { runs: rows.map((r) => toRunView(r)) });
}

/**
 * DELETE /api/runs?<the same filter>: deletes every run it matches, with their samples, but queued and running ones
 * (cancel them first). 200 {deleted, skipped}. With no filter it deletes nothing and answers 400, unless asked with
 * all=1: a mistyped parameter (ignored as no filter) must not empty the store. The list's "Delete these N runs" is
 * shown only once a filter is set, and asks first, saying how many.
 */
async function handleDELETE(req: Request) {
  const f = filterOf(req);
  if (!f.ok) return f.response;
  const none = Object.values(f.filter).every((v) => v === undefined || (Array.isArray(v) && v.length === 0));
  if (none && new URL(req.url).searchParams.get("all") !== "1") {
    const error = `no filter given, so every finished run would be deleted: give one or more of ${FILTER_KEYS.join(", ")}, or all=1 to delete every finished run`;
    return json(400, { error, fields: { query: error } });
  }
  return json(200, await deleteRunsMatching(f.filter));
}

// A body that parses, in the bad-JSON message: the first workload with knobs every workload has.
const EXAMPLE = JSON.stringify({ config: { kind: workloadDefinitions()[0].kind, writers: 4, durationSeconds: 30 }, targetId: "default" });

/**
 * POST /api/runs {config, targetId?, name?, notes?, tags?}: validates with the same schema as the form and the CLI, checks the
 * target is reachable and has room for the run's connections, queues the run. 201 {id, url}, or 400
 * {error, fields: {<field>: <message>}}; 409 {error, fields: {targetId}} when its saved
 * target was deleted meanwhile.
 */
async function handlePOST(req: Request) {
  const body = await readJsonObject(req, EXAMPLE);
  if (!body.ok) return body.response;
  const r = await launchRun(body.body);
  if (!r.ok) return json(r.status ?? 400, { error: r.error, fields: r.fields });
  return json(201, { id: r.id, url: `/runs/${r.id}` }, { location: `/runs/${r.id}` });
}

export const GET = withStoreErrors(handleGET);
export const POST = withStoreErrors(handlePOST);
export const DELETE = withStoreErrors(handleDELETE);
