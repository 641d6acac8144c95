// Recording a run in the control store as it executes: its phases, its samples and its outcome. The runner
// (runner/main.ts, runs the app queued) and the CLI's --save (runner/cli.ts) both record through this, so a
// run looks the same in the app whichever way it was started, and neither loses a sample silently while the
// control store is briefly down (everything is kept and retried; what is truly lost is said in the run).
import type { PrismaClient } from "../db";
import type { Phase } from "../measurement/metrics";
import { maskUrl } from "../targets/pgurl";
import { storeErrorText } from "../status/health";
import { SampleOutbox, StopBudget, untilStored } from "./outbox";
import { appendSample, finishRun, isCancelRequested, setPhase } from "./store";
import type { SampleMetrics } from "../measurement/sample";
import { countWords } from "../words";

export interface RecordedSample {
  seq: number;
  phase: Phase;
  time: Date;
  metrics: SampleMetrics;
}

export type RunOutcome = Parameters<typeof finishRun>[1];

export interface RunRecorder {
  runId: string;
  /** Stores a phase change after the ones before it, retried while the control store is down; never throws. */
  phase(p: Phase): void;
  /** The last phase reported before "done": where an interrupted run was. */
  readonly lastPhase: Phase;
  /** Keeps one sample until the control store has it (lib/runs/outbox.ts: in order, retried, bounded). */
  sample(s: RecordedSample): void;
  /** Whether someone asked (in the app or by API) for this run to stop. */
  cancelRequested(): Promise<boolean>;
  /**
   * Waits for the phases and samples in flight (or, when giving up, counts what is still waiting as lost), says
   * in the outcome which samples were lost, then stores the outcome, retried like the samples. Its error is
   * masked: it may quote a connection string.
   */
  finish(outcome: RunOutcome): Promise<void>;
  /** What the control store has not taken yet, in words ("the outcome and 3 sample(s)"), or null when nothing. */
  unsaved(): string | null;
}

/**
 * `giveUp`: true once the caller is stopping (Ctrl-C, SIGTERM); what the control store has not taken by then is
 * given up instead of waited for, and reported as lost.
 */
export function runRecorder(runId: string, db: PrismaClient, log: (line: string) => void, stopping: () => boolean = () => false): RunRecorder {
  const note = (line: string) => log(`${runId}: ${line}`);
  // Once stopping, every call still waiting gets a short time in all: a frozen control store never fails a call.
  const budget = new StopBudget(stopping);
  const giveUp = budget.stopping;
  let outcomeStored = false;
  let phases: Promise<void> = Promise.resolve();
  let lastPhase: Phase = "setup";
  const outbox = new SampleOutbox<RecordedSample>(
    // A retry after a store whose answer was lost finds the sample there already (primary key run_id, seq).
    (s) =>
      budget.bound(appendSample(runId, s.seq, s.phase, s.metrics, s.time, db)).catch((e) => {
        if ((e as { code?: string }).code !== "P2002") throw e;
      }),
    note,
    giveUp,
  );
  return {
    runId,
    get lastPhase() {
      return lastPhase;
    },
    phase(p) {
      if (p !== "done") lastPhase = p;
      // Kept and retried like the samples, in order, so the run's page never shows a stale phase.
      phases = phases
        .then(() => untilStored(`the phase (${p})`, () => budget.bound(setPhase(runId, p, db)), note, giveUp))
        .catch((e) => note(`could not store phase ${p}: ${storeErrorText(e)}`));
    },
    sample: (s) => outbox.push(s),
    cancelRequested: () => budget.bound(isCancelRequested(runId, db)),
    async finish(outcome) {
      await phases;
      if (giveUp()) outbox.close();
      else await outbox.flush();
      const lost = outbox.lostNote();
      let o: RunOutcome = outcome.error ? { ...outcome, error: maskUrl(outcome.error) } : outcome;
      if (lost) {
        if (o.summary) o = { ...o, summary: { ...o.summary, notes: [...(o.summary.notes ?? []), lost] } };
        if (o.error || !o.summary) o = { ...o, error: o.error ? `${o.error}; ${lost}` : lost };
      }
      // The outcome (with the summary) is kept until the control store has it.
      try {
        await untilStored(`the outcome (${o.status})`, () => budget.bound(finishRun(runId, o, db)), note, giveUp);
        outcomeStored = true;
      } catch (err) {
        if (!giveUp()) throw err;
        throw new Error(`${storeErrorText(err)}: not saved: run ${runId}'s outcome (${o.status})${lost ? `; ${lost}` : ""}`, { cause: err });
      }
    },
    unsaved() {
      const parts = [...(outcomeStored ? [] : ["the outcome"]), ...(outbox.waiting ? [`${countWords(outbox.waiting, "sample")}`] : [])];
      return parts.length ? parts.join(" and ") : null;
    },
  };
}
