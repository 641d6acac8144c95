import { parseSummary } from "@/lib/runs/view";
import { json, loadRun, withStoreErrors } from "@/lib/api/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** GET /api/runs/:id/summary: the RunSummary (lib/measurement/summary.ts) as a JSON download, histograms included. */
async function handleGET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  const loaded = await loadRun(params);
  if (!loaded.ok) return loaded.response;
  const { id, run } = loaded;
  const summary = parseSummary(run.summary);
  if (!summary)
    return json(409, {
      error: `run "${id}" has no summary: it is ${run.status}${run.error ? ` (${run.error})` : ""}. Only completed runs have one`,
    });
  return new Response(`${JSON.stringify(summary, null, 2)}\n`, {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="pgbb-${id}-summary.json"`,
      "cache-control": "no-store",
    },
  });
}

export const GET = withStoreErrors(handleGET);
