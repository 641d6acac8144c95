// Formatting shared by the run pages, the runs list and the compare view. Pure functions, safe in the browser.
import type { WorkloadConfig } from "./workloads";

/** "10w · 4p · 5×4r · b100/200 · 5k/s · 120s" for pubsub, "10w · 15r · 2.9k/s · 1800s" for queue. */
export function knobsLabel(c: WorkloadConfig | null): string {
  if (!c) return "";
  const parts =
    c.kind === "pubsub"
      ? [`${c.writers}w`, `${c.partitions}p`, `${c.consumerGroups}×${c.readers}r`, `b${c.writeBatch}/${c.readBatch}`]
      : [`${c.writers}w`, `${c.readers}r`];
  if (c.payloadBytes !== 1024) parts.push(`${fmtBytes(c.payloadBytes)}`);
  parts.push(c.throttleWritesPerSec ? `${compact(c.throttleWritesPerSec)}/s` : "unthrottled", `${c.durationSeconds}s`);
  return parts.join(" · ");
}

export function compact(n: number): string {
  if (n >= 1_000_000) return `${+(n / 1_000_000).toFixed(2)}M`;
  if (n >= 1000) return `${+(n / 1000).toFixed(1)}k`;
  return String(n);
}

export function fmtBytes(n: number): string {
  if (n >= 1048576) return `${+(n / 1048576).toFixed(1)} MiB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

/** Messages per second with thousands separators, no decimals above 100. */
export function fmtRate(n: number | null | undefined): string {
  if (n == null || !Number.isFinite(n)) return "–";
  return n >= 100 ? Math.round(n).toLocaleString("en-US") : n.toLocaleString("en-US", { maximumFractionDigits: 1 });
}

export function fmtMiB(n: number | null | undefined): string {
  if (n == null || !Number.isFinite(n)) return "–";
  return n.toLocaleString("en-US", { maximumFractionDigits: n >= 100 ? 0 : 2 });
}

/** Milliseconds with 3 significant digits: 0.412, 3.18, 27.5, 1,204. */
export function fmtMs(n: number | null | undefined): string {
  if (n == null || !Number.isFinite(n)) return "–";
  if (n >= 1000) return Math.round(n).toLocaleString("en-US");
  const s = n.toPrecision(3);
  return s.includes(".") && !s.includes("e") ? s.replace(/0+$/, "").replace(/\.$/, "") : String(+s);
}

export function fmtInt(n: number | null | undefined): string {
  return n == null || !Number.isFinite(n) ? "–" : Math.round(n).toLocaleString("en-US");
}

/** "1m 05s", "12s". */
export function fmtDuration(sec: number): string {
  const s = Math.max(0, Math.round(sec));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, "0")}m`;
}

/** "2025-06-01 14:03" in the viewer's time zone, stable between server and browser when given one. */
export function fmtDate(iso: string, timeZone?: string): string {
  const d = new Date(iso);
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hour12: false }).formatToParts(d);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")} ${get("hour")}:${get("minute")}`;
}

export const STATUS_BADGE: Record<string, string> = {
  queued: "neutral",
  running: "",
  completed: "ok",
  failed: "bad",
  cancelled: "warn",
  interrupted: "bad",
};

export const PHASE_LABEL: Record<string, string> = {
  setup: "setting up",
  warmup: "warm-up",
  measuring: "measuring",
  draining: "draining",
  verifying: "verifying",
  done: "done",
};
