// The verdict's shapes: its categories, its evidence and findings (Zod: stored verdicts are read
// back through them), and what it is judged on (VerdictInput). The rules are ./verdict-rules.ts (their labels too);
// ./verdict.ts judges with them and re-exports these.
import type { PhaseInWindow } from "../phases/window";
import { z } from "zod";
import type { PaceInput } from "./pace";
import type { TelemetryWindow } from "./window";

export const CATEGORIES = [
  "consumers-behind",
  "stall",
  "rate-bound",
  "behind-schedule",
  "host-bound",
  "client-bound",
  "lock-contention-bound",
  "wal-flush-bound",
  "replication-bound",
  "io-bound-server",
  "cpu-bound-server",
  "autovacuum-pressure",
  "held-snapshot",
  "connection-bound",
  "undetermined",
] as const;
export type Category = (typeof CATEGORIES)[number];

/** Stored verdicts before the rate-bound rule judged every target rate called it throttle-bound: read as rate-bound. */
const RENAMED: Record<string, Category> = { "throttle-bound": "rate-bound" };
const CategoryOnRead = z.preprocess((c) => (typeof c === "string" ? (RENAMED[c] ?? c) : c), z.enum(CATEGORIES));

export const Evidence = z.object({
  what: z.string(),
  value: z.number(),
  unit: z.string(),
  /** The threshold it is held against, and how ("≥" must reach it, ">" must exceed it, "<" must stay below). */
  threshold: z.number().optional(),
  cmp: z.enum(["≥", ">", "<"]).optional(),
  holds: z.boolean().optional(),
});
export type Evidence = z.infer<typeof Evidence>;

export const Finding = z.object({ category: CategoryOnRead, matched: z.boolean(), evidence: z.array(Evidence) });
export type Finding = z.infer<typeof Finding>;

export const Verdict = z.object({
  category: CategoryOnRead,
  statement: z.string(),
  evidence: z.array(Evidence),
  /** Other categories whose rule also matched (secondary limits). */
  also: z.array(CategoryOnRead),
  /** Every rule's evidence, matched or not. */
  findings: z.array(Finding),
  /**
   * The runner's load as a caution on the latencies, when the client rule held but the runner was not the limit
   * (starved of CPU, or busy while the rate asked was met): "these latencies include up to N ms of the runner's own
   * delay: …". The statement ends with it; absent on verdicts stored before it.
   */
  caution: z.string().optional(),
  /** What the verdict could not look at (no telemetry, no host metrics…). */
  blindSpots: z.array(z.string()),
});
export type Verdict = z.infer<typeof Verdict>;

export interface ClientInput {
  cpuPct?: number;
  /** The runner's threads' time runnable but not running, ms per second. */
  runQueueWaitMsPerSec?: number;
  /** The main operation's own service time (its p50, ms): what a loop delay is held against. */
  serviceMs?: number;
  eventLoopUtilization?: number;
  eventLoopDelayMaxMs?: number;
  /** The event-loop delay a latency's p99 can carry over the window, and that p99 (the runner's load check). */
  exposedDelayMs?: number;
  mainP99Ms?: number;
  /**
   * A run over several runner processes: the part these numbers are from, the worst-loaded one (a merge or an
   * average would hide one starved part), and the other parts the client rule held for too. The verdict names it.
   */
  part?: ClientPart;
}

export interface ClientPart {
  index: number;
  of: number;
  /** Where it ran (the finished run's manifest says; a live second does not). */
  host?: string;
  pid?: number;
  /** Other parts the client rule held for (their index). */
  alsoBound?: number[];
  /** Live: the seconds of the span it was the worst-loaded in, when another part was in some. */
  worstIn?: { seconds: number; of: number };
}

/** "part 1 of 2 (pid 4242 on host X)", and the other parts bound beside it; live, "part 1 of 2 (the worst-loaded in 7 of 10 s)". */
export function partWords(p: ClientPart): string {
  const inside = [
    ...(p.pid !== undefined && p.host !== undefined ? [`pid ${p.pid} on host ${p.host}`] : []),
    ...(p.worstIn ? [`the worst-loaded in ${p.worstIn.seconds} of ${p.worstIn.of} s`] : []),
  ].join(", ");
  const others = p.alsoBound?.length ? `${inside ? "; " : ""}part${p.alsoBound.length > 1 ? "s" : ""} ${p.alsoBound.join(", ")} too` : "";
  return `part ${p.index} of ${p.of}${inside || others ? ` (${inside}${others})` : ""}`;
}

export interface VerdictInput {
  /** The server-side window; absent when telemetry was off or could not connect. */
  telemetry?: TelemetryWindow;
  /** The runner's own numbers over the window; each one given here takes precedence over telemetry.client's. */
  client?: ClientInput;
  /** The run's pace: the rate asked (throttle or open loop) and achieved, backlog, stalls (./pace-rules.ts). */
  pace?: PaceInput;
  /** Older callers' write throttle (0 = unthrottled) and the write rate achieved: read as `pace`. */
  throttle?: { perSec: number; achievedPerSec: number };
  /** The run's own fault and bloat phases inside the window (lib/phases/window.ts): the statement says it held them. */
  phases?: PhaseInWindow[];
}
