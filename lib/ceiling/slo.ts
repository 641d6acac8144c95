// The latency goal of a ceiling search ("p99<50ms"), parsed once with Zod so the CLI, the API and the form
// give the same message for the same mistake. Browser-safe.
import { z } from "zod";
import type { LatencyStats } from "../measurement/metrics";

/** The percentiles a goal may name: those every stored LatencyStats carries. */
export const SLO_PERCENTILES = ["p50", "p90", "p95", "p99", "p999", "max"] as const;
export type SloPercentile = (typeof SLO_PERCENTILES)[number];

const UNIT_MS = { us: 0.001, µs: 0.001, ms: 1, s: 1000 } as const;

/** One bound: the percentile must stay below (or at, with <=) the limit. */
export interface SloBound {
  percentile: SloPercentile;
  limitMs: number;
  inclusive: boolean;
}

const EXAMPLE = "e.g. p99<50ms, or several joined by commas: p50<10ms,p99<50ms";

function parseBound(part: string): SloBound | string {
  const m = /^([a-z]+\d*)\s*(<=|<)\s*([0-9]*\.?[0-9]+)\s*([a-zµ]*)$/i.exec(part);
  if (!m) return `"${part}" is not a latency goal: write <percentile><<limit><unit>, ${EXAMPLE}`;
  const [, p, op, n, unitRaw] = m;
  const percentile = p.toLowerCase();
  if (!(SLO_PERCENTILES as readonly string[]).includes(percentile)) return `"${part}": unknown percentile "${p}"; use one of ${SLO_PERCENTILES.join(", ")}`;
  const unit = unitRaw.toLowerCase();
  if (!unit) return `"${part}": the limit ${n} needs a unit (ms, s or us), e.g. ${percentile}${op}${n}ms`;
  if (!(unit in UNIT_MS)) return `"${part}": unknown unit "${unitRaw}"; use ms, s or us`;
  const limitMs = Number(n) * UNIT_MS[unit as keyof typeof UNIT_MS];
  if (!(limitMs > 0)) return `"${part}": the limit must be above 0`;
  return { percentile: percentile as SloPercentile, limitMs, inclusive: op === "<=" };
}

/** A latency goal: one or more bounds, all of which must hold. */
export const Slo = z
  .string({ error: `the latency goal must be text such as p99<50ms (${EXAMPLE})` })
  .trim()
  .min(1, `the latency goal is empty: give one, ${EXAMPLE}`)
  .transform((text, ctx) => {
    const bounds: SloBound[] = [];
    for (const part of text.split(",").map((s) => s.trim())) {
      const b = parseBound(part);
      if (typeof b === "string") {
        ctx.addIssue({ code: "custom", message: b });
        return z.NEVER;
      }
      if (bounds.some((x) => x.percentile === b.percentile)) {
        ctx.addIssue({ code: "custom", message: `"${text}" bounds ${b.percentile} twice; give each percentile once` });
        return z.NEVER;
      }
      bounds.push(b);
    }
    return bounds;
  });
export type Slo = z.output<typeof Slo>;

/** The goal parsed, or the message naming what is wrong. */
export function parseSlo(text: unknown): { ok: true; slo: Slo } | { ok: false; message: string } {
  const r = Slo.safeParse(text);
  return r.success ? { ok: true, slo: r.data } : { ok: false, message: r.error.issues[0]?.message ?? "invalid latency goal" };
}

const limitText = (ms: number) => (ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000}s` : ms < 1 ? `${Math.round(ms * 1000)}us` : `${ms}ms`);

/** The goal written back in its canonical form ("p99<50ms"). */
export const sloText = (slo: Slo) => slo.map((b) => `${b.percentile}${b.inclusive ? "<=" : "<"}${limitText(b.limitMs)}`).join(",");

/** The bounds a measured latency breaks, each with the measured value (empty when the goal holds). */
export function sloBreaches(slo: Slo, stats: LatencyStats): { bound: SloBound; measuredMs: number }[] {
  return slo
    .filter((b) => {
      const v = stats[b.percentile];
      return b.inclusive ? v > b.limitMs : v >= b.limitMs;
    })
    .map((bound) => ({ bound, measuredMs: stats[bound.percentile] }));
}
