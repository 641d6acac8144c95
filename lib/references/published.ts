// Other studies' published results (Yong's cache, DBOS's inserts, …), read only from the workload registry:
// each workload's definition carries the figures that it reproduces (WorkloadDefinition.published). /references,
// "Run this here" and compare list them from here, beside Kozlovski's scenarios (lib/references/references.ts), which
// keep a richer shape of their own. Browser-safe.
import { STUDIES, type PublishedResult, type StudyId } from "../../workloads/types";
import { parseConfig, workloadDefinitions, type WorkloadConfig } from "../workloads/config";

export { STUDIES, type PublishedResult, type StudyId };

/** Every registered workload's published results, in registry order, then as each definition lists them. */
export function publishedResults(): PublishedResult[] {
  return workloadDefinitions().flatMap((d) => d.published ?? []);
}

export function publishedById(id: string): PublishedResult | undefined {
  return publishedResults().find((p) => p.id === id);
}

/** The studies that have published results here, in STUDIES order, each with its results. */
export function publishedByStudy(): { study: StudyId; title: string; results: PublishedResult[] }[] {
  const all = publishedResults();
  return (Object.keys(STUDIES) as StudyId[])
    .map((study) => ({ study, title: STUDIES[study].title, results: all.filter((p) => p.study === study) }))
    .filter((s) => s.results.length);
}

/** "Yong · Cache, 200 VUs, modded (UNLOGGED table)". */
export function publishedLabel(p: PublishedResult): string {
  return `${STUDIES[p.study].short} · ${p.title}`;
}

/**
 * The config that reproduces it, parsed by its workload's schema (what "Run this here" prefills and compare's
 * config table shows); the reason when it does not parse (a definition's published config out of step with its
 * own fields), naming the fields.
 */
export function publishedConfig(p: PublishedResult): { ok: true; config: WorkloadConfig } | { ok: false; error: string } {
  const r = parseConfig(p.config);
  if (r.ok) return r;
  return {
    ok: false,
    error: `the published config of "${p.id}" does not parse as a ${p.config.kind} config: ${Object.entries(r.errors)
      .map(([k, v]) => `${k}: ${v}`)
      .join("; ")}`,
  };
}
