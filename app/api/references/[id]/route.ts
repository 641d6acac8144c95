import { referenceById, REFERENCES, sourceUrl } from "@/lib/references";
import { withStoreErrors } from "../../runs/_http";

type Ctx = { params: Promise<{ id: string }> };

/** GET /api/references/:id: one published scenario. */
async function handleGET(_req: Request, { params }: Ctx) {
  const { id } = await params;
  const r = referenceById(id);
  if (!r) return Response.json({ error: `reference "${id}" does not exist; there are ${REFERENCES.map((x) => x.id).join(", ")}` }, { status: 404 });
  return Response.json({ ...r, badge: "published", compareKey: `ref:${r.id}`, sourceUrl: sourceUrl(r.source) });
}

export const GET = withStoreErrors(handleGET);
