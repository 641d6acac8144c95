// The shape of a case of `npm run bench:verdict` (scripts/bench-verdict.ts): one file a case in this folder,
// its default export this. Files whose names start with "_" are not cases.
import type { RunSummary } from "../../lib/measurement/summary";

export interface VerdictCase {
  name: string;
  /** What the case provokes, in words ("a 2 s LOCK TABLE mid-window"). */
  provoked: string;
  /** The verdict categories that are right for it (lib/telemetry/verdict-shape.ts CATEGORIES). */
  expected: string[];
  /** What the headline must also say (the cause's name, the holder…): each must match, or the case is a MISMATCH. */
  mentions?: RegExp[];
  run(ctx: { targetUrl: string; log: (line: string) => void }): Promise<RunSummary>;
}
