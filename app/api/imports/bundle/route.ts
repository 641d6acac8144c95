import { json, withStoreErrors } from "@/lib/api/http";
import { importBundle, importedText } from "@/lib/bundle/import";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * POST /api/imports/bundle: a bundle another instance exported (GET /api/runs/:id/bundle, /api/compare?format=bundle),
 * as the JSON body. 201 {runs: [{id, originalId?, workload}], imports: [{id, originalId?}], message, url}: the runs are in the runs list, marked
 * imported; url opens the run, or the comparison. 400 {error} naming what is wrong; nothing is stored then.
 */
async function handlePOST(req: Request) {
  let body: unknown;
  try {
    body = JSON.parse(await req.text());
  } catch {
    return json(400, { error: "the file is not a bundle: it is not JSON (a bundle is the .json file a run's or a comparison's page exports)" });
  }
  const r = await importBundle(body);
  if (!r.ok) return json(400, { error: r.error });
  const url = r.comparison
    ? `/compare?ids=${r.comparison.ids.join(",")}${r.comparison.base ? `&base=${r.comparison.base}` : ""}`
    : r.runs.length
      ? `/runs/${r.runs[0].id}`
      : `/compare?ids=${r.imports.map((i) => i.id).join(",")}`;
  return json(201, { runs: r.runs, imports: r.imports, message: importedText(r), url }, { location: url });
}

export const POST = withStoreErrors(handlePOST);
