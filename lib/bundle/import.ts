// Reads a bundle (./schema.ts) into this instance's control store: its runs appear among the local ones, marked
// imported (source "import"), with their samples and parts, on the run page like any run. A run keeps its id unless
// this store already holds one by that id; then it gets a new one, and the answer says which. All or nothing: one
// transaction, so a bundle refused halfway leaves the store as it was. Server-only (the control store).
import { prisma, type PrismaClient } from "../db";
import { newImportId } from "../imports/store";
import { newRunId } from "../runs/store";
import { headlineOf } from "../runs/view";
import { type Bundle, parseBundle } from "./schema";

export interface ImportedRun {
  id: string;
  /** Its id in the bundle, when it had to change (this store held a run by that id). */
  originalId?: string;
  workload: string;
}

/** An imported output of the reference tool the bundle carried: its id here, and its id there when it changed. */
export interface ImportedOutput {
  id: string;
  originalId?: string;
}

export type BundleImport =
  | {
      ok: true;
      kind: Bundle["kind"];
      runs: ImportedRun[];
      imports: ImportedOutput[];
      product: Bundle["product"];
      comparison?: { ids: string[]; base: string | null };
    }
  | { ok: false; error: string };

/** Rows per INSERT of samples: a long run has thousands. */
const CHUNK = 1000;

export async function importBundle(raw: unknown, db: PrismaClient = prisma()): Promise<BundleImport> {
  const parsed = parseBundle(raw);
  if (!parsed.ok) return parsed;
  const { bundle } = parsed;
  const twice = bundle.runs.find((r, i) => bundle.runs.findIndex((x) => x.id === r.id) !== i);
  if (twice) return { ok: false, error: `the bundle is malformed: run ${twice.id} appears twice in it` };
  const twiceImp = (bundle.imports ?? []).find((r, i, all) => all.findIndex((x) => x.id === r.id) !== i);
  if (twiceImp) return { ok: false, error: `the bundle is malformed: import ${twiceImp.id} appears twice in it` };
  for (const r of bundle.runs) {
    const seq = r.samples.find((s, i) => i > 0 && s.seq <= r.samples[i - 1].seq);
    if (seq) return { ok: false, error: `the bundle is malformed: run ${r.id}'s samples are not in increasing seq order (seq ${seq.seq})` };
    const part = r.parts.find((p, i) => r.parts.findIndex((x) => x.part === p.part) !== i);
    if (part) return { ok: false, error: `the bundle is malformed: run ${r.id} holds part ${part.part} twice` };
  }
  let runs: ImportedRun[];
  let imports: ImportedOutput[];
  try {
    ({ runs, imports } = await storeRuns(bundle, db));
  } catch (err) {
    // What the store refused (a text it cannot hold, such as a NUL character): the transaction stored nothing.
    const code = (err as { code?: unknown }).code;
    if (typeof code !== "string" || !/^P2\d{3}$/.test(code)) throw err;
    const why = String((err as Error).message)
      .trim()
      .split("\n")
      .at(-1);
    return { ok: false, error: `the control store refused the bundle, and nothing of it was stored: ${why}` };
  }
  // A comparison's keys follow its runs' new ids; its imports and references are named as they were.
  const renamed = new Map([...runs, ...imports].filter((r) => r.originalId).map((r) => [r.originalId!, r.id]));
  const comparison = bundle.comparison && {
    ids: bundle.comparison.ids.map((k) => renamed.get(k) ?? k),
    base: bundle.comparison.base && (renamed.get(bundle.comparison.base) ?? bundle.comparison.base),
  };
  return { ok: true, kind: bundle.kind, runs, imports, product: bundle.product, ...(comparison ? { comparison } : {}) };
}

/** The runs stored in one transaction, each under its own id or a new one when this store holds that id already. */
function storeRuns(bundle: Bundle, db: PrismaClient): Promise<{ runs: ImportedRun[]; imports: ImportedOutput[] }> {
  return db.$transaction(
    async (tx) => {
      const taken = new Set((await tx.run.findMany({ where: { id: { in: bundle.runs.map((r) => r.id) } }, select: { id: true } })).map((r) => r.id));
      const out: ImportedRun[] = [];
      for (const r of bundle.runs) {
        const id = taken.has(r.id) ? newRunId() : r.id;
        await tx.run.create({
          data: {
            id,
            workload: r.workload,
            config: r.config as object,
            targetLabel: r.targetLabel,
            status: r.status as "completed",
            phase: r.phase,
            source: "import",
            createdAt: new Date(r.createdAt),
            startedAt: r.startedAt ? new Date(r.startedAt) : null,
            finishedAt: r.finishedAt ? new Date(r.finishedAt) : null,
            error: r.error,
            name: r.name ?? null,
            notes: r.notes ?? null,
            tags: r.tags ?? [],
            ...(r.summary ? { summary: r.summary as object, headline: headlineOf(r.summary) as object } : {}),
          },
        });
        for (let i = 0; i < r.samples.length; i += CHUNK)
          await tx.sample.createMany({
            data: r.samples.slice(i, i + CHUNK).map((s) => ({ runId: id, seq: s.seq, time: new Date(s.time), phase: s.phase, metrics: s.metrics as object })),
          });
        if (r.parts.length) await tx.runPart.createMany({ data: r.parts.map((p) => ({ ...p, runId: id })) });
        out.push({ id, workload: r.workload, ...(id !== r.id ? { originalId: r.id } : {}) });
      }
      const given = bundle.imports ?? [];
      const takenImports = new Set(
        (await tx.importedResult.findMany({ where: { id: { in: given.map((i) => i.id) } }, select: { id: true } })).map((i) => i.id),
      );
      const imports: ImportedOutput[] = [];
      for (const i of given) {
        const id = takenImports.has(i.id) ? newImportId() : i.id;
        await tx.importedResult.create({
          data: { id, label: i.label, workload: i.workload, rawText: i.rawText, parsed: i.parsed as object, createdAt: new Date(i.createdAt) },
        });
        imports.push({ id, ...(id !== i.id ? { originalId: i.id } : {}) });
      }
      return { runs: out, imports };
    },
    { timeout: 120_000 },
  );
}

/** The answer's words: what was imported, and every id that had to change. */
export function importedText(r: Extract<BundleImport, { ok: true }>): string {
  const what = [
    ...(r.runs.length ? [`${r.runs.length} ${r.runs.length === 1 ? "run" : "runs"}`] : []),
    ...(r.imports.length ? [`${r.imports.length} imported ${r.imports.length === 1 ? "output" : "outputs"}`] : []),
  ].join(" and ");
  return [
    `imported ${what} from pg-broker-bench ${r.product.version}: ${[...r.runs, ...r.imports].map((x) => x.id).join(", ")}`,
    ...r.runs.filter((x) => x.originalId).map((x) => `run ${x.originalId} is stored as ${x.id}: this store already held a run ${x.originalId}`),
    ...r.imports.filter((x) => x.originalId).map((x) => `import ${x.originalId} is stored as ${x.id}: this store already held an import ${x.originalId}`),
  ].join("\n");
}
