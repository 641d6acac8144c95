import { samplesAfter } from "@/lib/runs/store";
import { samplesToCsv } from "@/lib/runs/samples-csv";
import { toSample } from "@/lib/runs/view";
import type { Sample } from "@/lib/measurement/sample";
import { loadRun, withStoreErrors } from "@/lib/api/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** GET /api/runs/:id/samples.csv: one row per one-second sample (columns: lib/runs/samples-csv.ts, docs/api.md). */
async function handleGET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  const loaded = await loadRun(params);
  if (!loaded.ok) return loaded.response;
  const { id, run } = loaded;
  const samples = (await samplesAfter(id)).map(toSample).filter((s): s is Sample => s !== null);
  return new Response(samplesToCsv(samples, run.workload), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="pgbb-${id}-samples.csv"`,
      "cache-control": "no-store",
    },
  });
}

export const GET = withStoreErrors(handleGET);
