import { createImport, listImports } from "@/lib/imports/store";
import { withStoreErrors } from "@/lib/api/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const noStore = { "cache-control": "no-store" };

/** GET /api/imports: imported results, newest first (id, label, workload, createdAt). */
async function handleGET() {
  return Response.json({ imports: await listImports() }, { headers: noStore });
}

/**
 * POST /api/imports: the text output of pg_msg_bench becomes an imported result.
 * Body: JSON {text, label?, command?}; or the raw text (Content-Type: text/plain, label/command in the query);
 * or multipart/form-data with a `file` (or `text`), `label`, `command`.
 * 201 {id, label, workload, compareUrl}; 400 {error, line?} naming the line that could not be read.
 */
async function handlePOST(req: Request) {
  const type = req.headers.get("content-type") ?? "";
  const q = new URL(req.url).searchParams;
  let input: Record<string, unknown>;
  try {
    if (type.startsWith("application/json")) {
      const body = await req.json();
      if (!body || typeof body !== "object" || Array.isArray(body)) throw new Error("not an object");
      input = body as Record<string, unknown>;
    } else if (type.startsWith("multipart/form-data")) {
      const form = await req.formData();
      const file = form.get("file");
      const text = file && typeof file !== "string" ? await file.text() : form.get("text");
      input = { text: text ?? undefined, label: form.get("label") ?? undefined, command: form.get("command") ?? undefined };
    } else {
      input = { text: await req.text(), label: q.get("label") ?? undefined, command: q.get("command") ?? undefined };
    }
  } catch {
    return Response.json(
      {
        error: 'the request body could not be read; send JSON like {"text":"<output of pg_msg_bench>","label":"my run"}, or the raw text as text/plain',
        field: "body",
      },
      { status: 400, headers: noStore },
    );
  }
  const r = await createImport(input);
  if (!r.ok) return Response.json({ error: r.error, line: r.line, field: r.field }, { status: 400, headers: noStore });
  return Response.json(
    { id: r.id, label: r.label, workload: r.workload, compareUrl: `/compare?ids=${r.id}` },
    { status: 201, headers: { ...noStore, location: `/compare/imports/${r.id}` } },
  );
}

export const GET = withStoreErrors(handleGET);
export const POST = withStoreErrors(handlePOST);
