import { deleteImport, getImport } from "@/lib/imports/store";
import { ImportId } from "@/lib/api/ids";
import { checkId, withStoreErrors } from "@/lib/api/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Ctx = { params: Promise<{ id: string }> };
const noStore = { "cache-control": "no-store" };

/** GET /api/imports/:id: the imported result with its parsed numbers and the text as pasted. */
async function handleGET(_req: Request, { params }: Ctx) {
  const checked = checkId(ImportId, (await params).id);
  if (!checked.ok) return checked.response;
  const { id } = checked;
  const imp = await getImport(id);
  if (!imp) return Response.json({ error: `imported result "${id}" does not exist` }, { status: 404, headers: noStore });
  return Response.json({ ...imp, badge: "imported" }, { headers: noStore });
}

/** DELETE /api/imports/:id */
async function handleDELETE(_req: Request, { params }: Ctx) {
  const checked = checkId(ImportId, (await params).id);
  if (!checked.ok) return checked.response;
  const { id } = checked;
  if (!(await deleteImport(id))) return Response.json({ error: `imported result "${id}" does not exist` }, { status: 404, headers: noStore });
  return Response.json({ deleted: id }, { headers: noStore });
}

export const GET = withStoreErrors(handleGET);
export const DELETE = withStoreErrors(handleDELETE);
