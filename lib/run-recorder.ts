// Recording a run in the control store as it executes: its phases, its samples and its outcome. The runner
// (runner/main.ts, runs the app queued) and the CLI's --save (runner/cli.ts) both record through this, so a
// run looks the same in the app whichever way it was started.
import type { PrismaClient } from "./db";
import type { Phase } from "./metrics";
import { maskUrl } from "./pgurl";
import { appendSample, finishRun, isCancelRequested, setPhase } from "./runs";
import type { SampleMetrics } from "./sample";

export interface RecordedSample {
  seq: number;
  phase: Phase;
  time: Date;
  metrics: SampleMetrics;
}

export type RunOutcome = Parameters<typeof finishRun>[1];

export interface RunRecorder {
  runId: string;
  /** Stores a phase change after the ones before it; a failure is reported through `onProblem`, never thrown. */
  phase(p: Phase): void;
  /** Stores one sample; the promise rejects when it could not be stored (the engine chains, reports and goes on). */
  sample(s: RecordedSample): Promise<void>;
  /** Whether someone asked (in the app or by API) for this run to stop. */
  cancelRequested(): Promise<boolean>;
  /** Waits for the phases in flight, then stores the outcome (its error masked: it may quote a connection string). */
  finish(outcome: RunOutcome): Promise<void>;
}

export function runRecorder(runId: string, db: PrismaClient, onProblem: (line: string) => void): RunRecorder {
  let phases: Promise<void> = Promise.resolve();
  return {
    runId,
    phase(p) {
      phases = phases.then(() => setPhase(runId, p, db)).catch((e) => onProblem(`could not store phase ${p} of ${runId}: ${(e as Error).message}`));
    },
    sample: (s) => appendSample(runId, s.seq, s.phase, s.metrics, s.time, db),
    cancelRequested: () => isCancelRequested(runId, db),
    async finish(outcome) {
      await phases;
      await finishRun(runId, outcome.error ? { ...outcome, error: maskUrl(outcome.error) } : outcome, db);
    },
  };
}
