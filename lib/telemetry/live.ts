// The live verdict: the same rules over the last seconds of a running run's measured window, shown once enough
// of it is in, and changed only on sustained evidence: a new category must hold for LIVE_STABLE_SECONDS in a row
// before it replaces the one shown (a verdict over a few seconds would otherwise flicker between categories on
// a busy machine). Browser-safe.
import type { Operations } from "../measurement/metrics";
import type { SampleMetrics } from "../measurement/sample";
import type { TelemetrySample } from "./shape";
import { PaceTrack, type PacedSample, type PaceSpec } from "./pace";
import { paceInputOf } from "./pace-rules";
import { type Category, type ClientPart, verdictOf, type Verdict } from "./verdict";
import { telemetryWindow } from "./window";

/** Seconds of measured telemetry a live verdict needs before it is shown, and the span it judges. */
export const LIVE_MIN_SECONDS = 5;
export const LIVE_SPAN_SECONDS = 10;
/** Seconds in a row a new category must hold before the live verdict changes to it. */
export const LIVE_STABLE_SECONDS = 3;

/** One measured sample as the live verdict reads it: its counts and latencies, its consumer groups, and the server's reading. */
export type LiveSample = PacedSample & Pick<SampleMetrics, "groups" | "processes"> & { telemetry?: TelemetrySample };

/** The verdict over the last LIVE_SPAN_SECONDS of `measured`, or null before LIVE_MIN_SECONDS of telemetry are in. */
export function liveVerdict(measured: readonly LiveSample[], spec: PaceSpec): { verdict: Verdict; seconds: number } | null {
  const span: LiveSample[] = [];
  let sec = 0;
  for (let i = measured.length - 1; i >= 0 && sec < LIVE_SPAN_SECONDS; i--) {
    span.unshift(measured[i]);
    sec += measured[i].intervalSec;
  }
  const tel = span.flatMap((m) => (m.telemetry ? [m.telemetry] : []));
  const telSec = tel.reduce((a, t) => a + t.intervalSec, 0);
  if (telSec < LIVE_MIN_SECONDS) return null;
  const track = new PaceTrack(spec);
  for (const m of span) track.addSample(m);
  // The span's counts per operation, as a window's (latencies come from the track's per-second samples).
  const operations: Operations = {};
  for (const name of new Set(span.flatMap((m) => Object.keys(m.operations)))) {
    const count = span.reduce((a, m) => a + (m.operations[name]?.count ?? 0), 0);
    operations[name] = { count, perSecond: sec > 0 ? count / sec : 0, errors: 0, latency: {} };
  }
  const counted = { operations };
  // Every consumer group reads every message: the samples' read count is the groups' sum, judged per group.
  const groups = Math.max(1, ...span.map((m) => m.groups?.length ?? 0));
  const part = liveWorstPart(span);
  const verdict = verdictOf({ telemetry: telemetryWindow(tel), pace: paceInputOf(track, counted, { groups }), ...(part ? { client: { part } } : {}) });
  return { verdict, seconds: sec };
}

/**
 * A run over several runner processes: each second's telemetry carries its worst-loaded part's runner numbers, so
 * the span's client numbers are that part's: named as the finished verdict names it, with the seconds it was the
 * worst in when another part was in some (their numbers are then in the span's too).
 */
function liveWorstPart(span: readonly LiveSample[]): ClientPart | undefined {
  const ranked = span.flatMap((m) => (m.processes && m.processes.worst !== null ? [m.processes] : []));
  if (!ranked.length) return undefined;
  const count = new Map<number, number>();
  for (const p of ranked) count.set(p.worst!, (count.get(p.worst!) ?? 0) + 1);
  const [index, seconds] = [...count].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0];
  const of = Math.max(...ranked.map((p) => p.parts.length));
  return { index, of, ...(seconds < ranked.length ? { worstIn: { seconds, of: ranked.length } } : {}) };
}

export interface StableVerdict {
  verdict: Verdict;
  /** The span the verdict judged, seconds. */
  seconds: number;
  /** Seconds into the measured window when the category shown last changed (or first appeared). */
  sinceSec: number;
  /** A different category the newest seconds point to, not yet held LIVE_STABLE_SECONDS. */
  pending?: { category: Category; seconds: number };
}

/**
 * The live verdict with hysteresis, fed one measured sample at a time (the live page keeps one per run). The
 * category shown changes only once another has been the verdict for LIVE_STABLE_SECONDS in a row; meanwhile the
 * shown verdict is the newest one of its category.
 */
export class LiveVerdicts {
  private measured: LiveSample[] = [];
  private fed = 0;
  private elapsed = 0;
  private shown: StableVerdict | null = null;
  private pending: { category: Category; seconds: number; verdict: Verdict; span: number } | null = null;

  constructor(readonly spec: PaceSpec) {}

  /** How many samples were fed (the page feeds only the new ones). */
  get count(): number {
    return this.fed;
  }

  push(m: LiveSample): StableVerdict | null {
    this.measured.push(m);
    this.fed++;
    // Only the span is judged: older samples are dropped beyond it (a 24-hour run keeps a few dozen).
    if (this.measured.length > 4 * LIVE_SPAN_SECONDS) this.measured.splice(0, this.measured.length - 2 * LIVE_SPAN_SECONDS);
    this.elapsed += m.intervalSec;
    const now = liveVerdict(this.measured, this.spec);
    if (!now) return this.shown;
    if (!this.shown || now.verdict.category === this.shown.verdict.category) {
      const sinceSec = this.shown?.sinceSec ?? this.elapsed;
      this.shown = { verdict: now.verdict, seconds: now.seconds, sinceSec };
      this.pending = null;
      return this.shown;
    }
    const held = this.pending?.category === now.verdict.category ? this.pending.seconds + m.intervalSec : m.intervalSec;
    this.pending = { category: now.verdict.category, seconds: held, verdict: now.verdict, span: now.seconds };
    // (A second's interval is a few ms either side of 1 s: three of them count as three seconds.)
    if (held >= LIVE_STABLE_SECONDS - 0.05) {
      this.shown = { verdict: now.verdict, seconds: now.seconds, sinceSec: this.elapsed };
      this.pending = null;
      return this.shown;
    }
    this.shown = { ...this.shown, pending: { category: this.pending.category, seconds: held } };
    return this.shown;
  }

  current(): StableVerdict | null {
    return this.shown;
  }
}
