import { json, withStoreErrors } from "@/lib/api/http";
import { abPageData } from "@/lib/compare/ab-page";
import { reportRenderer } from "@/lib/report/renderer";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** GET /api/runs/ab/report.html?group=ab_… (or ?baseline=r_…&modded=r_…): the A/B page as one self-contained HTML file. */
async function handleGET(req: Request) {
  const q = new URL(req.url).searchParams;
  const data = await abPageData((k) => q.get(k) ?? "");
  if ("problem" in data) return json(/does not exist/.test(data.problem) ? 404 : 400, { error: data.problem });
  const { renderAbReport } = await reportRenderer();
  const name = data.groupId ?? data.slots.map((s) => s.runId).join("-");
  return new Response(renderAbReport(data, { exportedAt: new Date().toISOString() }), {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-disposition": `attachment; filename="pgbb-${name}-report.html"`,
      "cache-control": "no-store",
    },
  });
}

export const GET = withStoreErrors(handleGET);
