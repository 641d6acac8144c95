import { hgrmOf, histogramsOf, hlogOf, parseHistogramFile } from "@/lib/measurement/hdr-export";
import { parseSummary } from "@/lib/runs/view";
import { json, loadRun, withStoreErrors } from "@/lib/api/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * GET /api/runs/:id/histograms/FILE: one of the run's latency histograms, the merged histogram of its measured window,
 * in HdrHistogram's own formats (lib/measurement/hdr-export.ts): `<operation>.<kind>.hlog` (the interval log, values
 * in µs) or `.hgrm` (the percentile distribution, values in ms), e.g. e2e.fromSchedule.hlog.
 */
async function handleGET(_req: Request, { params }: { params: Promise<{ id: string; file: string }> }) {
  const loaded = await loadRun(params);
  if (!loaded.ok) return loaded.response;
  const { id, run } = loaded;
  const summary = parseSummary(run.summary);
  if (!summary) return json(409, { error: `run "${id}" has no summary: it is ${run.status}. Only a finished run has its histograms` });
  const { file } = await params;
  const names = histogramsOf(summary).map((h) => h.name);
  const asked = parseHistogramFile(file);
  if (!asked || !summary.histograms[asked.operation]?.[asked.kind])
    return json(404, {
      error: `run "${id}" has no histogram file "${file}": ask for <histogram>.hlog or <histogram>.hgrm, the histograms being ${names.join(", ") || "none"}`,
    });
  const body = asked.format === "hlog" ? hlogOf(summary, asked) : hgrmOf(summary.histograms[asked.operation][asked.kind]!);
  return new Response(body, {
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "content-disposition": `attachment; filename="pgbb-${id}-${file}"`,
      "cache-control": "no-store",
    },
  });
}

export const GET = withStoreErrors(handleGET);
