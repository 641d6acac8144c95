// Control-store operations on imported results (the ImportedResult table). The text is kept as pasted (with any
// password on a pasted command line masked), so the parse can be redone by a later version of lib/imports/parse.ts.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { prisma, type PrismaClient } from "../db";
import { noControlChars } from "../api/ids";
import { maskSecrets } from "./command";
import { parseToolOutput } from "./parse";
import { ImportError } from "./summary";
import { definitionOf } from "../workloads/config";

export const newImportId = () => `imp_${randomUUID().replace(/-/g, "").slice(0, 12)}`;

/** 5 MB: a 30-minute run with a 1 s report interval prints well under 1 MB (pubsub: ~330 bytes per group line). */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

export const NewImportInput = z.object({
  text: z
    .string({ error: "text is required: paste the whole output of pg_msg_bench" })
    .min(1, "text is required: paste the whole output of pg_msg_bench")
    .max(MAX_IMPORT_BYTES, `text is too long (more than ${MAX_IMPORT_BYTES / 1024 / 1024} MB)`)
    // Only NUL is refused here (Postgres cannot store it): a pasted terminal output may hold colour escapes.
    .refine((v) => !v.includes("\u0000"), "text contains a NUL character (\\u0000); paste the tool's text output"),
  label: z
    .string({ error: "label must be text" })
    .trim()
    .max(120, "label must be at most 120 characters")
    .refine(...noControlChars("label"))
    .optional()
    .transform((v) => (v ? v : undefined)),
  command: z
    .string({ error: "command must be text" })
    .max(4000, "command must be at most 4000 characters")
    .refine(...noControlChars("command"))
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined)),
});
export type NewImportInput = z.input<typeof NewImportInput>;

export type CreateImportResult = { ok: true; id: string; label: string; workload: string } | { ok: false; error: string; line?: number; field?: string };

/** Parses and stores; a parse problem comes back as a value naming the line, never as a thrown error. */
export async function createImport(input: unknown, db: PrismaClient = prisma()): Promise<CreateImportResult> {
  const r = NewImportInput.safeParse(input);
  if (!r.success) {
    const issue = r.error.issues[0];
    return { ok: false, error: issue.message, field: issue.path.join(".") || "body" };
  }
  let parsed: ReturnType<typeof parseToolOutput>;
  try {
    parsed = parseToolOutput(r.data.text, { command: r.data.command });
  } catch (err) {
    // The message may quote the line it could not read, which may hold a connection string.
    if (err instanceof ImportError) return { ok: false, error: maskSecrets(err.message), line: err.line, field: "text" };
    throw err;
  }
  const c = parsed.config;
  // The workload's own short name, with "?" for what the pasted text did not say.
  const def = definitionOf({ kind: parsed.workload });
  const known = Object.fromEntries(def.fields.map((f) => [f.name, (c as Record<string, unknown>)[f.name] ?? "?"]));
  const label = r.data.label ?? `${def.shortName(known)}, ${c.durationSeconds ?? "?"} s`;
  const row = await db.importedResult.create({
    data: { id: newImportId(), label, workload: parsed.workload, rawText: maskSecrets(r.data.text), parsed: parsed as object },
  });
  return { ok: true, id: row.id, label: row.label, workload: row.workload };
}

export async function listImports(db: PrismaClient = prisma()) {
  return db.importedResult.findMany({ orderBy: { createdAt: "desc" }, select: { id: true, label: true, workload: true, createdAt: true } });
}

export async function getImport(id: string, db: PrismaClient = prisma()) {
  return db.importedResult.findUnique({ where: { id } });
}

export async function deleteImport(id: string, db: PrismaClient = prisma()) {
  const r = await db.importedResult.deleteMany({ where: { id } });
  return r.count > 0;
}
