import { loadRun, withStoreErrors } from "@/lib/api/http";
import { runReportInput } from "@/lib/report/load";
import { reportRenderer } from "@/lib/report/renderer";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** GET /api/runs/:id/report.html: the run as one self-contained HTML file (components/report/render.tsx), to download. */
async function handleGET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  const loaded = await loadRun(params);
  if (!loaded.ok) return loaded.response;
  const input = await runReportInput(loaded.run);
  const { renderRunReport } = await reportRenderer();
  const html = renderRunReport(input, { exportedAt: new Date().toISOString() });
  return new Response(html, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-disposition": `attachment; filename="pgbb-${loaded.id}-report.html"`,
      "cache-control": "no-store",
    },
  });
}

export const GET = withStoreErrors(handleGET);
