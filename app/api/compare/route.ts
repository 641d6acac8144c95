import { quoteInput } from "@/lib/ids";
import { compareUrl, isValidKey, parseViewState, requestOrigin, toCsv, toJson, toMarkdown } from "@/lib/compare";
import { loadComparison } from "@/lib/compare-load";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const noStore = { "cache-control": "no-store" };

/**
 * GET /api/compare?ids=r_…,imp_…,ref:<id>[&base=<id>][&format=json|md|csv][&full=1]: the comparison /compare
 * shows, as JSON (default), Markdown or CSV. ?download=1 asks the browser to save it as a file.
 */
export async function GET(req: Request) {
  const url = new URL(req.url);
  const q = url.searchParams;
  const view = parseViewState(q);
  const format = q.get("format") ?? "json";
  if (!["json", "md", "csv"].includes(format))
    return Response.json({ error: `format ${quoteInput(format)} is unknown; use json, md or csv`, fields: { format: "unknown format" } }, { status: 400, headers: noStore });
  // parseViewState drops ids of the wrong shape (a shared link must still open); the API names them instead.
  const sent = (q.get("ids") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const malformed = sent.filter((s) => !isValidKey(s));
  if (malformed.length)
    return Response.json(
      { error: `ids holds ${malformed.map(quoteInput).join(", ")}, which ${malformed.length > 1 ? "are not ids" : "is not an id"}: use r_…, imp_… or ref:<reference id>, comma-separated`, fields: { ids: "malformed id" } },
      { status: 400, headers: noStore },
    );
  if (!view.ids.length)
    return Response.json({ error: "ids is required: ids=r_…,imp_…,ref:<reference id> (comma-separated)", fields: { ids: "required" } }, { status: 400, headers: noStore });
  const { comparison, problems } = await loadComparison(view, undefined, { samples: format === "json" && q.get("full") === "1" });
  if (problems.length)
    return Response.json({ error: problems.map((p) => p.message).join("; "), problems }, { status: 404, headers: noStore });
  const generatedAt = new Date().toISOString();
  // The same link as the page's "Copy link" (the page passes its whole view: baseline, differences-only, charts).
  const link = compareUrl(requestOrigin(req), view);
  const stamp = generatedAt.slice(0, 19).replace(/[:T]/g, "-");
  const disposition = (ext: string): Record<string, string> =>
    q.get("download") === "1" ? { "content-disposition": `attachment; filename="comparison-${stamp}.${ext}"` } : {};
  if (format === "md")
    return new Response(toMarkdown(comparison, { url: link, generatedAt }), { headers: { ...noStore, "content-type": "text/markdown; charset=utf-8", ...disposition("md") } });
  if (format === "csv") return new Response(toCsv(comparison), { headers: { ...noStore, "content-type": "text/csv; charset=utf-8", ...disposition("csv") } });
  return Response.json(toJson(comparison, { url: link, generatedAt, full: q.get("full") === "1" }), { headers: { ...noStore, ...disposition("json") } });
}
