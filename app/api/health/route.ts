import { checkHealth } from "@/lib/status/health";
import { withStoreErrors } from "@/lib/api/http";

export const dynamic = "force-dynamic";

/** GET /api/health: whether the control store, the target and a runner are up. 200 when all are, else 503. */
async function handleGET() {
  const health = await checkHealth();
  return Response.json(health, { status: health.ok ? 200 : 503, headers: { "cache-control": "no-store" } });
}

export const GET = withStoreErrors(handleGET);
