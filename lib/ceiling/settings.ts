// A ceiling search's settings as the form and the API give them: the goal, the metric, the step length and
// the search's bounds. One Zod schema, so the browser, the API and the stored row read them alike. Browser-safe.
import { z } from "zod";
import { runTimeOf } from "../workloads/config";
import { goalMetric } from "./facts";
import { MAX_CONFIRMATIONS, SEARCH_DEFAULTS, type SearchOptions } from "./search";
import { parseSlo, type Slo } from "./slo";

/** Shortest measured window of a step: the backlog's slope needs a few one-second samples. */
export const MIN_STEP_SECONDS = 3;
export const DEFAULT_STEP_SECONDS = 30;
export const DEFAULT_START_RATE = 100;
export const DEFAULT_MAX_RATE = 1_000_000;
/** The confirmation run lasts at least this long (s), or 4 steps' length when that is longer. */
export const DEFAULT_CONFIRM_SECONDS = 60;
const CONFIRM_STEPS = 4;

/** The confirmation run's measured seconds: as set, else 60 s or 4 steps' length, whichever is longer. */
export const confirmSecondsOf = (s: { stepSeconds: number; confirmSeconds?: number }): number =>
  s.confirmSeconds ?? Math.max(DEFAULT_CONFIRM_SECONDS, CONFIRM_STEPS * s.stepSeconds);

const whole = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label} must be a whole number` })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be at least ${min.toLocaleString("en-US")}`)
    .max(max, `${label} must be at most ${max.toLocaleString("en-US")}`);

export const CeilingSettings = z
  .object({
    /** The goal as typed ("p99<50ms"); parsed by lib/ceiling/slo.ts. */
    slo: z.string({ error: "Latency goal is required, e.g. p99<50ms" }).superRefine((v, ctx) => {
      const r = parseSlo(v);
      if (!r.ok) ctx.addIssue({ code: "custom", message: `Latency goal: ${r.message}` });
    }),
    /** The latency the goal is on (a name the workload declares); absent: its delivery latency. */
    metric: z.string().optional(),
    stepSeconds: whole("Step", MIN_STEP_SECONDS, 3600).default(DEFAULT_STEP_SECONDS),
    /** The confirmation run's measured window; absent: confirmSecondsOf's default. */
    confirmSeconds: whole("Confirmation", MIN_STEP_SECONDS, 4 * 3600).optional(),
    startRate: whole("Start rate", 1, 10_000_000).default(DEFAULT_START_RATE),
    maxRate: whole("Maximum rate", 1, 10_000_000).default(DEFAULT_MAX_RATE),
    /** Percent: stop once the bracket is this narrow. */
    precisionPercent: z
      .number({ error: "Precision must be a number of percent" })
      .gt(0, "Precision must be above 0%")
      .lt(100, "Precision must be below 100%")
      .default(SEARCH_DEFAULTS.precision * 100),
    maxSteps: whole("Maximum steps", 1, 100).default(SEARCH_DEFAULTS.maxSteps),
  })
  .strict()
  .refine((s) => s.startRate <= s.maxRate, { message: "Start rate must be at most the maximum rate", path: ["startRate"] });
export type CeilingSettings = z.output<typeof CeilingSettings>;
export type CeilingSettingsInput = z.input<typeof CeilingSettings>;

/** The settings checked against the workload (its metric names), field by field; or the settings. */
export function parseCeilingSettings(input: unknown, kind: string): { ok: true; settings: CeilingSettings } | { ok: false; errors: Record<string, string> } {
  const r = CeilingSettings.safeParse(input);
  if (!r.success) {
    const errors: Record<string, string> = {};
    for (const i of r.error.issues) {
      if (i.code === "unrecognized_keys") {
        const known = Object.keys(CeilingSettings.shape).join(", ");
        for (const k of i.keys) errors[k.slice(0, 40)] ??= `unknown setting ${JSON.stringify(k)}: the settings are ${known}`;
        continue;
      }
      const key = String(i.path[0] ?? "settings");
      errors[key] ??= i.message;
    }
    return { ok: false, errors };
  }
  const m = goalMetric(kind, r.data.metric);
  if (!m.ok) return { ok: false, errors: { metric: m.message.replace(/^--metric /, "Metric ") } };
  return { ok: true, settings: r.data };
}

/**
 * How long a search loads the target as set: at most `maxSteps` steps, each a run of the config's warm-up, the
 * step's measured window and up to the drain (runTimeOf's total, as the run form's), and up to
 * MAX_CONFIRMATIONS longer confirmation runs (steps run again come on top: starved, undecided, or a miss measured
 * again); setup and
 * verification of each step come on top. It stops sooner once the bracket is narrow enough.
 */
export function ceilingSecondsAtMost(s: Pick<CeilingSettings, "stepSeconds" | "maxSteps" | "confirmSeconds">, warmupSeconds: number): number {
  const confirmations = MAX_CONFIRMATIONS * runTimeOf({ warmupSeconds, durationSeconds: confirmSecondsOf(s) }).total;
  return s.maxSteps * runTimeOf({ warmupSeconds, durationSeconds: s.stepSeconds }).total + confirmations;
}

/** What the search runs on, from stored settings. */
export function searchOptionsOf(s: CeilingSettings): SearchOptions {
  return { ...SEARCH_DEFAULTS, startRate: s.startRate, maxRate: s.maxRate, precision: s.precisionPercent / 100, maxSteps: s.maxSteps };
}

/** The parsed goal of stored settings (they were checked when stored). */
export function sloOf(s: CeilingSettings): Slo {
  const r = parseSlo(s.slo);
  if (!r.ok) throw new Error(`stored latency goal ${s.slo}: ${r.message}`);
  return r.slo;
}
