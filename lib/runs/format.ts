// Formatting shared by the run pages, the runs list and the compare view. Pure functions, safe in the browser.
import { fmtBytes } from "../../workloads/fields";
import { definitionOf, type WorkloadConfig } from "../workloads/config";
import { longRunWords } from "../workloads/long-run";

export { fmtBytes };
export { fmtChange, fmtLatencies, fmtLatency, fmtMs, fmtPercent } from "./numbers";

/**
 * A run's knobs in words, one part per knob, for the runs list, the run page and the CLI: the workload's own
 * describe() (workloads/<kind>/definition.ts), e.g. ["10 writers", "15 readers", "2,900 msg/s limit", "1,800 s measured"],
 * then a long run's end (lib/workloads/long-run.ts), the sessions' synchronous_commit and the run's fault and bloat
 * phases when the run set them (fields every workload has).
 */
export function knobsParts(c: WorkloadConfig | null): string[] {
  if (!c) return [];
  const sync = (c as { synchronousCommit?: string }).synchronousCommit;
  const phases = (c as { phases?: string }).phases;
  return [...definitionOf(c).describe(c), ...longRunWords(c), ...(sync ? [`synchronous_commit ${sync}`] : []), ...(phases ? [`phases ${phases}`] : [])];
}

export const knobsLabel = (c: WorkloadConfig | null): string => knobsParts(c).join(" · ");

/** Messages per second with thousands separators, no decimals above 100. */
export function fmtRate(n: number | null | undefined): string {
  if (n == null || !Number.isFinite(n)) return "–";
  return n >= 100 ? Math.round(n).toLocaleString("en-US") : n.toLocaleString("en-US", { maximumFractionDigits: 1 });
}

export function fmtMiB(n: number | null | undefined): string {
  if (n == null || !Number.isFinite(n)) return "–";
  return n.toLocaleString("en-US", { maximumFractionDigits: n >= 100 ? 0 : 2 });
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
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hour12: false,
  }).formatToParts(d);
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
