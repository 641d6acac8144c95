import { CeilingId } from "@/lib/api/ids";
import { checkId, notFoundJson, withStoreErrors } from "@/lib/api/http";
import { ceilingPageData } from "@/lib/ceiling/page-data";
import { reportRenderer } from "@/lib/report/renderer";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** GET /api/ceilings/:id/report.html: the search as one self-contained HTML file (components/report/render.tsx), to download. */
async function handleGET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  const checked = checkId(CeilingId, (await params).id);
  if (!checked.ok) return checked.response;
  const data = await ceilingPageData(checked.id);
  if (!data) return notFoundJson(`ceiling search "${checked.id}"`);
  const { renderCeilingReport } = await reportRenderer();
  return new Response(renderCeilingReport(data, { exportedAt: new Date().toISOString() }), {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-disposition": `attachment; filename="pgbb-${checked.id}-report.html"`,
      "cache-control": "no-store",
    },
  });
}

export const GET = withStoreErrors(handleGET);
