// The A/B tables of bench:yong (scripts/bench-yong.ts): which published pair each of Yong's workloads is
// compared with, and our baseline → modded deltas beside the article's, over all requests.
import type { RunSummary } from "../lib/summary";
import { workloadDefinition } from "../lib/workloads";
import { num } from "../runner/format";
import type { PublishedResult } from "../workloads/types";
import { TOTAL_OP } from "../workloads/yong/fields";

export const YONG_KINDS = ["cache", "jobqueue", "search", "notify", "mixed"] as const;

/** The workload's first published baseline/modded pair (the article's normal, not stress, run where it has both). */
export function publishedPair(kind: string): { baseline: PublishedResult; modded: PublishedResult } {
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

export interface Figures {
  p50?: number;
  p95?: number;
  avg?: number;
  rps?: number;
}

export const ours = (s: RunSummary): Figures => ({
  p50: s.latencyMs[TOTAL_OP]?.p50,
  p95: s.latencyMs[TOTAL_OP]?.p95,
  avg: s.latencyMs[TOTAL_OP]?.mean,
  rps: s.rates?.[TOTAL_OP]?.msgPerSec,
});
export const theirs = (p: PublishedResult): Figures => ({
  p50: p.latencyMs?.total?.p50,
  p95: p.latencyMs?.total?.p95,
  avg: p.latencyMs?.total?.avg,
  rps: p.rates?.total,
});

/** "+12.3 %" from a to b, or "–" when either is missing. */
export function delta(a: number | undefined, b: number | undefined): string {
  if (a === undefined || b === undefined || a === 0) return "–";
  const d = ((b - a) / a) * 100;
  return `${d >= 0 ? "+" : ""}${num(d, 1)} %`;
}

/** The table of one pair: per figure, ours (baseline, modded, delta) then the article's. */
export function pairTable(base: Figures, mod: Figures, pubBase: Figures, pubMod: Figures): string {
  const f = (v: number | undefined, digits: number) => (v === undefined ? "–" : num(v, digits));
  const rows: string[][] = [["", "ours baseline", "ours modded", "ours Δ", "article baseline", "article modded", "article Δ"]];
  const add = (label: string, k: keyof Figures, digits: number) =>
    rows.push([
      label,
      f(base[k], digits),
      f(mod[k], digits),
      delta(base[k], mod[k]),
      f(pubBase[k], digits),
      f(pubMod[k], digits),
      delta(pubBase[k], pubMod[k]),
    ]);
  add("p50 (ms)", "p50", 2);
  add("p95 (ms)", "p95", 2);
  add("avg (ms)", "avg", 2);
  add("requests/s", "rps", 0);
  const w = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => (c ? cell.padStart(w[c]) : cell.padEnd(w[c]))).join("   ")).join("\n");
}
