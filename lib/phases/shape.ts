// A run's fault and bloat phases (issue 32): what a phase is, how it is written (`--phase KIND@START+LENGTH`, the
// form's rows) and checked. Browser-safe. What a run does with them (carrying them out, reporting each, shading
// each on every chart) is the rest of issue 32, built on this.
import { z } from "zod";
import { parseWholeSeconds } from "../duration";

/** What a phase does to the target or the run, each on the run's timeline for its length. */
export const PHASE_KINDS = ["hold-xmin", "long-reader", "pause-workers", "kill-backend", "restart-target"] as const;
export type PhaseKind = (typeof PHASE_KINDS)[number];

/** One line per kind: what it does, as the form, `--help` and the summary say it. */
export const PHASE_DOES: Record<PhaseKind, string> = {
  "hold-xmin": "holds a transaction open with a snapshot (idle in transaction), so the xmin horizon pins dead rows",
  "long-reader": "keeps one long-running read query going on the run's largest table (its snapshot held as long)",
  "pause-workers": "pauses the run's consumers (readers, workers) between their turns; producers go on",
  "kill-backend": "terminates one of the run's own backends (pg_terminate_backend) at an instant; its loop reconnects",
  "restart-target": "restarts the target (pg_ctl restart -m fast) at an instant: only an embedded target this product started here; the run reconnects",
};

/** A phase as stored with the run: its kind, when it starts and how long it lasts, in whole seconds on the run's
 *  timeline (0 is the moment the run's load starts, as the x axis of its charts counts). An instant kind lasts 0 s. */
export const Phase = z.object({
  kind: z.enum(PHASE_KINDS, { error: `a phase's kind must be one of ${PHASE_KINDS.join(", ")}` }),
  startSec: z.number().int().min(0, "a phase cannot start before the run (start at 0 s or later)"),
  lengthSec: z.number().int().min(0, "a phase's length cannot be negative"),
});
export type Phase = z.infer<typeof Phase>;

/** At most this many phases in one run: each is shaded on every chart and reported on its own. */
export const MAX_PHASES = 8;

/** A run's phases: in order of start, never overlapping (each phase's recovery is measured against the rate
 *  before it, which an overlapping phase would spoil). */
export const Phases = z
  .array(Phase)
  .max(MAX_PHASES, `at most ${MAX_PHASES} phases in one run`)
  .superRefine((phases, ctx) => {
    const sorted = [...phases].sort((a, b) => a.startSec - b.startSec);
    for (let i = 1; i < sorted.length; i++) {
      const before = sorted[i - 1];
      if (sorted[i].startSec < phaseEnd(before))
        ctx.addIssue({
          code: "custom",
          message: `phases overlap: ${phaseText(sorted[i])} starts before ${phaseText(before)} ends at ${phaseEnd(before)} s; start it later`,
        });
    }
  })
  .transform((phases) => [...phases].sort((a, b) => a.startSec - b.startSec));

/** When a phase ends, in seconds on the run's timeline. */
export const phaseEnd = (p: Phase): number => p.startSec + p.lengthSec;

/** A phase as the CLI writes it: `hold-xmin@10s+20s` (an instant kind: `KIND@30s`). */
export function phaseText(p: Phase): string {
  return p.lengthSec > 0 ? `${p.kind}@${p.startSec}s+${p.lengthSec}s` : `${p.kind}@${p.startSec}s`;
}

/** Kinds that act at an instant: written without a length (`kill-backend@20s`). A restart's outage lasts as long
 *  as the server takes to stop and start again (measured, in its report's `did`), not a length the run chose. */
export const INSTANT_KINDS: readonly PhaseKind[] = ["kill-backend", "restart-target"];

/** Kinds that take a connection from under the run's loops: a run with one reconnects its loops, counts the
 *  operations in flight as in doubt and settles them at verification, instead of failing on the lost connection. */
export const RECONNECT_KINDS: readonly PhaseKind[] = ["kill-backend", "restart-target"];

/** Kinds that take the whole target down for a while: every connection of the run (admin, telemetry, the phases'
 *  own) is lost too, and is opened again once the target answers, instead of failing the run or its telemetry. */
export const OUTAGE_KINDS: readonly PhaseKind[] = ["restart-target"];

/** Whether a run with these phases takes its target down (OUTAGE_KINDS): its preflight checks it may. */
export const restartsTarget = (phases: readonly Phase[]): boolean => phases.some((p) => OUTAGE_KINDS.includes(p.kind));

/** Whether a run with these phases reconnects its loops when a connection is lost (RECONNECT_KINDS). */
export const reconnectsOn = (phases: readonly Phase[]): boolean => phases.some((p) => RECONNECT_KINDS.includes(p.kind));

/** Parses `KIND@START+LENGTH` (`hold-xmin@10s+20s`, `pause-workers@1m+30s`); the
 *  phase, or a message naming what is wrong and how to write it. */
export function parsePhase(text: string): { phase: Phase } | { error: string } {
  const how = "write KIND@START+LENGTH, e.g. hold-xmin@10s+20s";
  const m = /^\s*([a-z-]+)@([^+\s]+)(?:\+(\S+))?\s*$/.exec(text);
  if (!m) return { error: `"${text}" is not a phase: ${how}` };
  const [, kind, start, length] = m;
  if (!(PHASE_KINDS as readonly string[]).includes(kind)) return { error: `"${kind}" is not a phase kind: use one of ${PHASE_KINDS.join(", ")}` };
  const startSec = parseWholeSeconds(start);
  if (startSec === null) return { error: `"${start}" in "${text}" is not a start time: whole seconds, e.g. 10s, 1m30s` };
  const instant = INSTANT_KINDS.includes(kind as PhaseKind);
  if (instant && length !== undefined) return { error: `${kind} acts at an instant: write it without a length, e.g. ${kind}@${start}` };
  if (!instant && length === undefined) return { error: `"${text}" has no length: ${kind}@${start}+20s holds it for 20 s` };
  const lengthSec = instant ? 0 : parseWholeSeconds(length ?? "");
  if (lengthSec === null) return { error: `"${length}" in "${text}" is not a length: whole seconds, e.g. 20s, 1m` };
  if (!instant && lengthSec === 0) return { error: `"${text}" lasts 0 s: give it a length of at least 1 s` };
  return { phase: { kind: kind as PhaseKind, startSec, lengthSec } };
}

/** A phase that does not fit in a run of `runSec` seconds (its load's length, warm-up included), or null. */
export function phaseOutsideRun(p: Phase, runSec: number): string | null {
  if (p.startSec >= runSec) return `${phaseText(p)} starts at ${p.startSec} s, after the run's ${runSec} s: start it earlier or run longer`;
  if (phaseEnd(p) > runSec)
    return `${phaseText(p)} ends at ${phaseEnd(p)} s, after the run's ${runSec} s: shorten it or run longer (its recovery needs time after it too)`;
  return null;
}

/** A run's phases as one line, in order: `hold-xmin@10s+20s, pause-workers@40s+10s` (the form's text, the stored field). */
export const phasesText = (phases: readonly Phase[]): string => phases.map(phaseText).join(", ");

/**
 * A run's phases from their line (commas or spaces between them), checked together: in order, none overlapping, at
 * most MAX_PHASES. The phases, or a message naming the first thing wrong and how to write it.
 */
export function parsePhases(text: string): { phases: Phase[] } | { error: string } {
  const words = text.split(/[\s,]+/).filter(Boolean);
  const phases: Phase[] = [];
  for (const w of words) {
    const r = parsePhase(w);
    if ("error" in r) return r;
    phases.push(r.phase);
  }
  const all = Phases.safeParse(phases);
  return all.success ? { phases: all.data } : { error: all.error.issues[0].message };
}

/** The phases a config carries (its `phases` line, as the schema stored it), in order; none when it has none. */
export function phasesOf(config: { phases?: string }): Phase[] {
  if (!config.phases) return [];
  const r = parsePhases(config.phases);
  return "phases" in r ? r.phases : [];
}

const APPLICATION_PREFIX = "pgbb phase ";

/** The application_name of a phase's own connection (runner/phases/actions.ts): "pgbb phase hold-xmin@10s+20s", which
 *  pg_stat_activity shows and the verdict's held-snapshot finding reads back (phaseOfApplication). */
export const phaseApplicationName = (p: Phase): string => `${APPLICATION_PREFIX}${phaseText(p)}`;

/** The phase a session belongs to, from its application_name ("hold-xmin@10s+20s"), or null when it is not a phase's. */
export const phaseOfApplication = (applicationName: string | undefined): string | null =>
  applicationName?.startsWith(APPLICATION_PREFIX) ? applicationName.slice(APPLICATION_PREFIX.length) : null;
