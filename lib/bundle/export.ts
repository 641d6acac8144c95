// Writes a bundle (./schema.ts) of stored runs: a run's, or every run and imported output of a comparison (its
// references are named by key, not carried: they ship with every instance).
// Server-only (the control store).
import { prisma, type PrismaClient } from "../db";
import { PRODUCT_VERSION } from "../env";
import { FINAL_STATUSES, type RunStatus } from "../measurement/metrics";
import { type Bundle, BUNDLE_FORMAT, BUNDLE_VERSION, BundleImport, BundleRun, MAX_BUNDLE_RUNS } from "./schema";

export class NotExportable extends Error {}

/**
 * The bundle of runs `ids` (in that order); a comparison's also names every item it compared. Throws NotExportable,
 * naming the run, when one does not exist, has not finished, or no longer parses (stored by a version whose shape
 * this one cannot read: the importing instance could not show it either).
 */
export async function exportBundle(
  ids: string[],
  opts: { kind: "run" | "comparison"; comparison?: { ids: string[]; base: string | null }; imports?: string[] },
  db: PrismaClient = prisma(),
): Promise<Bundle> {
  const importIds = opts.imports ?? [];
  if (!ids.length && !importIds.length)
    throw new NotExportable("there is nothing stored to export: a bundle carries runs and imported outputs (references ship with every instance)");
  if (ids.length > MAX_BUNDLE_RUNS) throw new NotExportable(`a bundle carries at most ${MAX_BUNDLE_RUNS} runs; this asks for ${ids.length}`);
  const [rows, samples, parts] = await Promise.all([
    db.run.findMany({ where: { id: { in: ids } } }),
    db.sample.findMany({ where: { runId: { in: ids } }, orderBy: [{ runId: "asc" }, { seq: "asc" }] }),
    db.runPart.findMany({ where: { runId: { in: ids } }, orderBy: [{ runId: "asc" }, { part: "asc" }] }),
  ]);
  const runs = ids.map((id) => {
    const row = rows.find((r) => r.id === id);
    if (!row) throw new NotExportable(`run ${id} does not exist`);
    if (!FINAL_STATUSES.includes(row.status as RunStatus)) throw new NotExportable(`run ${id} is ${row.status}: only a finished run can be exported`);
    const candidate = {
      ...row,
      createdAt: row.createdAt.toISOString(),
      startedAt: row.startedAt?.toISOString() ?? null,
      finishedAt: row.finishedAt?.toISOString() ?? null,
      samples: samples.filter((s) => s.runId === id).map((s) => ({ seq: s.seq, time: s.time.toISOString(), phase: s.phase, metrics: s.metrics })),
      parts: parts.filter((p) => p.runId === id),
    };
    const r = BundleRun.safeParse(candidate);
    if (!r.success) {
      const issue = r.error.issues[0];
      throw new NotExportable(`run ${id} cannot be exported: its stored ${issue.path.join(".")} does not read in this version's shape (${issue.message})`);
    }
    return r.data;
  });
  const importRows = importIds.length ? await db.importedResult.findMany({ where: { id: { in: importIds } } }) : [];
  const imports = importIds.map((id) => {
    const row = importRows.find((r) => r.id === id);
    if (!row) throw new NotExportable(`import ${id} does not exist`);
    const r = BundleImport.safeParse({ ...row, createdAt: row.createdAt.toISOString() });
    if (!r.success)
      throw new NotExportable(`import ${id} cannot be exported: its stored ${r.error.issues[0].path.join(".")} does not read in this version's shape`);
    return r.data;
  });
  return {
    format: BUNDLE_FORMAT,
    formatVersion: BUNDLE_VERSION,
    product: { name: "pg-broker-bench", version: PRODUCT_VERSION },
    exportedAt: new Date().toISOString(),
    kind: opts.kind,
    runs,
    ...(imports.length ? { imports } : {}),
    ...(opts.comparison ? { comparison: opts.comparison } : {}),
  };
}
