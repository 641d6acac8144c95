// The live verdict: the same rules over the last seconds of a running run's measured window, shown once enough
// of it is in (a verdict over two seconds would flicker between categories). Browser-safe.
import type { TelemetrySample } from "./shape";
import { verdictOf, type Verdict } from "./verdict";
import { telemetryWindow } from "./window";

/** Seconds of measured telemetry a live verdict needs before it is shown, and the span it judges. */
export const LIVE_MIN_SECONDS = 5;
export const LIVE_SPAN_SECONDS = 10;

/**
 * The live verdict over the last LIVE_SPAN_SECONDS of the measured window, or null before LIVE_MIN_SECONDS of
 * it are in. `writes` are the engine samples' write counts and intervals over the same span.
 */
export function liveVerdict(
  measured: { telemetry?: TelemetrySample; writes: number; intervalSec: number }[],
  throttlePerSec: number,
): { verdict: Verdict; seconds: number } | null {
  const span: typeof measured = [];
  let sec = 0;
  for (let i = measured.length - 1; i >= 0 && sec < LIVE_SPAN_SECONDS; i--) {
    span.unshift(measured[i]);
    sec += measured[i].intervalSec;
  }
  const tel = span.flatMap((m) => (m.telemetry ? [m.telemetry] : []));
  const telSec = tel.reduce((a, t) => a + t.intervalSec, 0);
  if (telSec < LIVE_MIN_SECONDS) return null;
  const writes = span.reduce((a, m) => a + m.writes, 0);
  const verdict = verdictOf({
    telemetry: telemetryWindow(tel),
    throttle: { perSec: throttlePerSec, achievedPerSec: sec > 0 ? writes / sec : 0 },
  });
  return { verdict, seconds: sec };
}
