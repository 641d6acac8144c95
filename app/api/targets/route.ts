import { addTarget, listTargets } from "@/lib/targets/store";
import { json, readJsonObject, withStoreErrors } from "@/lib/api/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** GET /api/targets: the default target and the saved ones, connection strings masked. */
async function handleGET() {
  return json(200, { targets: await listTargets() });
}

/**
 * POST /api/targets {name?, connectionString}: connects once (5 s at most), then saves. 201 {target,
 * serverVersion, warnings} with the URL masked (warnings: e.g. the database is read-only); 400 {error, fields} naming
 * what is wrong (bad URL, unreachable, name taken, the app's own control store).
 */
async function handlePOST(req: Request) {
  const body = await readJsonObject(req, '{"name":"staging","connectionString":"postgresql://user:password@host:5432/db"}');
  if (!body.ok) return body.response;
  const r = await addTarget(body.body);
  if (!r.ok) return json(400, { error: "invalid target", fields: r.errors });
  return json(201, { target: r.target, serverVersion: r.serverVersion, warnings: r.warnings });
}

export const GET = withStoreErrors(handleGET);
export const POST = withStoreErrors(handlePOST);
