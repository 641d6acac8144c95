import { z } from "zod";
import { firstFieldErrors, quoteInput } from "@/lib/api/ids";
import { toCsv } from "@/lib/compare/export-csv";
import { toJson } from "@/lib/compare/export-json";
import { toMarkdown } from "@/lib/compare/export-markdown";
import { compareUrl, isValidKey, parseViewState, requestOrigin } from "@/lib/compare/view-state";
import { loadComparison } from "@/lib/compare/load";
import { withStoreErrors } from "@/lib/api/http";
import { reportRenderer } from "@/lib/report/renderer";
import { exportBundle, NotExportable } from "@/lib/bundle/export";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const noStore = { "cache-control": "no-store" };

/**
 * GET /api/compare?ids=r_…,imp_…,ref:<id>[&base=<id>][&format=json|md|csv|html|bundle][&full=1]: the comparison /compare
 * shows, as JSON (default), Markdown, CSV or one self-contained HTML report. ?download=1 asks the browser to save it as a file.
 */
// The API's own parameters; the view (base, diff, log, m, p) is read as the page reads it (parseViewState), so
// a shared link opens the same comparison in both.
const flag = (name: string) =>
  z
    .enum(["0", "1"], { error: `${name} must be 0 or 1` })
    .optional()
    .transform((v) => v === "1");
const CompareQuery = z.object({
  ids: z
    .string({ error: "ids is required: ids=r_…,imp_…,ref:<reference id> (comma-separated)" })
    .transform((v) =>
      v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .superRefine((ids, ctx) => {
      const malformed = ids.filter((s) => !isValidKey(s));
      if (malformed.length)
        ctx.addIssue({
          code: "custom",
          message: `ids holds ${malformed.slice(0, 5).map(quoteInput).join(", ")}, which ${malformed.length > 1 ? "are not ids" : "is not an id"}: use r_…, imp_… or ref:<reference id>, comma-separated`,
        });
      else if (!ids.length) ctx.addIssue({ code: "custom", message: "ids is required: ids=r_…,imp_…,ref:<reference id> (comma-separated)" });
    }),
  format: z
    .enum(["json", "md", "csv", "html", "bundle"], { error: (i) => `format ${quoteInput(String(i.input))} is unknown; use json, md, csv, html or bundle` })
    .default("json"),
  full: flag("full"),
  download: flag("download"),
});

async function handleGET(req: Request) {
  const url = new URL(req.url);
  const q = url.searchParams;
  const parsed = CompareQuery.safeParse({
    ids: q.get("ids") ?? undefined,
    format: q.get("format") ?? undefined,
    full: q.get("full") ?? undefined,
    download: q.get("download") ?? undefined,
  });
  if (!parsed.success) {
    const fields = firstFieldErrors(parsed.error, "query");
    return Response.json({ error: Object.values(fields)[0], fields }, { status: 400, headers: noStore });
  }
  const { format, full, download } = parsed.data;
  const view = parseViewState(q);
  const { comparison, problems } = await loadComparison(view, undefined, { samples: (format === "json" && full) || format === "html" });
  if (problems.length) return Response.json({ error: problems.map((p) => p.message).join("; "), problems }, { status: 404, headers: noStore });
  const generatedAt = new Date().toISOString();
  // The same link as the page's "Copy link" (the page passes its whole view: baseline, differences-only, charts).
  const link = compareUrl(requestOrigin(req), view);
  const stamp = generatedAt.slice(0, 19).replace(/[:T]/g, "-");
  const disposition = (ext: string): Record<string, string> => (download ? { "content-disposition": `attachment; filename="comparison-${stamp}.${ext}"` } : {});
  if (format === "md")
    return new Response(toMarkdown(comparison, { url: link, generatedAt }), {
      headers: { ...noStore, "content-type": "text/markdown; charset=utf-8", ...disposition("md") },
    });
  if (format === "bundle") {
    // The comparison's runs and imported outputs, carried (lib/bundle/); its references ship with every instance and
    // are named.
    const keys = comparison.items.map((i) => i.key);
    const base = comparison.baseline >= 0 ? comparison.items[comparison.baseline].key : null;
    try {
      const bundle = await exportBundle(
        keys.filter((k) => k.startsWith("r_")),
        { kind: "comparison", comparison: { ids: keys, base }, imports: keys.filter((k) => k.startsWith("imp_")) },
      );
      return new Response(JSON.stringify(bundle), {
        headers: {
          ...noStore,
          "content-type": "application/json; charset=utf-8",
          "content-disposition": `attachment; filename="comparison-${stamp}-bundle.json"`,
        },
      });
    } catch (err) {
      if (err instanceof NotExportable) return Response.json({ error: err.message }, { status: 409, headers: noStore });
      throw err;
    }
  }
  if (format === "html") {
    // One self-contained file (components/report/render.tsx, reached as lib/report/renderer.ts says): no link back to
    // this server in it, as it must open where this server does not answer.
    const { renderCompareReport } = await reportRenderer();
    return new Response(renderCompareReport(comparison, { exportedAt: generatedAt }), {
      headers: { ...noStore, "content-type": "text/html; charset=utf-8", ...disposition("html") },
    });
  }
  if (format === "csv") return new Response(toCsv(comparison), { headers: { ...noStore, "content-type": "text/csv; charset=utf-8", ...disposition("csv") } });
  return Response.json(toJson(comparison, { url: link, generatedAt, full }), { headers: { ...noStore, ...disposition("json") } });
}

export const GET = withStoreErrors(handleGET);
