// Loads what /compare, GET /api/compare and the CLI compare: stored runs (with their samples), imported results
// and references, by the keys of the URL's ids= ("r_…", "imp_…", "ref:<id>"), in that order.
import { prisma, type PrismaClient } from "../db";
import { fromImport, fromPublished, fromReference, fromRun, NotComparable, workloadShort } from "./build";
import type { Comparable } from "./comparable";
import { buildComparison, type Comparison } from "./compare";
import { isValidKey, type ViewState } from "./view-state";
import { publishedById, publishedLabel, publishedResults, STUDIES } from "../references/published";
import { referenceById, referenceLabel, REFERENCES } from "../references/references";
import { WorkloadConfig } from "../workloads/config";

export interface LoadProblem {
  key: string;
  message: string;
}

/** `db` is only opened when a run or an import is asked for, so references compare without a control store. */
export async function loadComparables(
  keys: string[],
  dbIn?: PrismaClient,
  opts: { samples?: boolean } = {},
): Promise<{ items: Comparable[]; problems: LoadProblem[] }> {
  const problems: LoadProblem[] = [];
  const runIds = keys.filter((k) => k.startsWith("r_"));
  const impIds = keys.filter((k) => k.startsWith("imp_"));
  const db = runIds.length || impIds.length ? (dbIn ?? prisma()) : (null as unknown as PrismaClient);
  const [runs, imports, samples] = await Promise.all([
    runIds.length ? db.run.findMany({ where: { id: { in: runIds } } }) : [],
    impIds.length ? db.importedResult.findMany({ where: { id: { in: impIds } } }) : [],
    runIds.length && opts.samples !== false
      ? db.sample.findMany({
          where: { runId: { in: runIds } },
          orderBy: [{ runId: "asc" }, { seq: "asc" }],
          select: { runId: true, seq: true, phase: true, metrics: true },
        })
      : [],
  ]);
  const items: Comparable[] = [];
  for (const key of keys) {
    try {
      if (!isValidKey(key)) throw new NotComparable(`"${key}" is not a run id (r_…), an import id (imp_…) or a reference (ref:<id>)`);
      if (key.startsWith("ref:")) {
        // Kozlovski's scenarios and every other study's published results share the ref: ids.
        const ref = referenceById(key.slice(4));
        const published = ref ? undefined : publishedById(key.slice(4));
        if (!ref && !published)
          throw new NotComparable(
            `${key}: no such published result (there are ${[...REFERENCES.map((r) => r.id), ...publishedResults().map((p) => p.id)].map((id) => `ref:${id}`).join(", ")})`,
          );
        items.push(ref ? fromReference(ref) : fromPublished(published!));
      } else if (key.startsWith("r_")) {
        const run = runs.find((r) => r.id === key);
        if (!run) throw new NotComparable(`${key}: no such run (it may have been deleted)`);
        items.push(
          fromRun(
            run,
            samples.filter((s) => s.runId === key),
          ),
        );
      } else {
        const imp = imports.find((i) => i.id === key);
        if (!imp) throw new NotComparable(`${key}: no such imported result (it may have been deleted)`);
        items.push(fromImport(imp));
      }
    } catch (err) {
      if (!(err instanceof NotComparable)) throw err;
      problems.push({ key, message: err.message });
    }
  }
  return { items, problems };
}

export async function loadComparison(
  view: Pick<ViewState, "ids" | "base">,
  db?: PrismaClient,
  opts: { samples?: boolean } = {},
): Promise<{ comparison: Comparison; problems: LoadProblem[] }> {
  const { items, problems } = await loadComparables(view.ids, db, opts);
  return { comparison: buildComparison(items, view.base), problems };
}

export interface Choice {
  key: string;
  label: string;
  detail: string;
  kind: "run" | "import" | "reference";
  workload: string;
  /** Why it cannot be compared (a run that did not complete), or null. */
  disabled: string | null;
}

/** Everything the picker offers: recent runs (completed ones selectable), imports and references. */
export async function listChoices(db: PrismaClient = prisma(), limit = 200): Promise<Choice[]> {
  const [runs, imports] = await Promise.all([
    db.run.findMany({
      orderBy: { createdAt: "desc" },
      take: limit,
      select: { id: true, status: true, createdAt: true, config: true, targetLabel: true, workload: true, name: true },
    }),
    db.importedResult.findMany({ orderBy: { createdAt: "desc" }, take: limit, select: { id: true, label: true, createdAt: true, workload: true } }),
  ]);
  const date = (d: Date) => `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  return [
    ...runs.map((r): Choice => {
      const cfg = WorkloadConfig.safeParse(r.config);
      return {
        key: r.id,
        label: `${r.name || r.id} · ${cfg.success ? workloadShort(cfg.data) : r.workload}`,
        // A named run keeps its id in the detail.
        detail: `${r.name ? `${r.id} · ` : ""}${date(r.createdAt)} · ${r.targetLabel}${cfg.success ? ` · ${cfg.data.durationSeconds} s` : ""}`,
        kind: "run",
        workload: r.workload,
        disabled: r.status === "completed" ? null : r.status,
      };
    }),
    ...imports.map(
      (i): Choice => ({
        key: i.id,
        label: `Imported: ${i.label}`,
        detail: `${date(i.createdAt)} · ${i.id}`,
        kind: "import",
        workload: i.workload,
        disabled: null,
      }),
    ),
    ...REFERENCES.map(
      (r): Choice => ({
        key: `ref:${r.id}`,
        label: `Published: ${referenceLabel(r)}`,
        detail: r.title,
        kind: "reference",
        workload: r.workload,
        disabled: null,
      }),
    ),
    ...publishedResults().map(
      (p): Choice => ({
        key: `ref:${p.id}`,
        label: `Published: ${publishedLabel(p)}`,
        detail: STUDIES[p.study].title,
        kind: "reference",
        workload: p.config.kind,
        disabled: null,
      }),
    ),
  ];
}
