import { json, loadRun, withStoreErrors } from "@/lib/api/http";
import { exportBundle, NotExportable } from "@/lib/bundle/export";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** GET /api/runs/:id/bundle: the finished run as a bundle (lib/bundle/schema.ts) another instance imports (POST /api/imports/bundle). */
async function handleGET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  const loaded = await loadRun(params);
  if (!loaded.ok) return loaded.response;
  try {
    const bundle = await exportBundle([loaded.id], { kind: "run" });
    return new Response(JSON.stringify(bundle), {
      headers: {
        "content-type": "application/json; charset=utf-8",
        "content-disposition": `attachment; filename="pgbb-${loaded.id}-bundle.json"`,
        "cache-control": "no-store",
      },
    });
  } catch (err) {
    if (err instanceof NotExportable) return json(409, { error: err.message });
    throw err;
  }
}

export const GET = withStoreErrors(handleGET);
