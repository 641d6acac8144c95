// Which published pair bench:yong (scripts/bench-yong.ts) runs for each of Yong's workloads: its first
// baseline/modded pair, the article's normal (not stress) run. The tables come from lib/ab.ts, as the CLI's.
import { workloadDefinition } from "../lib/workloads";
import type { PublishedResult } from "../workloads/types";
import type { Variant } from "../workloads/yong/fields";

export const YONG_KINDS = ["cache", "jobqueue", "search", "notify", "mixed"] as const;

export function publishedPair(kind: string): Record<Variant, PublishedResult> {
  const def = workloadDefinition(kind);
  if (!def) throw new Error(`the ${kind} workload is not registered in this build (workloads/index.ts)`);
  const pubs = (def.published ?? []).filter((p) => p.study === "yong");
  for (const b of pubs) {
    if (b.config.variant !== "baseline") continue;
    const m = pubs.find((p) => p.config.variant === "modded" && p.id === b.id.replace(/baseline$/, "modded"));
    if (m) return { baseline: b, modded: m };
  }
  throw new Error(`the ${kind} workload has no published baseline/modded pair`);
}
