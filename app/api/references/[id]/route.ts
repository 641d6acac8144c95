import { publishedById, publishedResults, STUDIES } from "@/lib/references/published";
import { referenceById, REFERENCES, sourceUrl } from "@/lib/references/references";
import { withStoreErrors } from "@/lib/api/http";

type Ctx = { params: Promise<{ id: string }> };

/** GET /api/references/:id: one published scenario, or another study's published result. */
async function handleGET(_req: Request, { params }: Ctx) {
  const { id } = await params;
  const r = referenceById(id);
  const p = r ? undefined : publishedById(id);
  if (p) return Response.json({ ...p, studyTitle: STUDIES[p.study].title, badge: "published", compareKey: `ref:${p.id}` });
  if (!r)
    return Response.json(
      { error: `reference "${id}" does not exist; there are ${[...REFERENCES, ...publishedResults()].map((x) => x.id).join(", ")}` },
      { status: 404 },
    );
  return Response.json({ ...r, badge: "published", compareKey: `ref:${r.id}`, sourceUrl: sourceUrl(r.source) });
}

export const GET = withStoreErrors(handleGET);
