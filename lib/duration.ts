// The one duration parser: Go's time.Duration syntax, which the reference tool prints ("19.202047ms",
// "2m0s") and its flags take ("-duration 30s"). The CLI's own flags use it too, in whole seconds.

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Parses a Go time.Duration string ("19.202047ms", "8.560574463s", "2m0s", "0s", "1.5µs") to ms; null if it is not one. */
export function parseGoDuration(s: string): number | null {
  const t = s.trim();
  if (t === "0") return 0;
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|μs|ms|s|m|h)/y;
  let ms = 0;
  let i = 0;
  let neg = false;
  if (t.startsWith("-")) {
    neg = true;
    i = 1;
  }
  if (i >= t.length) return null;
  while (i < t.length) {
    re.lastIndex = i;
    const m = re.exec(t);
    if (!m) return null;
    ms += Number(m[1]) * UNIT_MS[m[2]];
    i = re.lastIndex;
  }
  return neg ? -ms : ms;
}

/** A duration flag in whole seconds: Go syntax ("30s", "2m", "1m30s", "1h") or plain seconds ("45"); null otherwise. */
export function parseWholeSeconds(v: string): number | null {
  const s = v.trim();
  if (/^\d+$/.test(s)) return Number(s);
  const ms = parseGoDuration(s);
  if (ms === null || ms < 0 || ms % 1000 !== 0) return null;
  return ms / 1000;
}

/** A duration flag in whole milliseconds: Go syntax ("100ms", "1s", "1m") or plain milliseconds ("250"); null otherwise. */
export function parseWholeMillis(v: string): number | null {
  const s = v.trim();
  if (/^\d+$/.test(s)) return Number(s);
  const ms = parseGoDuration(s);
  if (ms === null || ms < 0 || !Number.isInteger(ms)) return null;
  return ms;
}
