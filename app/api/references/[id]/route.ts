import { referenceById, REFERENCES, sourceUrl } from "@/lib/references";

type Ctx = { params: Promise<{ id: string }> };

/** GET /api/references/:id: one published scenario. */
export async function GET(_req: Request, { params }: Ctx) {
  const { id } = await params;
  const r = referenceById(id);
  if (!r)
    return Response.json({ error: `reference "${id}" does not exist; there are ${REFERENCES.map((x) => x.id).join(", ")}` }, { status: 404 });
  return Response.json({ ...r, badge: "published", compareKey: `ref:${r.id}`, sourceUrl: sourceUrl(r.source) });
}
